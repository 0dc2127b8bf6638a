import { eq, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { dataVersions, seasons } from '../../../db/schema';
import { perDatabase, prepared } from '../../../db/prepared';

/**
 * Answers computed from the war tables (seasons, zones, companies, snapshots), remembered per
 * database and reused while
 *   - the `war` data version is unchanged: triggers bump it on every write to those tables, from
 *     this process, the CLI or another instance (db/schema/war.ts `dataVersions`), and
 *   - the clock has not crossed a season's start or end, since which season is current and each
 *     season's status follow from the time.
 * So a hit costs one indexed read and is never stale.
 */
interface TMemoEntry {
  version: number;
  validFromMs: number;
  validUntilMs: number;
  value: unknown;
}

/** Bounded per database: latest, three history ranges, a few seasons. */
const MAX_ENTRIES = 64;

export async function warDataVersion(db: TDb): Promise<number> {
  const query = prepared(db, 'war.dataVersion', (d) =>
    d
      .select({ version: dataVersions.version })
      .from(dataVersions)
      .where(eq(dataVersions.name, sql.placeholder('name')))
      .prepare(),
  );
  return (await query.get({ name: 'war' }))?.version ?? 0;
}

/** The span around `nowMs` in which no season starts or ends. */
async function seasonWindow(db: TDb, nowMs: number): Promise<{ validFromMs: number; validUntilMs: number }> {
  let validFromMs = Number.NEGATIVE_INFINITY;
  let validUntilMs = Number.POSITIVE_INFINITY;
  const boundaries = await db.select({ startsAt: seasons.startsAt, endsAt: seasons.endsAt }).from(seasons).all();
  for (const season of boundaries) {
    for (const boundary of [season.startsAt.getTime(), season.endsAt.getTime()]) {
      if (boundary <= nowMs) validFromMs = Math.max(validFromMs, boundary);
      else validUntilMs = Math.min(validUntilMs, boundary);
    }
  }
  return { validFromMs, validUntilMs };
}

/** `key` names the answer (with its inputs); `build` computes it. Errors are not remembered. */
export async function warMemo<T>(db: TDb, key: string, now: Date, build: () => Promise<T>): Promise<T> {
  const nowMs = now.getTime();
  // Read before building: a write landing in between leaves a newer answer under an older version, never the reverse.
  const version = await warDataVersion(db);
  const memo = perDatabase(db, 'war.memo', () => new Map<string, TMemoEntry>());
  const entry = memo.get(key);
  if (entry && entry.version === version && entry.validFromMs <= nowMs && nowMs < entry.validUntilMs)
    return entry.value as T;
  const window = await seasonWindow(db, nowMs);
  const value = await build();
  memo.delete(key);
  if (memo.size >= MAX_ENTRIES) memo.delete(memo.keys().next().value!);
  memo.set(key, { version, ...window, value });
  return value;
}
