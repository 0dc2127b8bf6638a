/** The active campaigns (/drop/current), served from the short-lived `dropCurrent` cache with a per-client refresh limit. */
import { asc, gt, min } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { dropCampaigns } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { assemble, statusCondition } from './rows';
import type { TDropCurrent, TDropCurrentSnapshot } from './schemas';

async function buildCurrent(
  db: TDb,
  now: Date,
  ttlMs: number,
): Promise<{ value: TDropCurrentSnapshot; expiresAtMs: number }> {
  const rows = await db
    .select()
    .from(dropCampaigns)
    .where(statusCondition('active', now))
    .orderBy(asc(dropCampaigns.endsAt), asc(dropCampaigns.id))
    .all();
  const items = await assemble(db, rows, now);
  // The set of active campaigns changes when one ends or the next one starts: never cache past that.
  const nextStart = await db
    .select({ at: min(dropCampaigns.startsAt) })
    .from(dropCampaigns)
    .where(gt(dropCampaigns.startsAt, now))
    .get();
  const nowMs = now.getTime();
  const candidates = [nowMs + ttlMs, ...rows.map((row) => row.endsAt.getTime())];
  if (nextStart?.at) candidates.push(nextStart.at.getTime());
  return { value: { items, generatedAt: now.toISOString() }, expiresAtMs: Math.min(...candidates) };
}

/**
 * Active campaigns from the short-lived cache. `refresh` rebuilds it, at most once per interval per
 * client; a faster refresh is a 429 with Retry-After rather than a silent cache answer, so a client
 * knows its refresh did not happen.
 */
export async function getCurrentCampaigns(
  deps: TDepsOf<'db' | 'now' | 'liveData'>,
  input: { refresh: boolean; clientKey: string },
): Promise<TDropCurrent> {
  const now = deps.now();
  const runtime = deps.liveData;
  const nowMs = now.getTime();
  const cache = runtime.dropCurrentCache;
  if (input.refresh) {
    const hold = await runtime.dropRefreshHolds.claim(input.clientKey, nowMs + runtime.dropRefreshIntervalMs, nowMs);
    if (!hold.claimed) {
      const retryAfterSeconds = Math.max(1, Math.ceil((hold.heldUntilMs - nowMs) / 1000));
      throw new AppError(
        'TOO_MANY_REQUESTS',
        `refresh=1 is allowed once every ${runtime.dropRefreshIntervalMs / 1000} seconds; retry in ${retryAfterSeconds} s or call without refresh`,
        {
          retryAfterSeconds,
          data: { retryAfterSeconds },
        },
      );
    }
  } else {
    const entry = cache.get(nowMs);
    if (entry) return { ...entry.value, expiresAt: new Date(entry.expiresAtMs).toISOString(), cache: 'hit' };
  }
  const generation = cache.currentGeneration();
  const built = await buildCurrent(deps.db, now, runtime.dropCacheTtlMs);
  cache.set({ value: built.value, builtAtMs: nowMs, expiresAtMs: built.expiresAtMs }, generation);
  return {
    ...built.value,
    expiresAt: new Date(built.expiresAtMs).toISOString(),
    cache: input.refresh ? 'refresh' : 'miss',
  };
}
