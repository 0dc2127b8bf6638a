/** Health: liveness, whether the database answers and takes writes, and the state of the shared Redis. */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { pingDatabase, type TDb } from '../../../db/client';
import { transaction } from '../../../db/transaction';
import { isWriteLockBusy } from '../../../db/unavailable';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import type { THealth } from './schemas';

const startedAt = Date.now();

/** The local file behind DATABASE_URL, or undefined for memory and libSQL servers (nothing on this disk to check). */
export function localDatabaseFile(url: string): string | undefined {
  if (!url.startsWith('file:')) return undefined;
  const file = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
  return file === ':memory:' ? undefined : file;
}

/**
 * Why the database cannot take writes, or undefined when it can. Cheap enough for every health check:
 * one access(2) call (a read-only file or file system, which SQLite may have opened read-only without
 * a word), then the write lock taken and given back (BEGIN IMMEDIATE … COMMIT, nothing written),
 * which a read-only connection, database or directory refuses.
 */
export async function databaseWriteProblem(
  deps: TDepsOf<'db'>,
  { file }: { file: string | undefined },
): Promise<string | undefined> {
  if (file !== undefined) {
    try {
      await access(file, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Not there yet: SQLite creates it; the directory's problems show in the lock below.
      if (code !== 'ENOENT') return `${file} is not writable (${code})`;
    }
  }
  try {
    await transaction(deps.db, async () => undefined);
  } catch (error) {
    // Another process holds the write lock past the busy timeout: an instance migrating and seeding at
    // its start, a long CLI import. The file takes writes; refusing to start or failing health for it
    // would take a healthy instance down.
    if (isWriteLockBusy(error)) return undefined;
    return `${file ?? 'the database'} refuses writes (${(error as Error).message})`;
  }
  return undefined;
}

/** How long one write probe's answer serves health checks: a probe is three turns of the event loop, each behind the requests queued then. */
const WRITE_PROBE_TTL_MS = 1_000;
const lastProbes = new WeakMap<TDb, { atMs: number; problem: Promise<string | undefined> }>();

/**
 * databaseWriteProblem at most once a second per database: health checks in between (a load
 * balancer's, several at once) share the last answer, so a check costs one database round trip.
 * A database that turns read-only is reported within a second.
 */
export function recentDatabaseWriteProblem(
  deps: TDepsOf<'db' | 'now'>,
  { file }: { file: string | undefined },
): Promise<string | undefined> {
  const nowMs = deps.now().getTime();
  const last = lastProbes.get(deps.db);
  if (last && nowMs - last.atMs < WRITE_PROBE_TTL_MS) return last.problem;
  const problem = databaseWriteProblem(deps, { file });
  lastProbes.set(deps.db, { atMs: nowMs, problem });
  return problem;
}

/**
 * The instance's health: 503 when the database does not answer or cannot be written (the reason is
 * logged, not shown: health is public). A Redis outage degrades (per-instance limits, no cache) but
 * does not stop the instance: still 200, with `redis: unavailable`.
 */
export async function getHealth(
  deps: TDepsOf<'db' | 'now' | 'config' | 'logger' | 'shared' | 'events' | 'liveConnections'>,
): Promise<THealth> {
  const alive = await pingDatabase(deps.db).catch(() => false);
  if (!alive) throw new AppError('SERVICE_UNAVAILABLE', 'Database unavailable');
  // Reads alone are not health: a read-only database answers them, and every sign-up is then a 500.
  const writeProblem = await recentDatabaseWriteProblem(deps, { file: localDatabaseFile(deps.config.DATABASE_URL) });
  if (writeProblem) {
    // The path stays in the log: health is public.
    deps.logger.error({ problem: writeProblem }, 'health: the database cannot be written');
    throw new AppError('SERVICE_UNAVAILABLE', 'Database cannot be written');
  }
  const shared = deps.shared;
  const redis = !shared ? 'off' : shared.redis.client.status === 'ready' && shared.bus.live ? 'ok' : 'unavailable';
  return {
    status: 'ok',
    database: 'ok',
    redis,
    events: deps.events.reachesAllInstances ? 'all-instances' : 'this-instance',
    liveStreams: deps.liveConnections.count,
    uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
  };
}
