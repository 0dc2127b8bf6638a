/**
 * Issue 31: the nearby search over 1,000,000 map points, most of them private (not part of `npm test`):
 *
 *   npx tsx bench/nearby.ts <database file> [--points 1000000] [--requests 200] [--before-requests 20] [--seconds 10] [--clients 4] [--fresh]
 *
 * The file is filled once (again with --fresh), straight into the database (db/bulk.ts), 10,000 points
 * per owner (the per-user limit):
 * - the issue's layout: 5 owners' 50,000 private points 50 to 150 km from the spot (10.5, 20.05),
 *   which holds 2 public points;
 * - 45,000 public points: 40,000 over the globe, 5,000 within 20 km of (-30, 100) (past the cap);
 * - the rest private, in the latitude band of the spot's 500 km box (5° to 16°) round the globe;
 * - the signed-in caller: 500 points of its own and 10 private collections of 100 points shared with
 *   it, all within 300 km of the spot.
 * Half of each kind sits in collections of up to 1,000 points, half are orphans.
 *
 * It then times the statement alone in this process, before (the statement of the previous release,
 * on its index map_points_place, made for the measurement and dropped after) and now, on the same
 * file; then starts the production server as bench/worst-case.ts does and asks over HTTP one request
 * at a time (p50, p99), and finally probes /api/health every 10 ms while `--clients` clients ask
 * nearby back to back. Prints the machine and its load average before and after.
 */
import { existsSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { and, asc, between, eq, gte, lte, or, sql } from 'drizzle-orm';
import { insertInChunks } from '../db/bulk';
import { openDatabase, type TDb } from '../db/client';
import { mapCollectionShares, mapCollections, mapPoints, users } from '../db/schema';
import { transaction } from '../db/transaction';
import { buildDist } from '../scripts/build';
import { pointColumns } from '../server/domains/map/access';
import { boundingBox, distanceSql, nearbyQuery } from '../server/domains/map/nearby';
import type { TNearbyInput } from '../server/domains/map/point-schemas';
import { hashPassword } from '../server/infra/password';
import { random } from '../server/seed/random';
import { benchUuid, BENCH_PASSWORD } from './generate';
import { startTarget, stop, waitFor } from './processes';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    points: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '200' },
    'before-requests': { type: 'string', default: '20' },
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '4' },
    port: { type: 'string', default: '3931' },
    fresh: { type: 'boolean', default: false },
  },
});
const file = positionals[0] && resolve(positionals[0]);
if (!file)
  throw new Error(
    'usage: npx tsx bench/nearby.ts <database file> [--points 1000000] [--requests 200] [--before-requests 20] [--seconds 10] [--clients 4] [--fresh]',
  );
const POINTS = Number(values.points);
const REQUESTS = Number(values.requests);
/** The previous statement takes up to seconds a request here: fewer of them. */
const BEFORE_REQUESTS = Number(values['before-requests']);
const BASE = `http://127.0.0.1:${values.port}`;
const SPOT = { latitude: 10.5, longitude: 20.05 };
const DENSE = { latitude: -30, longitude: 100 };
const PER_OWNER = 10_000;
const CALLER = 'nearby_caller';

type TPlace = { latitude: number; longitude: number };
const next = random(31);
const uniform = (low: number, high: number) => low + next() * (high - low);
/** A place `km` from `from` in a random direction (flat-earth offsets: close enough at these distances). */
function around(from: TPlace, minKm: number, maxKm: number): TPlace {
  const km = uniform(minKm, maxKm);
  const bearing = uniform(0, 2 * Math.PI);
  const latitude = from.latitude + (km / 111.2) * Math.cos(bearing);
  return {
    latitude,
    longitude: from.longitude + (km / (111.2 * Math.cos((latitude * Math.PI) / 180))) * Math.sin(bearing),
  };
}

/** Fills `file`: users, collections, points and shares as the header says, in transactions of a few thousand rows. */
async function fill(db: TDb): Promise<void> {
  const now = new Date();
  const caller = benchUuid(31, 9999);
  const owner = (index: number) => benchUuid(31, index);
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const userRows = Array.from({ length: Math.ceil(POINTS / PER_OWNER) + 20 }, (_, i) => ({
    id: owner(i),
    username: `nearby${i}`,
    usernameKey: `nearby${i}`,
    email: `nearby${i}@bench.example`,
    passwordHash,
    createdAt: now,
    updatedAt: now,
  }));
  userRows.push({
    id: caller,
    username: CALLER,
    usernameKey: CALLER,
    email: `${CALLER}@bench.example`,
    passwordHash,
    createdAt: now,
    updatedAt: now,
  });
  await transaction(db, (tx) => insertInChunks(tx, users, userRows));

  let collections = 0;
  let made = 0;
  /** `count` points of `ownerId` at `place()`: half in new collections of `isPublic` (shared with the caller when `shared`), half orphans of `isPublic`. */
  async function add(
    ownerId: string,
    count: number,
    isPublic: boolean,
    place: () => TPlace,
    shared = false,
    perCollection = 1000,
  ): Promise<void> {
    const inCollections = Math.ceil(count / 2);
    await transaction(db, async (tx) => {
      const points: (typeof mapPoints.$inferInsert)[] = [];
      for (let start = 0; start < inCollections; start += perCollection) {
        const id = benchUuid(32, collections++);
        const size = Math.min(perCollection, inCollections - start);
        await tx.insert(mapCollections).values({
          id,
          authorId: ownerId,
          title: `collection ${collections}`,
          isPublic,
          pointCount: size,
          createdAt: now,
          updatedAt: now,
        });
        if (shared) await tx.insert(mapCollectionShares).values({ collectionId: id, userId: caller, createdAt: now });
        for (let position = 0; position < size; position++)
          points.push({
            id: benchUuid(33, made++),
            ownerId,
            collectionId: id,
            position,
            title: `point ${made}`,
            tags: [],
            createdAt: now,
            updatedAt: now,
            ...place(),
          });
      }
      for (let i = inCollections; i < count; i++)
        points.push({
          id: benchUuid(33, made++),
          ownerId,
          title: `point ${made}`,
          tags: [],
          isPublic,
          createdAt: now,
          updatedAt: now,
          ...place(),
        });
      await insertInChunks(tx, mapPoints, points);
    });
  }
  const band = () => ({ latitude: uniform(5, 16), longitude: uniform(-180, 180) });
  const globe = () => ({ latitude: uniform(-85, 85), longitude: uniform(-180, 180) });
  for (let i = 0; i < 5; i++) await add(owner(i), PER_OWNER, false, () => around(SPOT, 50, 150));
  await add(owner(5), 2, true, () => around(SPOT, 5, 300));
  for (let i = 0; i < 4; i++) await add(owner(6 + i), PER_OWNER, true, globe);
  await add(owner(10), 5_000, true, () => around(DENSE, 0, 20));
  await add(caller, 500, false, () => around(SPOT, 0, 300));
  await add(owner(11), 2_000, false, () => around(SPOT, 0, 300), true, 100);
  for (let i = 12; made < POINTS; i++) await add(owner(i), Math.min(PER_OWNER, POINTS - made), false, band);
  console.log(`filled: ${made} points, ${collections} collections, ${userRows.length} users`);
}

/** The access rule of the previous release, tested on each row through its collection and its shares. */
function previousReadableSql(viewerId: string | null) {
  const orphanPublic = sql`(${mapPoints.collectionId} IS NULL AND ${mapPoints.isPublic} = 1)`;
  if (viewerId === null) return sql`(${orphanPublic} OR ${mapCollections.isPublic} = 1)`;
  return sql`(${mapPoints.ownerId} = ${viewerId} OR ${orphanPublic} OR ${mapCollections.isPublic} = 1 OR ${mapCollections.authorId} = ${viewerId} OR EXISTS (SELECT 1 FROM ${mapCollectionShares} WHERE ${mapCollectionShares.collectionId} = ${mapPoints.collectionId} AND ${mapCollectionShares.userId} = ${viewerId}))`;
}

/** The statement of the previous release (before issue 31): the band of map_points_place, each row's access tested. */
function previousQuery(db: TDb, viewerId: string | null, { latitude, longitude, radius, limit }: TNearbyInput) {
  const box = boundingBox(latitude, longitude, radius);
  const distance = distanceSql(latitude, longitude, mapPoints.latitude, mapPoints.longitude);
  const inLongitude = or(
    ...box.longitude.map(([west, east]) => and(gte(mapPoints.longitude, west), lte(mapPoints.longitude, east))),
  );
  return db
    .select({ ...pointColumns, distance: distance.as('distance') })
    .from(mapPoints)
    .leftJoin(mapCollections, eq(mapCollections.id, mapPoints.collectionId))
    .where(
      and(
        between(mapPoints.latitude, box.latitude[0], box.latitude[1]),
        inLongitude,
        previousReadableSql(viewerId),
        sql`${distance} <= ${radius}`,
      ),
    )
    .orderBy(asc(distance), asc(mapPoints.id))
    .limit(limit);
}

function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;
}
const fmt = (ms: number) => ms.toFixed(ms < 10 ? 2 : 1);
const summary = (ms: number[]) => `${fmt(quantile(ms, 0.5))} | ${fmt(quantile(ms, 0.99))}`;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

const ISSUE: TNearbyInput = { ...SPOT, radius: 500, limit: 100 };
const CASES: { name: string; query: (i: number) => TNearbyInput; signedIn: boolean }[] = [
  {
    name: "the issue's request (radius 500, limit 100), anonymous",
    query: (i) => ({ ...ISSUE, latitude: SPOT.latitude + (i % 10) * 0.001 }),
    signedIn: false,
  },
  {
    name: "the issue's request, signed in (500 own, 1,000 shared)",
    query: (i) => ({ ...ISSUE, latitude: SPOT.latitude + (i % 10) * 0.001 }),
    signedIn: true,
  },
  {
    name: 'radius 10, limit 10 at places of the private band, anonymous',
    query: (i) => ({
      latitude: (50 + ((i * 7) % 110)) / 10,
      longitude: (((i * 37) % 3600) - 1800) / 10,
      radius: 10,
      limit: 10,
    }),
    signedIn: false,
  },
  {
    name: 'radius 50 in 5,000 public points (cut at the cap), anonymous',
    query: (i) => ({ ...DENSE, latitude: DENSE.latitude + (i % 10) * 0.001, radius: 50, limit: 100 }),
    signedIn: false,
  },
];

/** Each case's statement in this process through better-sqlite3, previous and current, `REQUESTS` times. */
async function statementTimes(db: TDb, callerId: string): Promise<void> {
  const client = new Database(file!);
  client.pragma('cache_size = -262144');
  const time = (
    build: (viewer: string | null, query: TNearbyInput) => { sql: string; params: unknown[] },
    signedIn: boolean,
    query: (i: number) => TNearbyInput,
    times: number,
  ) => {
    const ms: number[] = [];
    let rows = 0;
    for (let i = -2; i < times; i++) {
      const asked = query(i + 2);
      const { sql: text, params } = build(signedIn ? callerId : null, asked);
      const started = performance.now();
      const answered = client.prepare(text).all(...params) as { distance: number }[];
      if (i >= 0) ms.push(performance.now() - started);
      // The current statement may end with rows beyond the radius, which the service drops.
      rows = answered.filter((row) => row.distance <= asked.radius).length;
    }
    return { ms, rows };
  };
  console.log(
    `\nThe statement alone (better-sqlite3 in this process, ms; ${BEFORE_REQUESTS} requests before, ${REQUESTS} now):\n\n| case | before p50 | before p99 | now p50 | now p99 | points before / now |\n|---|---:|---:|---:|---:|---|`,
  );
  client.exec('CREATE INDEX IF NOT EXISTS map_points_place ON map_points (latitude, longitude)');
  let before: ReturnType<typeof time>[];
  try {
    before = CASES.map((c) =>
      time((viewer, query) => previousQuery(db, viewer, query).toSQL(), c.signedIn, c.query, BEFORE_REQUESTS),
    );
  } finally {
    client.exec('DROP INDEX map_points_place');
  }
  for (const [n, c] of CASES.entries()) {
    const now = time((viewer, query) => nearbyQuery(db, viewer, query).toSQL(), c.signedIn, c.query, REQUESTS);
    console.log(`| ${c.name} | ${summary(before[n]!.ms)} | ${summary(now.ms)} | ${before[n]!.rows} / ${now.rows} |`);
  }
  client.close();
}

async function ask(
  path: string,
  token?: string,
): Promise<{ ms: number; status: number; truncated?: boolean; points?: number }> {
  const started = performance.now();
  const response = await fetch(BASE + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const body = (await response.json()) as { data?: { truncated?: boolean; points?: unknown[] } };
  return {
    ms: performance.now() - started,
    status: response.status,
    truncated: body.data?.truncated,
    points: body.data?.points?.length,
  };
}
const nearbyPath = ({ latitude, longitude, radius, limit }: TNearbyInput) =>
  `/api/map/point/nearby?latitude=${latitude}&longitude=${longitude}&radius=${radius}&limit=${limit}`;

async function overHttp(): Promise<void> {
  const { outdir } = await buildDist(join(tmpdir(), 'tidewatch-nearby-build'));
  // Latency one request at a time, measured without the request log since issue 31.
  const server = startTarget('ours', join(outdir, 'main.js'), file!, Number(values.port), 'silent');
  try {
    await waitFor(`${BASE}/api/health`, false, 600_000);
    const signin = await fetch(`${BASE}/api/user/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: CALLER, password: BENCH_PASSWORD }),
    });
    const token = ((await signin.json()) as { data: { token: string } }).data.token;
    console.log(
      '\nOver HTTP (REST, production build), one request at a time (ms):\n\n| case | p50 | p99 | points | truncated |\n|---|---:|---:|---:|---|',
    );
    for (const c of CASES) {
      for (let i = 0; i < 10; i++) await ask(nearbyPath(c.query(i)), c.signedIn ? token : undefined);
      const timed = [];
      for (let i = 0; i < REQUESTS; i++) timed.push(await ask(nearbyPath(c.query(i)), c.signedIn ? token : undefined));
      if (timed.some((t) => t.status !== 200)) throw new Error(`${c.name}: not 200`);
      console.log(`| ${c.name} | ${summary(timed.map((t) => t.ms))} | ${timed[0]!.points} | ${timed[0]!.truncated} |`);
    }
    const seconds = Number(values.seconds);
    const until = performance.now() + seconds * 1000;
    const hammered: number[] = [];
    const clients = Array.from({ length: Number(values.clients) }, async (_, c) => {
      for (let i = 0; performance.now() < until; i++) {
        const chosen = CASES[(i + c) % 2]!;
        hammered.push((await ask(nearbyPath(chosen.query(i)), chosen.signedIn ? token : undefined)).ms);
      }
    });
    const health: number[] = [];
    const prober = (async () => {
      while (performance.now() < until) {
        const timed = await ask('/api/health');
        if (timed.status !== 200) throw new Error(`health answered ${timed.status}`);
        health.push(timed.ms);
        await new Promise((done) => setTimeout(done, 10));
      }
    })();
    await Promise.all([...clients, prober]);
    console.log(
      `\n/api/health while ${values.clients} clients ask the issue's request back to back (anonymous and signed in) for ${seconds} s: p50 ${fmt(quantile(health, 0.5))} ms, p99 ${fmt(quantile(health, 0.99))} ms, max ${fmt(Math.max(...health))} ms (${health.length} probes)`,
    );
    console.log(
      `the nearby requests meanwhile: ${hammered.length} (${(hammered.length / seconds).toFixed(0)}/s), p50 ${fmt(quantile(hammered, 0.5))} ms, p99 ${fmt(quantile(hammered, 0.99))} ms`,
    );
  } finally {
    await stop(server);
  }
}

async function main(): Promise<void> {
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}`,
  );
  console.log(`load average at the start: ${load()}`);
  if (values.fresh) for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  const fresh = !existsSync(file!);
  const database = openDatabase(`file:${file}`);
  try {
    await database.migrate();
    if (fresh) {
      const started = performance.now();
      await fill(database.db);
      console.log(`filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const counts = await database.db.get<{ points: number; readable: number }>(
      sql`SELECT count(*) AS points, sum(readable_by_anyone) AS readable FROM map_points`,
    );
    console.log(`database: ${counts?.points} points, ${counts?.readable} of them readable by anyone`);
    await statementTimes(database.db, benchUuid(31, 9999));
  } finally {
    database.close();
  }
  await overHttp();
  console.log(`\nload average at the end: ${load()}`);
}

await main();
