// Migrating while another process holds the write lock past the busy timeout: an instance starting beside
// another that is writing, or a CLI command during a long import. In CI's sqld pass the second of two
// instances started together exited with "cannot migrate the database: SQLITE_BUSY" (libSQL on a file).
// migrate() waits for the lock (MIGRATE_PATIENCE_MS in all, db/unavailable.ts) instead of failing at the first busy timeout.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { directorySuite } from '../support/directory-suite';
import { BUSY_TIMEOUT_MS, MIGRATIONS_FOLDER, openDatabase, type TDatabase } from '../../db/client';
import { TEST_DRIVER } from '../support/helpers';
import { ROOT } from '../support/process';
import { skippedUnderSqld } from '../support/sqld';

const NAME = `migrate() waits out another process's write lock (${TEST_DRIVER ?? 'better-sqlite3'})`;
const Busy = directorySuite(NAME, 'migrate-busy');

/** Takes the write lock of the file in argv[1], says so on stdout, and holds it for argv[2] ms. */
const HOLD_WRITE_LOCK = `
const db = new (require('better-sqlite3'))(process.argv[1]);
db.pragma('journal_mode = WAL');
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));
`;

/**
 * A new file (its rollback journal still) that another process reads in a transaction, as a second
 * instance does when both open one new file at once: argv[1] is the file, argv[2] how long it holds.
 */
const HOLD_READ_LOCK_ON_NEW_FILE = `
const db = new (require('better-sqlite3'))(process.argv[1]);
db.exec('CREATE TABLE first_opener (x)');
db.exec('BEGIN');
db.prepare('SELECT * FROM first_opener').all();
process.stdout.write('locked\\n');
setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));
`;

/** Runs `script` in another process (POSIX locks do not conflict within one) once it says it holds its lock; `exited` when it has let go. */
async function holdLock(script: string, file: string, holdMs: number): Promise<{ exited: Promise<unknown> }> {
  const holder = spawn(process.execPath, ['-e', script, file, String(holdMs)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => holder.once('close', resolve));
  await new Promise<void>((resolve, reject) => {
    holder.stdout!.once('data', () => resolve());
    holder.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return { exited };
}

/** Whether every migration of the journal was applied. */
async function assertMigrated(database: TDatabase): Promise<void> {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  const applied = await database.db.all<{ n: number }>(sql`select count(*) as n from __drizzle_migrations`);
  assert.is(Number(applied[0]!.n), journal.entries.length);
}

if (!skippedUnderSqld(NAME, 'a local file')) {
  Busy('a lock held 2.5 s past the busy timeout: migrate waits for it and applies the migrations', async ({ dir }) => {
    const file = join(dir, 'held.db');
    const { exited } = await holdLock(HOLD_WRITE_LOCK, file, BUSY_TIMEOUT_MS + 2_500);
    const database = openDatabase(`file:${file}`, { driver: TEST_DRIVER });
    try {
      const started = Date.now();
      await database.migrate();
      assert.ok(Date.now() - started >= BUSY_TIMEOUT_MS, 'it met the lock');
      await assertMigrated(database);
    } finally {
      database.close();
      await exited;
    }
  });

  // CI's better-sqlite3 pass: the second of two instances started together on a new file exited with
  // "cannot open the database …: database is locked", as opening switched the file to WAL.
  Busy(
    'a new file read by another process past the busy timeout: it opens at once, and migrate switches it to WAL once it can',
    async ({ dir }) => {
      const file = join(dir, 'new.db');
      const { exited } = await holdLock(HOLD_READ_LOCK_ON_NEW_FILE, file, BUSY_TIMEOUT_MS + 500);
      const database = openDatabase(`file:${file}`, { driver: TEST_DRIVER });
      try {
        await database.migrate();
        await assertMigrated(database);
        assert.is((await database.db.get<{ journal_mode: string }>(sql`pragma journal_mode`))!.journal_mode, 'wal');
      } finally {
        database.close();
        await exited;
      }
    },
  );
}

Busy.run();
