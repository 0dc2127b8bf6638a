import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UsageError, type TCommand } from './command';

/** Backups a `--keep` run writes and prunes: `tidewatch-<UTC time>.db`, a new name every second. */
const ROTATED_NAME = /^tidewatch-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z\.db$/;

function rotatedName(now: Date): string {
  return `tidewatch-${now.toISOString().slice(0, 19).replace(/:/g, '-')}Z.db`;
}

function rotatedTime(name: string): number | undefined {
  const match = ROTATED_NAME.exec(name);
  return match ? Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}Z`) : undefined;
}

function keepDays(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const days = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || days < 1 || days > 3650)
    throw new UsageError('--keep takes a number of days from 1 to 3650');
  return days;
}

/**
 * The rotated backups in `dir` older than `days` (by the time in their name), never `keep`: other
 * files in the directory are left alone.
 */
function pruneRotated(dir: string, days: number, now: Date, keep: string): string[] {
  const cutoff = now.getTime() - days * 24 * 60 * 60 * 1000;
  const pruned: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const time = rotatedTime(name);
    if (time === undefined || name === keep || time >= cutoff) continue;
    rmSync(join(dir, name), { force: true });
    pruned.push(name);
  }
  return pruned;
}

export const backupCommand: TCommand = {
  name: 'backup',
  usage: 'backup <file> [--force] | backup <directory> --keep <days>',
  description:
    'Writes a consistent copy of the database with SQLite online backup (VACUUM INTO on the libsql driver); safe while the server runs. Local databases only. ' +
    'With a file: refuses to overwrite an existing one unless --force. ' +
    'With --keep <days>: writes tidewatch-<UTC time>.db into the directory (created if missing; a new name each run, so a timer may run it as often as it likes), ' +
    'then deletes the tidewatch-<time>.db copies there older than that many days. Other files are left alone.',
  options: { force: { type: 'boolean' }, keep: { type: 'string' } },
  async run({ positionals, values, database, print, progress }) {
    const [target, extra] = positionals;
    if (!target || extra !== undefined)
      throw new UsageError('expected exactly one <file> (or <directory> with --keep)');
    const days = keepDays(values.keep);
    const now = new Date();
    let file = target;
    if (days !== undefined) {
      if (values.force) throw new UsageError('--force and --keep do not go together: --keep never overwrites');
      if (existsSync(target) && !statSync(target).isDirectory())
        throw new UsageError(`${target} is not a directory (--keep writes into a directory)`);
      mkdirSync(target, { recursive: true });
      file = join(target, rotatedName(now));
    }
    if (existsSync(file) && !values.force) throw new UsageError(`${file} exists: pass --force to overwrite`);
    const opened = await database();
    if (opened.file === ':memory:') throw new UsageError('DATABASE_URL is in memory: nothing to back up');
    if (opened.remote) {
      throw new UsageError(
        'DATABASE_URL is a libSQL server: back it up on the server (Turso point-in-time restore, sqld snapshots)',
      );
    }
    progress('backup', 0, 1);
    await opened.backup(file);
    progress('backup', 1, 1);
    print(`backup of ${opened.file} written to ${file}`);
    if (days !== undefined) {
      const pruned = pruneRotated(target, days, now, basename(file));
      print(
        `kept ${days} days: ${pruned.length} older backup${pruned.length === 1 ? '' : 's'} deleted${pruned.length ? ` (${pruned.join(', ')})` : ''}`,
      );
    }
  },
};
