/** Retention of war snapshots: old ones are thinned to one per hour (the `war-snapshot-thinning` job, the admin API, the CLI). */
import { and, count, lt, sql } from 'drizzle-orm';
import { warSnapshots } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import type { TThinResult } from './schemas';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Thins snapshots older than `olderThanDays` to the first one of each hour of each season, so old
 * seasons keep an hourly history (the 7d range stays complete) instead of being lost. The cutoff is
 * rounded down to a whole hour so an hour is never half thinned.
 */
export async function thinWarSnapshots(
  deps: TDepsOf<'db' | 'now'>,
  input: { olderThanDays: number },
): Promise<TThinResult> {
  const now = deps.now();
  const cutoffMs = Math.floor((now.getTime() - input.olderThanDays * DAY_MS) / HOUR_MS) * HOUR_MS;
  const cutoff = new Date(cutoffMs);
  const keep = sql`select id from (select ${warSnapshots.id} as id, min(${warSnapshots.capturedAt}) from ${warSnapshots} where ${warSnapshots.capturedAt} < ${cutoffMs} group by ${warSnapshots.seasonId}, cast(${warSnapshots.capturedAt} / ${HOUR_MS} as integer))`;
  const doomed = and(lt(warSnapshots.capturedAt, cutoff), sql`${warSnapshots.id} not in (${keep})`);
  const deleted = await transaction(deps.db, async (tx) => {
    const n = (await tx.select({ n: count() }).from(warSnapshots).where(doomed).get())?.n ?? 0;
    // Scores, zone control and hotspots go with their snapshot (ON DELETE CASCADE).
    if (n > 0) await tx.delete(warSnapshots).where(doomed).run();
    return n;
  });
  return { cutoff: cutoff.toISOString(), deleted };
}
