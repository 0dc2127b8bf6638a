import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { TDb } from '../../../db/client';
import { transaction } from '../../../db/transaction';

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
export async function databaseWriteProblem(db: TDb, file: string | undefined): Promise<string | undefined> {
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
    await transaction(db, async () => undefined);
  } catch (error) {
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
export function recentDatabaseWriteProblem(db: TDb, file: string | undefined, nowMs = Date.now()): Promise<string | undefined> {
  const last = lastProbes.get(db);
  if (last && nowMs - last.atMs < WRITE_PROBE_TTL_MS) return last.problem;
  const problem = databaseWriteProblem(db, file);
  lastProbes.set(db, { atMs: nowMs, problem });
  return problem;
}
