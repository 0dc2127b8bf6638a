import type { TDb } from '../db/client';
import type { TAppDeps } from './deps';
import { tryRedisLock } from './infra/redis/connection';
import { expirePendingOrders } from './domains/subscription/order-reads';
import { purgeTrash } from './domains/assembly/lifecycle';
import { VIEW_FLUSH_INTERVAL_MS } from './infra/view-counter';
import { thinWarSnapshots } from './domains/war/retention';
import { announceExpiredTeamUps, purgeExpiredTeamUps } from './domains/teamup';
import { announceDropChanges, announceWarSnapshot } from './domains/live';

/** How often each instance looks for what the live streams announce by themselves (expiries, snapshots, drops). */
export const LIVE_WATCH_INTERVAL_MS = 1000;

/** A periodic background task (trash purge, snapshot thinning, order expiry, view counts). */
export interface TJob {
  name: string;
  intervalMs: number;
  /**
   * Runs on every instance, for state each process keeps (buffered view counts), and once more when
   * the server stops so nothing buffered is lost. Other jobs run on one elected instance per tick.
   */
  perInstance?: boolean;
  run(db: TDb, deps: TAppDeps): Promise<unknown>;
}

/** Every periodic job the server runs. Domains add theirs here. */
export const JOBS: TJob[] = [
  // Reads already treat a pending order past its deadline as expired; this makes the stored state agree.
  { name: 'expire-pending-orders', intervalMs: 60_000, run: (db, deps) => expirePendingOrders({ ...deps, db }) },
  {
    name: 'assembly-trash-purge',
    intervalMs: 60 * 60 * 1000,
    run: (db, deps) => purgeTrash({ ...deps, db }),
  },
  // Old snapshots thinned to one per hour, so old seasons keep an hourly history (server/domains/war/retention.ts).
  {
    name: 'war-snapshot-thinning',
    intervalMs: 60 * 60 * 1000,
    run: (db, deps) => thinWarSnapshots({ db, now: deps.now }, { olderThanDays: deps.config.WAR_THIN_AFTER_DAYS }),
  },
  // Every instance looks (the events then reach its subscribers within a second even while Redis is down);
  // publishOnce lets one event per happening out.
  {
    name: 'teamup-expiry-events',
    intervalMs: LIVE_WATCH_INTERVAL_MS,
    perInstance: true,
    run: (db, deps) => announceExpiredTeamUps({ ...deps, db }),
  },
  { name: 'teamup-purge', intervalMs: 60 * 60 * 1000, run: (db, deps) => purgeExpiredTeamUps({ ...deps, db }) },
  {
    name: 'live-war-snapshots',
    intervalMs: LIVE_WATCH_INTERVAL_MS,
    perInstance: true,
    run: (db, deps) => announceWarSnapshot({ ...deps, db }),
  },
  {
    name: 'live-drop-changes',
    intervalMs: LIVE_WATCH_INTERVAL_MS,
    perInstance: true,
    run: (db, deps) => announceDropChanges({ ...deps, db }),
  },
  {
    name: 'assembly-view-flush',
    intervalMs: VIEW_FLUSH_INTERVAL_MS,
    perInstance: true,
    run: (db, deps) => deps.views.flush(db),
  },
];

/**
 * Runs each job every `intervalMs` (never two runs of one job at once); timers are unref'd so they
 * never hold the process open. Returns a stop function that also waits for running jobs, then runs
 * the `perInstance` ones a last time.
 *
 * With several instances (Redis), each tick of a job runs on one instance only: whoever takes the
 * job's lock for (most of) the interval. Every job is also safe to run concurrently (idempotent
 * deletes and updates in transactions), so a lost lock costs repeated work, never wrong data.
 */
export function startJobs(jobs: TJob[], db: TDb, deps: TAppDeps): () => Promise<void> {
  const running = new Set<Promise<unknown>>();
  const timers = jobs.map((job) => {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      const shared = job.perInstance ? undefined : deps.shared;
      // Redis unreachable: run anyway (the jobs are safe to run concurrently).
      const elected = shared
        ? tryRedisLock(shared.redis, `job:${job.name}`, Math.max(1_000, job.intervalMs - 1_000)).catch(() => true)
        : Promise.resolve(true);
      const run = elected
        .then((mine) => (mine ? job.run(db, deps) : undefined))
        .catch((error: unknown) => deps.logger.error({ err: error, job: job.name }, 'job failed'))
        .finally(() => {
          busy = false;
          running.delete(run);
        });
      running.add(run);
    }, job.intervalMs);
    timer.unref();
    return timer;
  });
  return async () => {
    for (const timer of timers) clearInterval(timer);
    await Promise.all(running);
    for (const job of jobs.filter((candidate) => candidate.perInstance)) {
      await job.run(db, deps).catch((error: unknown) => deps.logger.error({ err: error, job: job.name }, 'job failed'));
    }
  };
}
