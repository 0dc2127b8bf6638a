import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_FOLDER } from '../../db/client';

/** A copy of db/migrations that stops after the migration tagged `lastTag`, in `dir`: a database "at" that point. */
export function migrationsUpTo(dir: string, lastTag: string): string {
  const folder = join(dir, `migrations-to-${lastTag}`);
  mkdirSync(join(folder, 'meta'), { recursive: true });
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const file of readdirSync(MIGRATIONS_FOLDER))
    if (file.endsWith('.sql')) copyFileSync(join(MIGRATIONS_FOLDER, file), join(folder, file));
  return folder;
}
