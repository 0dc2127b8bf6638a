// What every instance notices by itself and the live streams announce: a new war snapshot, drop
// campaigns starting, ending or written (by the admin API, the CLI, another instance). Each instance
// looks once a second (jobs.ts); publishOnce lets one event per happening out, whichever instance saw it.
import { warDataVersion } from '../../infra/cache/war-memo';
import type { TDepsOf } from '../../deps';
import { dropChangesBetween } from '../drop';
import { latestState } from '../war';

/** How far back each look re-reads campaign writes: a write's time is taken before it commits. */
const WRITE_LOOKBACK_MS = 10_000;

type TWatchDeps = TDepsOf<'db' | 'now' | 'events'>;

/** Per running app (its bus): the war data version and snapshot last seen; when the drop looks began and where the last one ended. */
const warLooks = new WeakMap<object, { version: number; snapshot: string | undefined }>();
const dropLooks = new WeakMap<object, { firstMs: number; lastMs: number }>();

/** Announces the newest war snapshot when it changed since this instance last looked (its first look only notes it). */
export async function announceWarSnapshot(deps: TWatchDeps): Promise<void> {
  const version = await warDataVersion(deps.db);
  const last = warLooks.get(deps.events);
  if (last?.version === version) return;
  const state = await latestState(deps).catch(() => undefined);
  const snapshot = state ? `${state.season.id}@${state.capturedAt}` : undefined;
  warLooks.set(deps.events, { version, snapshot });
  if (!last || !state || snapshot === last.snapshot) return;
  await deps.events.publishOnce(`war-snapshot:${snapshot}`, 'war', 'war.snapshot', state);
}

/** Announces the drop campaigns that started, ended or were written since this instance last looked. */
export async function announceDropChanges(deps: TWatchDeps): Promise<void> {
  const toMs = deps.now().getTime();
  const startedAtMs = deps.events.startedAtMs;
  const look = dropLooks.get(deps.events) ?? { firstMs: startedAtMs, lastMs: startedAtMs };
  const fromMs = look.lastMs;
  dropLooks.set(deps.events, { firstMs: look.firstMs, lastMs: Math.max(fromMs, toMs) });
  if (fromMs >= toMs) return;
  // Never writes from before this instance started: those were announced by whoever was running then.
  const writtenFromMs = Math.max(fromMs - WRITE_LOOKBACK_MS, look.firstMs);
  const found = await dropChangesBetween(deps.db, { fromMs, writtenFromMs, toMs });
  for (const { campaign, changes } of found) {
    for (const { change, atMs } of changes) {
      await deps.events.publishOnce(`drop-${change}:${campaign.id}:${atMs}`, 'drops', `drop.${change}`, campaign);
    }
  }
}
