import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../db/client';
import { DEMO_USERS, seedDemoData } from '../../server/seed/index';
import { DEMO_ASSEMBLY_PASSWORD } from '../../server/seed/assemblies';
import { configWith, loadConfig } from '../../server/config';
import { startServer } from '../../server/server';
import { importCatalog } from '../../server/domains/catalog/import';
import { databaseWriteProblem } from '../../server/domains/health/service';
import { verifyPassword } from '../../server/infra/password';
import { COMMUNITY_SAMPLE, GENEROUS_LIMITS, rest, startTestServer, TEST_DRIVER } from '../support/helpers';
import { ROOT } from '../support/process';
import { TEST_SQLD } from '../support/sqld';
import {
  PRODUCTION_SECRET,
  startProcess,
  stopProcess,
  failedStart,
  assertOneLine,
  captureLogs,
  tableCounts,
} from '../support/operator';

// ---------- 8: no published admin password in production ----------

const DemoSeed = suite<{ dir: string }>('8: the demo seed and production');
DemoSeed.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-ops-'));
});
DemoSeed.after((context) => rmSync(context.dir, { recursive: true, force: true }));

DemoSeed('SEED_DEMO defaults to off in production, on elsewhere; an explicit value wins', () => {
  assert.is(loadConfig({}).SEED_DEMO, true);
  assert.is(loadConfig({ NODE_ENV: 'test' }).SEED_DEMO, true);
  assert.is(loadConfig({ NODE_ENV: 'production', PAYMENT_MANUAL_SECRET: PRODUCTION_SECRET }).SEED_DEMO, false);
  assert.is(
    loadConfig({ NODE_ENV: 'production', PAYMENT_MANUAL_SECRET: PRODUCTION_SECRET, SEED_DEMO: 'true' }).SEED_DEMO,
    true,
  );
  assert.is(loadConfig({ SEED_DEMO: 'false' }).SEED_DEMO, false);
});

DemoSeed('a production start with SEED_DEMO unset has no captain / tidewatch-demo', async ({ dir }) => {
  const server = await startProcess({
    NODE_ENV: 'production',
    PAYMENT_MANUAL_SECRET: PRODUCTION_SECRET,
    DATABASE_URL: `file:${join(dir, 'prod.db')}`,
  });
  try {
    const signin = await rest(server.url, 'POST', '/api/user/signin', {
      body: { username: 'captain', password: 'tidewatch-demo' },
    });
    assert.is(signin.status, 401);
    assert.not.match(server.output(), /demo accounts/i);
  } finally {
    await stopProcess(server);
  }
});

DemoSeed('SEED_DEMO=true in production seeds, and the log warns loudly', async ({ dir }) => {
  const server = await startProcess({
    NODE_ENV: 'production',
    PAYMENT_MANUAL_SECRET: PRODUCTION_SECRET,
    SEED_DEMO: 'true',
    DATABASE_URL: `file:${join(dir, 'prod-demo.db')}`,
  });
  try {
    const warnings = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((line) => line.level === 40);
    assert.ok(
      warnings.some((line) => /SEED_DEMO=true in production/.test(line.msg)),
      server.output(),
    );
    assert.ok(
      warnings.some((line) => /DEMO ACCOUNTS ARE ACTIVE IN PRODUCTION: captain \(admin\)/.test(line.msg)),
      server.output(),
    );
  } finally {
    await stopProcess(server);
  }
});

DemoSeed('outside production the first lines say where the docs are and name the demo accounts', async ({ dir }) => {
  const server = await startProcess({ DATABASE_URL: `file:${join(dir, 'dev.db')}` });
  try {
    const [first, second] = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string });
    assert.match(first!.msg, new RegExp(`API docs at ${server.url}/api/docs`));
    assert.match(
      second!.msg,
      /demo accounts: captain \(admin\), deckhand \(user\) and quartermaster \(user\), password "tidewatch-demo"/,
    );
  } finally {
    await stopProcess(server);
  }
});

DemoSeed.run();

// ---------- 9: the seed is all or nothing, and fits any catalog ----------

const Seed = suite<{ dir: string }>('9: an atomic demo seed');
Seed.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-seed-'));
});
Seed.after((context) => rmSync(context.dir, { recursive: true, force: true }));

Seed('a failure half-way leaves the database as it was, and the next seed runs in full', async ({ dir }) => {
  const database = openDatabase(`file:${join(dir, 'half.db')}`, { driver: TEST_DRIVER });
  try {
    await database.migrate();
    const before = await tableCounts(database);
    // The seed's last step (the calendars) fails: users, maps, orders, catalog, assemblies and war data came before it.
    await database.db.run(
      sql`create trigger fail_seed before insert on calendar_events begin select raise(abort, 'injected failure'); end`,
    );
    try {
      await seedDemoData(database.db, new Date());
      assert.unreachable('the seed should fail');
    } catch (error) {
      // drizzle on libSQL wraps the driver's error: the trigger's message is in the cause.
      const cause = (error as Error & { cause?: Error }).cause;
      assert.match(`${(error as Error).message} ${cause?.message ?? ''}`, /injected failure/);
    }
    assert.equal(await tableCounts(database), before, 'nothing written');
    await database.db.run(sql`drop trigger fail_seed`);
    const report = await seedDemoData(database.db, new Date());
    assert.equal(report, { seeded: true, skippedAssemblies: [] });
    const after = await tableCounts(database);
    assert.is(after.users, DEMO_USERS.length);
    assert.is(after.assemblies, 3);
    // The private demo assembly's password was hashed before the transaction and opens it.
    const raider = await database.db.get<{ hash: string }>(
      sql`select password_hash as hash from assemblies where name = 'Cutter rocket raider'`,
    );
    assert.ok(await verifyPassword(raider!.hash, DEMO_ASSEMBLY_PASSWORD));
    assert.ok(after.war_snapshots! > 4000);
    assert.ok(after.calendar_events! > 0);
    assert.is((await seedDemoData(database.db, new Date())).seeded, false, 'a seeded database is not seeded twice');
  } finally {
    database.close();
  }
});

Seed(
  'on a database that already has the community catalog (without bronzeBulwark1, culverin2, cutter), the misfits are skipped and named',
  async ({ dir }) => {
    const database = openDatabase(`file:${join(dir, 'community.db')}`, { driver: TEST_DRIVER });
    try {
      await database.migrate();
      await importCatalog({ db: database.db, now: () => new Date() }, { files: structuredClone(COMMUNITY_SAMPLE) });
      assert.not.ok('bronzeBulwark1' in COMMUNITY_SAMPLE.items);
      const report = await seedDemoData(database.db, new Date());
      assert.is(report.seeded, true);
      assert.is(report.skippedAssemblies.length, 2, report.skippedAssemblies.join('; '));
      assert.match(
        report.skippedAssemblies[0]!,
        /^Brigantine broadside \(.*unknown item "culverin2".*unknown item "bronzeBulwark1"/,
      );
      assert.match(report.skippedAssemblies[1]!, /^Cutter rocket raider \(unknown hull "cutter"/);
      const counts = await tableCounts(database);
      assert.is(counts.users, DEMO_USERS.length);
      assert.is(counts.assemblies, 1, 'the hulk brawler fits the community catalog');
      assert.is(
        counts.catalog_hulls,
        Object.keys(COMMUNITY_SAMPLE.ships).length,
        'the imported catalog is left as it was',
      );
      assert.ok(counts.war_snapshots! > 4000);
      assert.ok(counts.drop_campaigns! > 0);
    } finally {
      database.close();
    }
  },
);

Seed('start-up on such a database seeds, says which assemblies it skipped, and serves', async ({ dir }) => {
  const url = `file:${join(dir, 'start.db')}`;
  const prepared = openDatabase(url, { driver: TEST_DRIVER });
  await prepared.migrate();
  await importCatalog({ db: prepared.db, now: () => new Date() }, { files: structuredClone(COMMUNITY_SAMPLE) });
  prepared.close();
  const { logger, lines } = captureLogs();
  const app = await startServer(
    configWith({ PORT: 0, DATABASE_URL: url, DATABASE_DRIVER: TEST_DRIVER, SEED_DEMO: true, ...GENEROUS_LIMITS }),
    { logger },
  );
  try {
    const skipped = lines.find((line) => /demo assemblies skipped/.test(line.msg));
    assert.ok(skipped, JSON.stringify(lines));
    assert.is(skipped!.level, 40);
    assert.match(skipped!.msg, /Brigantine broadside/);
    const signin = await rest(app.url, 'POST', '/api/user/signin', {
      body: { username: 'deckhand', password: 'tidewatch-demo' },
    });
    assert.is(signin.status, 200);
    const list = await rest(app.url, 'GET', '/api/assembly/list');
    assert.equal(
      list.body.data.data.map((item: { name: string }) => item.name),
      ['Hulk brawler'],
    );
  } finally {
    await app.close();
  }
});

Seed.run();

// ---------- 10: a database that cannot be written ----------

const Writable10 = suite<{ dir: string }>('10: health and start-up check that the database takes writes');
Writable10.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-ro-'));
});
Writable10.after((context) => rmSync(context.dir, { recursive: true, force: true }));

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
