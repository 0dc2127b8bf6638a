// Team-ups expire by the clock: reads leave them out at once (queries.ts); this says so to the live
// streams (team_up_expired), and later purges the rows.
import { and, gt, lte } from 'drizzle-orm';
import { teamUps } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { TEAMUP_EVENTS, TEAMUP_RETENTION_MS, TEAMUP_TOPIC } from './schemas';

/** Where each instance's last look ended, per running app (its bus). */
const lastLooks = new WeakMap<object, number>();

/**
 * Announces the team-ups that expired since this instance last looked (the first time: since it started).
 * Every instance looks; publishOnce lets one event per team-up out. Returns how many it saw.
 */
export async function announceExpiredTeamUps(deps: TDepsOf<'db' | 'now' | 'events'>): Promise<number> {
  const nowMs = deps.now().getTime();
  const fromMs = lastLooks.get(deps.events) ?? deps.events.startedAtMs;
  lastLooks.set(deps.events, Math.max(fromMs, nowMs));
  if (fromMs >= nowMs) return 0;
  const expired = await deps.db
    .select({ id: teamUps.id })
    .from(teamUps)
    .where(and(gt(teamUps.expiresAt, new Date(fromMs)), lte(teamUps.expiresAt, new Date(nowMs))))
    .all();
  for (const { id } of expired)
    await deps.events.publishOnce(`teamup-expired:${id}`, TEAMUP_TOPIC, TEAMUP_EVENTS.expired, { id });
  return expired.length;
}

/** Deletes team-ups expired more than TEAMUP_RETENTION_MS ago (kept that long for the statistics). */
export async function purgeExpiredTeamUps(deps: TDepsOf<'db' | 'now'>): Promise<void> {
  await deps.db
    .delete(teamUps)
    .where(lte(teamUps.expiresAt, new Date(deps.now().getTime() - TEAMUP_RETENTION_MS)))
    .run();
}
