// Operator safety, continued from operator-safety.test.ts: a database that cannot be written (10). Health and
// start-up check that the database takes writes; a busy database is not an unwritable one; every start-up error is one line.
import { spawn } from 'node:child_process';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../db/client';
import { databaseWriteProblem } from '../../server/domains/health/service';
import { startTestServer, TEST_DRIVER } from '../support/helpers';
import { ROOT } from '../support/process';
import { TEST_SQLD } from '../support/sqld';
import { failedStart, assertOneLine } from '../support/operator';
import { directorySuite } from '../support/directory-suite';

// ---------- 10: a database that cannot be written ----------

const Writable10 = directorySuite('10: health and start-up check that the database takes writes', 'ro');

// `pragma query_only` holds for one connection: a libSQL server's HTTP streams cannot keep it (file drivers only).
(TEST_SQLD ? Writable10.skip : Writable10)(
  'health is 503 while the database refuses writes, 200 again once it takes them',
  async () => {
    const app = await startTestServer();
    try {
      assert.is((await app.rest('GET', '/api/health')).status, 200);
      // SQLite's own read-only switch on the server's connection: reads work, every write fails.
      await app.database.db.run(sql`pragma query_only = on`);
      assert.is((await app.rest('GET', '/api/user/info?id=nobody')).status, 404, 'reads still work');
      // The write probe's answer serves the health checks of one second (a check is then one round trip).
      assert.is((await app.rest('GET', '/api/health')).status, 200, 'the last probe, within its second');
      app.clock.advance(1_000);
      const health = await app.rest('GET', '/api/health');
      assert.is(health.status, 503);
      assert.is(health.body.message, 'Database cannot be written');
      await app.database.db.run(sql`pragma query_only = off`);
      app.clock.advance(1_000);
      assert.is((await app.rest('GET', '/api/health')).status, 200);
    } finally {
      await app.stop();
    }
  },
);

Writable10('start-up refuses a read-only database file with one line naming its path', ({ dir }) => {
  const file = join(dir, 'readonly.db');
  const database = openDatabase(`file:${file}`);
  database.close();
  chmodSync(dir, 0o777);
  chmodSync(file, 0o444);
  // root writes to any file whatever its mode: the server runs as nobody, as a service account would.
  const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const result = failedStart({ DATABASE_URL: `file:${file}` }, asUser);
  assert.is(result.status, 1, result.stderr + result.stdout);
  assertOneLine(result.stderr);
  assert.match(result.stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} .*not writable`));
  assert.is(statSync(file).mode & 0o777, 0o444);
});

/** Takes the write lock of the file in argv[1], says so on stdout, and holds it until stdin closes. */
const HOLD_WRITE_LOCK = `
const db = new (require('better-sqlite3'))(process.argv[1]);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
process.stdin.on('end', () => { db.exec('COMMIT'); db.close(); }).resume();
`;

// An instance starting while another migrates and seeds, or while a CLI import runs: both hold the write
// lock for a while. Found in CI: the second of two instances started together exited with SQLITE_BUSY.
Writable10(
  'a database whose write lock another process holds past the busy timeout is busy, not unwritable',
  async ({ dir }) => {
    const file = join(dir, 'locked.db');
    const database = openDatabase(`file:${file}`, { driver: TEST_DRIVER });
    // Another process: POSIX locks do not conflict within one process, so libSQL would not see a lock held here.
    const holder = spawn(process.execPath, ['-e', HOLD_WRITE_LOCK, file], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      await database.migrate();
      await new Promise<void>((resolve, reject) => {
        holder.stdout!.once('data', () => resolve());
        holder.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
      });
      // Waits the busy timeout (5 s), then SQLITE_BUSY.
      const started = Date.now();
      assert.is(await databaseWriteProblem({ db: database.db }, { file }), undefined);
      assert.ok(Date.now() - started >= 4_000, 'the probe met the lock');
    } finally {
      holder.stdin!.end();
      await new Promise((resolve) => holder.once('close', resolve));
      database.close();
    }
  },
);

Writable10('every start-up error is one line: port in use, unwritable directory, bad URL', async ({ dir }) => {
  const blocker = createNetServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as AddressInfo).port;
  try {
    const busy = failedStart({ PORT: String(port), DATABASE_URL: `file:${join(dir, 'port.db')}` });
    assert.is(busy.status, 1);
    assertOneLine(busy.stderr);
    assert.match(busy.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use`));
  } finally {
    blocker.close();
  }
  // A directory that cannot be made (a file is in the way): unwritable for root too.
  writeFileSync(join(dir, 'a-file'), '');
  const directory = failedStart({ DATABASE_URL: `file:${join(dir, 'a-file', 'data', 'x.db')}` });
  assert.is(directory.status, 1);
  assertOneLine(directory.stderr);
  assert.match(directory.stderr, /cannot open the database file:.*a-file\/data\/x\.db: ENOTDIR/);
  const badUrl = failedStart({ DATABASE_URL: 'postgres://db.example/tidewatch' });
  assert.is(badUrl.status, 1);
  assertOneLine(badUrl.stderr);
  assert.match(badUrl.stderr, /DATABASE_URL: must be a file: URL/);
});

Writable10.run();
