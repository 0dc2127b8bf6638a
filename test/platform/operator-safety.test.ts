// Operator safety (see also operator-safety-writes.test.ts and operator-safety-processes.test.ts): the demo seed,
// off by default in production and loud when on (8), and all or nothing on any catalog (9).
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../db/client';
import { DEMO_USERS, seedDemoData } from '../../server/seed/index';
import { DEMO_ASSEMBLY_PASSWORD } from '../../server/seed/assemblies';
import { configWith, loadConfig } from '../../server/config';
import { startServer } from '../../server/server';
import { importCatalog } from '../../server/domains/catalog/import';
import { verifyPassword } from '../../server/infra/password';
import { GENEROUS_LIMITS, TEST_DRIVER } from '../support/helpers';
import { COMMUNITY_SAMPLE } from '../support/community-sample';
import { rest } from '../support/http-clients';
import { PRODUCTION_SECRET, startProcess, stopProcess, captureLogs, tableCounts } from '../support/operator';
import { directorySuite } from '../support/directory-suite';

// ---------- 8: no published admin password in production ----------

const DemoSeed = directorySuite('8: the demo seed and production', 'ops');

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

const Seed = directorySuite('9: an atomic demo seed', 'seed');

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
