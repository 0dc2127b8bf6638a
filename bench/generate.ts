/**
 * Fills a database file with benchmark-scale data (not part of `npm test`):
 *
 *   npx tsx bench/generate.ts <file> [--assemblies 1000000] [--users 100000] [--campaigns 500] [--fts bulk|triggers]
 *
 * On top of the demo seed (demo users, catalog, seasons, a week of war snapshots per season) it adds
 * users, public and private assemblies, drop campaigns with rewards and channels, and the rest of the
 * war snapshots so both demo seasons are complete from their first day at one snapshot per 5 minutes.
 *
 * Every user shares ONE precomputed Argon2id hash of `bench-password`: hashing 100,000 passwords
 * would take about an hour of CPU. Rows go through drizzle prepared statements inside large
 * transactions (db/transaction.ts). The FTS5 index (listable assemblies only, migration 0006) is
 * filled either by the insert trigger (row by row) or by dropping that trigger for the load and
 * indexing the new listable rows in one INSERT ... SELECT afterwards (`--fts bulk`, the default:
 * measured faster, see bench/README.md). The trigger is put back exactly as the migrations made it
 * (its SQL is read from sqlite_master), and FTS5 'rebuild' is never used: it would index private and
 * trashed rows too. The partial indexes of the list orders are dropped for the load the same way and
 * built again from their own SQL afterwards; the triggers that keep sort keys and counts stay on.
 *
 * Progress is reported per stage as the CLI reports it (server/cli/progress.ts): a bar on a terminal,
 * otherwise one line per stage on stderr with its count and time.
 */
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase, type TDb } from '../db/client';
import { assemblies, dropCampaigns, dropChannels, dropRewards, users } from '../db/schema';
import { seedDemoData } from '../server/seed/index';
import { DEMO_COMPANIES, DEMO_ZONES, DEMO_SNAPSHOTS_PER_SEASON, demoSeasons } from '../server/seed/live-data';
import { random } from '../server/seed/random';
import { transaction } from '../db/transaction';
import { hashPassword } from '../server/infra/password';
import { writeSnapshotBatch, type TPreparedSnapshot } from '../server/domains/war/snapshots';
import { createProgressReporter } from '../server/cli/progress';
import type { TProgressListener } from '../server/deps';

export const BENCH_PASSWORD = 'bench-password';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SNAPSHOT_EVERY = 5 * MINUTE;
const BATCH = 25_000;

export interface TGenerateOptions {
  assemblies: number;
  users: number;
  campaigns: number;
  fts: 'bulk' | 'triggers';
  now?: Date;
  /** Where each stage's count goes; by default a progress reporter on stderr (server/cli/progress.ts). */
  progress?: TProgressListener;
}

/** A UUID v4-shaped id derived from a counter: stable across runs, so benchmarks can name rows. */
export function benchUuid(kind: number, index: number): string {
  const hex = (index >>> 0).toString(16).padStart(12, '0');
  return `b0000000-0000-4000-8${kind.toString(16).padStart(3, '0')}-${hex}`;
}

export const WORDS = [
  'storm', 'kraken', 'raider', 'merchant', 'broadside', 'ember', 'tide', 'reef', 'gale', 'corsair', 'siren', 'anchor',
  'mortar', 'ballista', 'culverin', 'torpedo', 'bombard', 'fire', 'frost', 'plague', 'brawler', 'sniper', 'tank', 'hunter',
  'phantom', 'fortress', 'leviathan', 'tempest', 'viper', 'wraith', 'harbor', 'cutlass', 'monsoon', 'typhoon', 'scourge', 'howler',
];

const HULLS = ['dhow', 'cutter', 'hulk', 'brigantine', 'snow'];
const SIDE_WEAPONS = ['culverin1', 'culverin2', 'demicannon1', 'mortar1'];
const FRONT_WEAPONS = ['longGun1', 'bombard1', 'torpedo1', 'rocket1'];

export async function generate(file: string, options: TGenerateOptions): Promise<Record<string, number>> {
  const reporter = options.progress ? undefined : createProgressReporter();
  const progress = options.progress ?? reporter!.listener;
  const now = options.now ?? new Date();
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) rmSync(file + suffix);
  const database = openDatabase(`file:${file}`);
  const { db } = database;
  const timings: Record<string, number> = {};
  /** One stage of `total` units (1 for a stage without a count); `work` reports what it has done through `advance`. */
  const step = async (name: string, total: number, work: (advance: (done: number) => void) => Promise<unknown>) => {
    const started = performance.now();
    let reported = 0;
    const advance = (done: number) => {
      reported = done;
      progress(name, done, total);
    };
    advance(0);
    await work(advance);
    // A stage ends when it reaches its total: once, whether `work` reported it or not.
    if (reported < total) advance(total);
    timings[name] = Math.round(performance.now() - started);
  };
  const started = performance.now();
  try {
    // The default 2 MB page cache thrashes once the indexes of a million rows outgrow it.
    await db.run(sql`PRAGMA cache_size = -262144`);
    await step('migrate + demo seed', 1, async () => {
      database.migrate();
      await seedDemoData(db, now);
    });
    const passwordHash = await hashPassword(BENCH_PASSWORD);

    const userIds: string[] = [];
    await step('users', options.users, async (advance) => {
      // Prepared on each transaction's own `tx`: a statement of the outer db would wait for the transaction to end (db/transaction.ts).
      const insertOn = (tx: TDb) => tx
        .insert(users)
        .values({
          id: sql.placeholder('id'),
          username: sql.placeholder('username'),
          usernameKey: sql.placeholder('usernameKey'),
          email: sql.placeholder('email'),
          passwordHash,
          role: 'user',
          createdAt: now,
          updatedAt: now,
        })
        .prepare();
      for (let start = 0; start < options.users; start += BATCH) {
        await transaction(db, async (tx) => {
          const insert = insertOn(tx);
          for (let i = start; i < Math.min(options.users, start + BATCH); i++) {
            const id = benchUuid(1, i);
            userIds.push(id);
            await insert.run({ id, username: `sailor${i}`, usernameKey: `sailor${i}`, email: `sailor${i}@bench.example` });
          }
        });
        advance(userIds.length);
      }
    });

    // The bulk FTS fill indexes what the load adds: rows after the demo seed's (already indexed by the trigger).
    const firstNewId = ((await db.get<{ id: number | null }>(sql`SELECT max(id) AS id FROM assemblies`))?.id ?? 0) + 1;
    // The partial indexes of the list orders (migrations 0011, 0013) are built once after the load
    // rather than kept row by row during it: the 1,000,000 assemblies took 72.6 s with them, 46.5 s without
    // and 5.4 s to build them after (bench/README.md).
    const listIndexes = await db.all<{ name: string; sql: string }>(
      sql`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'assemblies' AND sql LIKE '% WHERE %'`,
    );
    for (const index of listIndexes) await db.run(sql`DROP INDEX ${sql.identifier(index.name)}`);
    let insertTrigger: string | undefined;
    if (options.fts === 'bulk') {
      insertTrigger = (await db.get<{ sql: string }>(sql`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'assemblies_fts_insert'`))?.sql;
      if (!insertTrigger) throw new Error('trigger assemblies_fts_insert not found: are the migrations applied?');
      await db.run(sql`DROP TRIGGER assemblies_fts_insert`);
    }
    await step('assemblies', options.assemblies, async (advance) => {
      const next = random(7);
      const insertOn = (tx: TDb) => tx
        .insert(assemblies)
        .values({
          uuid: sql.placeholder('uuid'),
          creatorId: sql.placeholder('creatorId'),
          name: sql.placeholder('name'),
          shipId: sql.placeholder('shipId'),
          weapons: sql.placeholder('weapons'),
          armor: sql.placeholder('armor'),
          furnitures: sql.placeholder('furnitures'),
          description: sql.placeholder('description'),
          tags: sql.placeholder('tags'),
          isPublic: sql.placeholder('isPublic'),
          likes: sql.placeholder('likes'),
          views: sql.placeholder('views'),
          ratingSum: sql.placeholder('ratingSum'),
          ratingCount: sql.placeholder('ratingCount'),
          createdAt: sql.placeholder('createdAt'),
          updatedAt: sql.placeholder('updatedAt'),
        })
        .prepare();
      const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
      const span = 365 * DAY;
      for (let start = 0; start < options.assemblies; start += BATCH) {
        await transaction(db, async (tx) => {
          const insert = insertOn(tx);
          for (let i = start; i < Math.min(options.assemblies, start + BATCH); i++) {
            const side = pick(SIDE_WEAPONS);
            const ratingCount = Math.floor(next() * 6);
            // Oldest first, so ids and created_at grow together as on a live site.
            const createdAt = now.getTime() - span + Math.floor((i / options.assemblies) * span);
            await insert.run({
              uuid: benchUuid(2, i),
              creatorId: userIds.length ? userIds[Math.floor(next() * userIds.length)]! : userIds[0],
              name: `${pick(WORDS)} ${pick(WORDS)} ${i}`,
              shipId: pick(HULLS),
              weapons: JSON.stringify([
                { slot: 'leftSideWeapon', itemId: side },
                { slot: 'rightSideWeapon', itemId: side },
                { slot: 'frontWeapon', itemId: pick(FRONT_WEAPONS) },
              ]),
              armor: null,
              furnitures: '[]',
              description: 'Generated for the benchmarks.',
              tags: JSON.stringify([pick(WORDS), pick(WORDS)]),
              isPublic: i % 20 !== 0,
              likes: Math.floor(next() * 50),
              views: Math.floor(next() * 2000),
              ratingSum: ratingCount * (1 + Math.floor(next() * 5)),
              ratingCount,
              createdAt: new Date(createdAt),
              updatedAt: new Date(createdAt),
            });
          }
        });
        advance(Math.min(options.assemblies, start + BATCH));
      }
    });
    await step('list indexes', listIndexes.length, async (advance) => {
      for (const [i, index] of listIndexes.entries()) {
        await db.run(sql.raw(index.sql));
        advance(i + 1);
      }
    });
    if (insertTrigger) {
      const trigger = insertTrigger;
      await step('fts fill (listable rows)', 1, async () => {
        // The same rows and columns as the triggers of migration 0012: public and not in the trash.
        await db.run(
          sql`INSERT INTO assemblies_fts(rowid, name, tags, hull_token) SELECT id, name, tags, hull_token FROM assemblies WHERE id >= ${firstNewId} AND is_public = 1 AND deleted_at IS NULL`,
        );
        await db.run(sql.raw(trigger));
      });
    }

    await step('drop campaigns', options.campaigns, async (advance) => {
      const next = random(11);
      const insertCampaignOn = (tx: TDb) => tx
        .insert(dropCampaigns)
        .values({
          campaignId: sql.placeholder('campaignId'),
          name: sql.placeholder('name'),
          game: 'Skull and Bones',
          description: sql.placeholder('description'),
          imageUrl: sql.placeholder('imageUrl'),
          detailsUrl: sql.placeholder('detailsUrl'),
          startsAt: sql.placeholder('startsAt'),
          endsAt: sql.placeholder('endsAt'),
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: dropCampaigns.id })
        .prepare();
      const insertRewardOn = (tx: TDb) => tx
        .insert(dropRewards)
        .values({ campaignId: sql.placeholder('campaignId'), position: sql.placeholder('position'), name: sql.placeholder('name'), imageUrl: sql.placeholder('imageUrl'), requiredMinutes: sql.placeholder('requiredMinutes') })
        .prepare();
      const insertChannelOn = (tx: TDb) => tx
        .insert(dropChannels)
        .values({ campaignId: sql.placeholder('campaignId'), position: sql.placeholder('position'), name: sql.placeholder('name'), url: sql.placeholder('url') })
        .prepare();
      const hourNow = Math.floor(now.getTime() / HOUR) * HOUR;
      await transaction(db, async (tx) => {
        const [insertCampaign, insertReward, insertChannel] = [insertCampaignOn(tx), insertRewardOn(tx), insertChannelOn(tx)];
        for (let i = 0; i < options.campaigns; i++) {
          // Two years of weekly campaigns, most ended; the last few overlap now (about 4 active).
          const startsAt = hourNow - (options.campaigns - 1 - i) * 1.5 * DAY + 4 * DAY - Math.floor(next() * 12) * HOUR;
          const endsAt = startsAt + 7 * DAY;
          const campaignId = benchUuid(3, i);
          const row = (await insertCampaign.get({
            campaignId,
            name: `${WORDS[i % WORDS.length]} drops ${i}`,
            description: `Campaign ${i}: watch participating channels to earn the rewards.`,
            imageUrl: `https://static.tidewatch.example/drops/${campaignId}.jpg`,
            detailsUrl: `https://www.twitch.tv/drops/campaigns?dropID=${campaignId}`,
            startsAt: new Date(startsAt),
            endsAt: new Date(endsAt),
          })) as { id: number };
          for (let r = 0; r < 3; r++) {
            await insertReward.run({ campaignId: row.id, position: r, name: `Reward ${i}.${r}`, imageUrl: `https://static.tidewatch.example/drops/${i}-${r}.png`, requiredMinutes: 30 * (r + 1) });
          }
          for (let c = 0; c < 2; c++) {
            await insertChannel.run({ campaignId: row.id, position: c, name: `channel${(i + c) % 40}`, url: `https://www.twitch.tv/channel${(i + c) % 40}` });
          }
          if ((i + 1) % 50 === 0) advance(i + 1);
        }
      });
    });

    const { spans } = demoSeasons(now);
    // The demo seed wrote the last week of each season; fill each from its first day up to that week.
    const currentLast = Math.floor(now.getTime() / SNAPSHOT_EVERY) * SNAPSHOT_EVERY;
    const previousLast = spans.previous.endsAtMs - SNAPSHOT_EVERY;
    const week = (DEMO_SNAPSHOTS_PER_SEASON - 1) * SNAPSHOT_EVERY;
    const ranges = [
      { seasonId: spans.previous.id, from: spans.previous.startsAtMs, to: previousLast - week },
      { seasonId: spans.current.id, from: spans.current.startsAtMs, to: currentLast - week },
    ];
    const snapshotCount = ranges.reduce((sum, range) => sum + Math.max(0, Math.ceil((range.to - range.from) / SNAPSHOT_EVERY)), 0);
    await step('war snapshots', snapshotCount, async (advance) => {
      const next = random(5);
      let written = 0;
      for (const range of ranges) {
        const snapshots: TPreparedSnapshot[] = [];
        const scores = DEMO_COMPANIES.map(() => 10_000 + Math.round(next() * 5_000));
        for (let at = range.from; at < range.to; at += SNAPSHOT_EVERY) {
          scores.forEach((_, c) => (scores[c] = scores[c]! + Math.round(20 + next() * 40)));
          snapshots.push({
            seasonId: range.seasonId,
            capturedAtMs: at,
            companies: DEMO_COMPANIES.map((company, c) => ({ companyId: company.id, score: scores[c]! })),
            zones: DEMO_ZONES.map((zone, z) => ({
              zoneId: zone.id,
              controllerId: DEMO_COMPANIES[(z + Math.floor(at / DAY)) % DEMO_COMPANIES.length]!.id,
              scores: Object.fromEntries(DEMO_COMPANIES.map((company) => [company.id, 200 + Math.round(next() * 600)])),
            })),
            hotspots: [],
          });
        }
        for (let start = 0; start < snapshots.length; start += 5_000) {
          const batch = snapshots.slice(start, start + 5_000);
          await transaction(db, (tx) => writeSnapshotBatch({ db: tx }, { snapshots: batch }));
          written += batch.length;
          advance(written);
        }
      }
    });
    await step('analyze', 1, async () => {
      await db.run(sql`ANALYZE`);
      await db.run(sql`PRAGMA wal_checkpoint(TRUNCATE)`);
    });
    timings.total = Math.round(performance.now() - started);
    timings.snapshots = snapshotCount;
    reporter?.finish();
    return timings;
  } catch (error) {
    reporter?.finish(true);
    throw error;
  } finally {
    database.close();
  }
}

function parseArgs(argv: string[]): { file: string; options: TGenerateOptions } {
  const usage = 'usage: npx tsx bench/generate.ts <file> [--assemblies N] [--users N] [--campaigns N] [--fts bulk|triggers]';
  const file = argv[0];
  if (!file || file.startsWith('--')) throw new Error(usage);
  const options: TGenerateOptions = { assemblies: 1_000_000, users: 100_000, campaigns: 500, fts: 'bulk' };
  for (let i = 1; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value\n${usage}`);
    if (flag === '--fts') {
      if (value !== 'bulk' && value !== 'triggers') throw new Error(`--fts must be bulk or triggers\n${usage}`);
      options.fts = value;
      continue;
    }
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer\n${usage}`);
    if (flag === '--assemblies') options.assemblies = n;
    else if (flag === '--users') options.users = n;
    else if (flag === '--campaigns') options.campaigns = n;
    else throw new Error(`unknown option ${flag}\n${usage}`);
  }
  return { file, options };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    const { file, options } = parseArgs(process.argv.slice(2));
    console.log(`generating ${file}: ${options.assemblies} assemblies, ${options.users} users, ${options.campaigns} campaigns, fts=${options.fts}`);
    const timings = await generate(file, options);
    console.log(`done in ${(timings.total! / 1000).toFixed(1)} s (${timings.snapshots} extra war snapshots)`);
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}
