/**
 * The like toggle's transaction in its forms, in process against one sqld (and the local file for
 * reference), with `concurrency` callers at once for `duration` seconds each (issue 37):
 *   interactive, HTTP, one at a time   what the server did before: a statement per HTTP request,
 *                                       transactions queued behind the instance's gate
 *   interactive, WebSocket, 1 / 2       db/remote.ts: a statement per request on a Hrana stream, one
 *                                       transaction at a time, or the next one's BEGIN waiting at
 *                                       the server (the default)
 *   one batch                           transactionBatch(): the same rule in SQL, one request
 * The interactive form is votes.ts's likeAssembly('toggle'): read the caller's like, read whether
 * likes are on, insert or delete, count, write the count. The batch says the same without a reply in
 * between: insert unless a like exists or likes are off (RETURNING), delete when nothing was inserted,
 * write the count (RETURNING). Each caller toggles its own (user, assembly) pairs, as users do.
 * CPU counts this process and sqld. At the end the counts are checked against the rows.
 */
import { createClient } from '@libsql/client';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleLibsql } from 'drizzle-orm/libsql';
import { openDatabase, REMOTE_TRANSACTIONS, type TDb } from '../db/client';
import { transaction, transactionBatch } from '../db/transaction';
import { cpuMs } from './processes';

export interface TFormResult {
  form: string;
  target: 'sqld' | 'file';
  perSecond: number;
  p50: number;
  p99: number;
  cpuUs: number;
  sqldCpuUs: number;
  failed: number;
}

interface TPair {
  assemblyId: number;
  uuid: string;
  userId: string;
}

/** Where likes are kept: assembly_likes by assembly id (until issue 34), or likes by target (after it). */
interface TLikeTable {
  name: string;
  /** The columns naming the assembly, and their values for `pair`. */
  target: (pair: TPair) => ReturnType<typeof sql>;
  insertColumns: string;
  insertValues: (pair: TPair, now: number) => ReturnType<typeof sql>;
}

async function likeTableOf(db: TDb): Promise<TLikeTable> {
  const generic = await db.all<{ name: string }>(sql`select name from sqlite_master where name = 'likes'`);
  if (generic.length > 0)
    return {
      name: 'likes',
      target: (pair) => sql`target_type = 'assembly' and target_id = ${pair.uuid}`,
      insertColumns: 'target_type, target_id, user_id, created_at',
      insertValues: (pair, now) => sql`'assembly', ${pair.uuid}, ${pair.userId}, ${now}`,
    };
  return {
    name: 'assembly_likes',
    target: (pair) => sql`assembly_id = ${pair.assemblyId}`,
    insertColumns: 'assembly_id, user_id, created_at',
    insertValues: (pair, now) => sql`${pair.assemblyId}, ${pair.userId}, ${now}`,
  };
}

/** votes.ts's toggle, statement by statement: each awaits the one before. */
async function toggleInteractive(tx: TDb, likes: TLikeTable, pair: TPair): Promise<void> {
  const table = sql.raw(likes.name);
  const mine = sql`${likes.target(pair)} and user_id = ${pair.userId}`;
  // all(), not get(): drizzle's raw get() on libSQL fails on no row.
  const liked = (await tx.all(sql`select user_id from ${table} where ${mine}`)).length === 0;
  if (liked) {
    const [row] = await tx.all<{ client: string | null }>(
      sql`select client from assemblies where id = ${pair.assemblyId}`,
    );
    if (row?.client && JSON.parse(row.client).attr?.isLike === false) throw new Error('likes are off');
    await tx.run(
      sql`insert into ${table} (${sql.raw(likes.insertColumns)}) values (${likes.insertValues(pair, Date.now())}) on conflict do nothing`,
    );
  } else {
    await tx.run(sql`delete from ${table} where ${mine}`);
  }
  const [counted] = await tx.all<{ n: number }>(sql`select count(*) as n from ${table} where ${likes.target(pair)}`);
  const n = counted?.n ?? 0;
  await tx.run(sql`update assemblies set likes = ${n} where id = ${pair.assemblyId}`);
}

/** The same rule with no reply in between: one request on a libSQL server. */
async function toggleInOneBatch(db: TDb, likes: TLikeTable, pair: TPair): Promise<void> {
  const table = sql.raw(likes.name);
  const mine = sql`${likes.target(pair)} and user_id = ${pair.userId}`;
  const likesOn = sql`coalesce((select json_extract(client, '$.attr.isLike') from assemblies where id = ${pair.assemblyId}), 1) <> 0`;
  const [inserted, deleted] = await transactionBatch(db, (tx) => [
    tx.all(
      sql`insert into ${table} (${sql.raw(likes.insertColumns)}) select ${likes.insertValues(pair, Date.now())}
          where ${likesOn} and not exists (select 1 from ${table} where ${mine}) on conflict do nothing returning user_id`,
    ),
    // changes(): what the insert just before it inserted, on the same connection, in the same transaction.
    tx.all(sql`delete from ${table} where ${mine} and changes() = 0 returning user_id`),
    tx.all(
      sql`update assemblies set likes = (select count(*) from ${table} where ${likes.target(pair)}) where id = ${pair.assemblyId} returning likes`,
    ),
  ]);
  if ((inserted as unknown[]).length === 0 && (deleted as unknown[]).length === 0) throw new Error('likes are off');
}

/** A mutex: the instance's gate as it was for a libSQL server (one transaction at a time). */
function oneAtATime(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}

async function drive(
  form: string,
  target: 'sqld' | 'file',
  pairs: TPair[],
  options: { concurrency: number; durationS: number; sqldPid?: number },
  toggle: (pair: TPair) => Promise<void>,
): Promise<TFormResult> {
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const sqldBefore = options.sqldPid ? cpuMs(options.sqldPid) : 0;
  const started = performance.now();
  const until = started + options.durationS * 1000;
  await Promise.all(
    Array.from({ length: options.concurrency }, async (_, caller) => {
      // Each caller has its own pairs, as each user toggles their own like.
      const own = pairs.filter((_, index) => index % options.concurrency === caller);
      while (performance.now() < until) {
        const pair = own[next++ % own.length]!;
        const begun = performance.now();
        try {
          await toggle(pair);
          latencies.push(performance.now() - begun);
        } catch {
          failed++;
        }
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const done = Math.max(1, latencies.length);
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 10) / 10;
  return {
    form,
    target,
    perSecond: latencies.length / elapsedS,
    p50: at(0.5),
    p99: at(0.99),
    cpuUs: (cpu.user + cpu.system) / done,
    sqldCpuUs: options.sqldPid ? ((cpuMs(options.sqldPid) - sqldBefore) * 1000) / done : 0,
    failed,
  };
}

/** Assemblies whose like count disagrees with their rows (must be none). */
async function countMismatches(db: TDb, likes: TLikeTable, pairs: TPair[]): Promise<number> {
  let wrong = 0;
  for (const pair of new Map(pairs.map((p) => [p.assemblyId, p])).values()) {
    const [row] = await db.all<{ likes: number; n: number }>(
      sql`select likes, (select count(*) from ${sql.raw(likes.name)} where ${likes.target(pair)}) as n from assemblies where id = ${pair.assemblyId}`,
    );
    if (row && row.likes !== row.n) wrong++;
  }
  return wrong;
}

/** The generated counts are made up: start from the rows' own, so that the check afterwards means something. */
async function countsFromRows(db: TDb, likes: TLikeTable, pairs: TPair[]): Promise<void> {
  for (const pair of new Map(pairs.map((p) => [p.assemblyId, p])).values()) {
    await db.run(
      sql`update assemblies set likes = (select count(*) from ${sql.raw(likes.name)} where ${likes.target(pair)}) where id = ${pair.assemblyId}`,
    );
  }
}

/** Pairs of a signed-in user and a public assembly not theirs, from the generated database. */
async function pairsOf(db: TDb, count: number): Promise<TPair[]> {
  const users = await db.all<{ id: string }>(sql`select id from users order by id limit 50`);
  const rows = await db.all<{ id: number; uuid: string; creator_id: string }>(
    sql`select id, uuid, creator_id from assemblies where is_public = 1 and deleted_at is null order by id limit ${count}`,
  );
  return rows
    .map((row, index) => ({
      assemblyId: row.id,
      uuid: row.uuid,
      userId: users[index % users.length]!.id,
      creator: row.creator_id,
    }))
    .filter((pair) => pair.userId !== pair.creator)
    .map(({ creator: _, ...pair }) => pair);
}

/**
 * Runs every form against `sqldUrl` (a sqld whose process is `sqldPid`) and the local `file`, one after
 * the other, and checks the like counts after each.
 */
export async function runTransactionForms(options: {
  sqldUrl: string;
  sqldPid: number;
  file: string;
  concurrency: number;
  durationS: number;
}): Promise<{ results: TFormResult[]; mismatches: number }> {
  const { concurrency, durationS, sqldPid } = options;
  const results: TFormResult[] = [];
  let mismatches = 0;
  const remote = openDatabase(options.sqldUrl, { driver: 'libsql' });
  const single = openDatabase(options.sqldUrl, { driver: 'libsql', maxTransactions: 1 });
  const local = openDatabase(`file:${options.file}`);
  const http = createClient({ url: options.sqldUrl });
  try {
    const likes = await likeTableOf(remote.db);
    const pairs = await pairsOf(remote.db, 1000);
    const run = { concurrency, durationS, sqldPid };
    const gate = oneAtATime();
    const overHttp = drizzleLibsql({ client: http });
    await countsFromRows(remote.db, likes, pairs);
    results.push(
      await drive('interactive, HTTP, one at a time (before)', 'sqld', pairs, run, (pair) =>
        gate(() => overHttp.transaction((tx) => toggleInteractive(tx as unknown as TDb, likes, pair))),
      ),
    );
    results.push(
      await drive('interactive, WebSocket, one at a time', 'sqld', pairs, run, (pair) =>
        transaction(single.db, (tx) => toggleInteractive(tx, likes, pair)),
      ),
    );
    results.push(
      await drive(`interactive, WebSocket, pool of ${REMOTE_TRANSACTIONS} (the default)`, 'sqld', pairs, run, (pair) =>
        transaction(remote.db, (tx) => toggleInteractive(tx, likes, pair)),
      ),
    );

    results.push(
      await drive('one batch (transactionBatch)', 'sqld', pairs, run, (pair) =>
        toggleInOneBatch(remote.db, likes, pair),
      ),
    );
    mismatches += await countMismatches(remote.db, likes, pairs);
    const localLikes = await likeTableOf(local.db);
    const localPairs = await pairsOf(local.db, 1000);
    await countsFromRows(local.db, localLikes, localPairs);
    const localRun = { concurrency, durationS };
    results.push(
      await drive('interactive', 'file', localPairs, localRun, (pair) =>
        transaction(local.db, (tx) => toggleInteractive(tx, localLikes, pair)),
      ),
    );
    results.push(
      await drive('one batch (transactionBatch)', 'file', localPairs, localRun, (pair) =>
        toggleInOneBatch(local.db, localLikes, pair),
      ),
    );
    mismatches += await countMismatches(local.db, localLikes, localPairs);
  } finally {
    http.close();
    remote.close();
    single.close();
    local.close();
  }
  return { results, mismatches };
}
