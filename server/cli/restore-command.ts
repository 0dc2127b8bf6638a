import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { fileFromUrl, openDatabase, type TDatabase } from '../../db/client';
import { DatabaseLockBusyError, takeExclusiveLock, type TDatabaseLock } from '../../db/lock';
import type { TProgressListener } from '../deps';
import { AppError } from '../errors';
import { UsageError, type TCommand } from './command';

export const restoreCommand: TCommand = {
  name: 'restore',
  usage: 'restore <backup-file> [--force]',
  description:
    'Replaces the database at DATABASE_URL with a copy made by `backup`, after checking that the copy is a sound Tidewatch database. ' +
    'The current database is kept beside it as <file>.pre-restore-<time>.db; migrations newer than the backup apply afterwards. ' +
    'Refuses while a server has the database open: stop it first. --force restores anyway, which is unsafe: ' +
    'the running server keeps writing to the restored file from what it had in memory, so stop and start it at once.',
  options: { force: { type: 'boolean' } },
  async run({ positionals, values, config, print, progress }) {
    const [file, extra] = positionals;
    if (!file || extra !== undefined) throw new UsageError('expected exactly one <backup-file>');
    if (!existsSync(file)) throw new UsageError(`${file} does not exist`);
    if (!config.DATABASE_URL.startsWith('file:')) {
      throw new UsageError(
        'DATABASE_URL is a libSQL server: restore replaces a local file; restore a server with its own tools (Turso point-in-time restore, sqld snapshots)',
      );
    }
    const target = fileFromUrl(config.DATABASE_URL);
    if (target === ':memory:') throw new UsageError('DATABASE_URL is in memory: nothing to restore into');
    if (resolve(file) === resolve(target)) throw new UsageError(`${file} is the database itself`);

    // Held to the end, so that no server starts on the file while it is replaced.
    let lock: TDatabaseLock | undefined;
    try {
      lock = takeExclusiveLock(target);
    } catch (error) {
      if (!(error instanceof DatabaseLockBusyError)) throw error;
      if (!values.force)
        throw new AppError(
          'CONFLICT',
          `refusing to restore: ${error.message}; stop it first (--force restores anyway, unsafely)`,
        );
      print(
        `warning: ${error.message}; restoring anyway (--force): stop and start that server now, it still holds the old state in memory`,
      );
    }
    try {
      await restoreInto(file, target, config.DATABASE_URL, print, progress);
    } finally {
      lock?.release();
    }
  },
};

/** Checks the backup, keeps the current database beside it, puts the backup in its place and migrates it. */
const RESTORE_STEPS = 4;

async function restoreInto(
  file: string,
  target: string,
  url: string,
  print: (line: string) => void,
  progress: TProgressListener,
): Promise<void> {
  const step = (done: number) => progress('restore', done, RESTORE_STEPS);
  step(0);
  // Checks run on a scratch copy: opening a SQLite file can write to it, and the backup must stay as it was.
  const scratchDir = mkdtempSync(join(tmpdir(), 'tidewatch-restore-'));
  let candidate: TDatabase | undefined;
  let saved: string | undefined;
  try {
    const scratch = join(scratchDir, 'candidate.db');
    copyFileSync(file, scratch);
    let check: string;
    try {
      candidate = openDatabase(`file:${scratch}`);
      check = await candidate.integrityCheck();
    } catch (error) {
      throw new AppError('BAD_REQUEST', `${file} is not a SQLite database (${(error as Error).message})`);
    }
    if (check !== 'ok') throw new AppError('BAD_REQUEST', `${file} fails the integrity check: ${check}`);
    const history = await candidate.db.get<{ n: number }>(
      sql`select count(*) as n from sqlite_master where type = 'table' and name = '__drizzle_migrations'`,
    );
    if (!history?.n)
      throw new AppError('BAD_REQUEST', `${file} is not a Tidewatch database (it has no migration history)`);
    step(1);

    if (existsSync(target)) {
      saved = `${target}.pre-restore-${new Date().toISOString().replace(/[:.]/g, '-')}.db`;
      const current = openDatabase(url);
      try {
        await current.backup(saved);
      } finally {
        current.close();
      }
    }
    step(2);
    await candidate.backup(target);
    step(3);
  } finally {
    candidate?.close();
    rmSync(scratchDir, { recursive: true, force: true });
  }

  const restored = openDatabase(url);
  try {
    await restored.migrate();
    const check = await restored.integrityCheck();
    if (check !== 'ok')
      throw new AppError('INTERNAL_SERVER_ERROR', `restored database fails the integrity check: ${check}`);
    step(4);
  } finally {
    restored.close();
  }
  print(`restored ${target} from ${file}${saved ? `; the previous database is kept as ${saved}` : ''}`);
}
