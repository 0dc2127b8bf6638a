import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { TDb } from '../../db/client';
import { transaction } from '../../db/transaction';

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
