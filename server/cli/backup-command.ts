import { existsSync } from 'node:fs';
import { UsageError, type TCommand } from './command';

export const backupCommand: TCommand = {
  name: 'backup',
  usage: 'backup <file> [--force]',
  description:
    'Writes a consistent copy of the database to <file> with SQLite online backup (VACUUM INTO on the libsql driver); safe while the server runs. Local databases only. Refuses to overwrite an existing file unless --force.',
  options: { force: { type: 'boolean' } },
  async run({ positionals, values, database, print }) {
    const [file, extra] = positionals;
    if (!file || extra !== undefined) throw new UsageError('expected exactly one <file>');
    if (existsSync(file) && !values.force) throw new UsageError(`${file} exists: pass --force to overwrite`);
    const opened = await database();
    if (opened.file === ':memory:') throw new UsageError('DATABASE_URL is in memory: nothing to back up');
    if (opened.remote) {
      throw new UsageError('DATABASE_URL is a libSQL server: back it up on the server (Turso point-in-time restore, sqld snapshots)');
    }
    await opened.backup(file);
    print(`backup of ${opened.file} written to ${file}`);
  },
};
