import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { fileFromUrl, openDatabase, type TDatabase } from '../../db/client';
import { AppError } from '../errors';
import { UsageError, type TCommand } from './command';

export const restoreCommand: TCommand = {
  name: 'restore',
  usage: 'restore <backup-file> --force',
  description:
    'Replaces the database at DATABASE_URL with a copy made by `backup`, after checking that the copy is a sound Tidewatch database. ' +
    'Stop the server first. The current database is kept beside it as <file>.pre-restore-<time>.db; migrations newer than the backup apply afterwards. ' +
    'Needs --force, because it overwrites.',
  options: { force: { type: 'boolean' } },
  async run({ positionals, values, config, print }) {
    const [file, extra] = positionals;
    if (!file || extra !== undefined) throw new UsageError('expected exactly one <backup-file>');
    if (!existsSync(file)) throw new UsageError(`${file} does not exist`);
    const target = fileFromUrl(config.DATABASE_URL);
    if (target === ':memory:') throw new UsageError('DATABASE_URL is in memory: nothing to restore into');
    if (resolve(file) === resolve(target)) throw new UsageError(`${file} is the database itself`);
    if (!values.force) throw new UsageError(`this replaces ${target}: stop the server, then pass --force`);

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
      if (!history?.n) throw new AppError('BAD_REQUEST', `${file} is not a Tidewatch database (it has no migration history)`);

      if (existsSync(target)) {
        saved = `${target}.pre-restore-${new Date().toISOString().replace(/[:.]/g, '-')}.db`;
        const current = openDatabase(config.DATABASE_URL);
        try {
          await current.backup(saved);
        } finally {
          current.close();
        }
      }
      await candidate.backup(target);
    } finally {
      candidate?.close();
      rmSync(scratchDir, { recursive: true, force: true });
    }

    const restored = openDatabase(config.DATABASE_URL);
    try {
      await restored.migrate();
      const check = await restored.integrityCheck();
      if (check !== 'ok') throw new AppError('INTERNAL_SERVER_ERROR', `restored database fails the integrity check: ${check}`);
    } finally {
      restored.close();
    }
    print(`restored ${target} from ${file}${saved ? `; the previous database is kept as ${saved}` : ''}`);
  },
};
