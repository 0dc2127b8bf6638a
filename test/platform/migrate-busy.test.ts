// Migrating while another process holds the write lock past the busy timeout: an instance starting beside
// another that is writing, or a CLI command during a long import. In CI's sqld pass the second of two
// instances started together exited with "cannot migrate the database: SQLITE_BUSY" (libSQL on a file).
// migrate() waits for the lock (MIGRATE_PATIENCE_MS in all, db/unavailable.ts) instead of failing at the first busy timeout.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { BUSY_TIMEOUT_MS, MIGRATIONS_FOLDER, openDatabase } from '../../db/client';
import { TEST_DRIVER } from '../support/helpers';
import { ROOT } from '../support/process';
import { skippedUnderSqld } from '../support/sqld';
import { suite } from '../support/suite';

const NAME = `migrate() waits out another process's write lock (${TEST_DRIVER ?? 'better-sqlite3'})`;
const Busy = suite<{ dir: string }>(NAME);

Busy.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-migrate-busy-'));
});
Busy.after(({ dir }) => rmSync(dir, { recursive: true, force: true }));

/** Takes the write lock of the file in argv[1], says so on stdout, and holds it for argv[2] ms. */
const HOLD_WRITE_LOCK = `
const db = new (require('better-sqlite3'))(process.argv[1]);
db.pragma('journal_mode = WAL');
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));
`;

if (!skippedUnderSqld(NAME, 'a local file')) {
  Busy('a lock held 2.5 s past the busy timeout: migrate waits for it and applies the migrations', async ({ dir }) => {
    const file = join(dir, 'held.db');
    const holdMs = BUSY_TIMEOUT_MS + 2_500;
    // Another process: POSIX locks do not conflict within one process.
    const holder = spawn(process.execPath, ['-e', HOLD_WRITE_LOCK, file, String(holdMs)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => holder.once('close', resolve));
    await new Promise<void>((resolve, reject) => {
      holder.stdout!.once('data', () => resolve());
      holder.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
    });
    const database = openDatabase(`file:${file}`, { driver: TEST_DRIVER });
    try {
      const started = Date.now();
      await database.migrate();
      assert.ok(Date.now() - started >= BUSY_TIMEOUT_MS, 'it met the lock');
      // Every migration of the journal was applied.
      const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
        entries: unknown[];
      };
      const applied = await database.db.all<{ n: number }>(sql`select count(*) as n from __drizzle_migrations`);
      assert.is(Number(applied[0]!.n), journal.entries.length);
    } finally {
      database.close();
      await exited;
    }
  });
}

Busy.run();
