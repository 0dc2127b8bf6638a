// Sponsorship outside the routes' logic: the demo data of a fresh install, the OpenAPI paths, and the
// CLI commands (subscription-import, order-confirm, orders-expire).
import * as assert from 'uvu/assert';
import { startTestServer, TEST_DRIVER } from '../support/helpers';
import { suite } from '../support/suite';

const Setup = suite('sponsorship demo data, OpenAPI paths and CLI commands');

Setup('a fresh install seeds the catalog, one paid order and two map collections', async () => {
  const app = await startTestServer({ SEED_DEMO: true });
  try {
    const plans = (await app.rest('GET', '/api/subscription/plans')).body.data;
    assert.equal(
      plans.plans[0].tiers.map((tier: any) => tier.tierId),
      ['deckhand-1m', 'quartermaster-3m', 'captain-12m'],
    );
    const progress = (await app.rest('GET', '/api/subscription/progress')).body.data;
    assert.equal([progress.paidTotal, progress.goal, progress.percent, progress.supporterCount], [12.99, 200, 6.5, 1]);
    const hall = (await app.rest('GET', '/api/subscription/hall')).body.data;
    assert.equal(
      hall.data.map((entry: any) => [entry.user.username, entry.paidTotal]),
      [['deckhand', 12.99]],
    );
    const signin = await app.rest('POST', '/api/user/signin', {
      body: { username: 'deckhand', password: 'tidewatch-demo' },
    });
    const token = signin.body.data.token;
    const status = (await app.rest('GET', '/api/subscription/my-status', { token })).body.data;
    assert.equal(Object.keys(status), ['quartermaster-3m']);
    const maps = (await app.rest('GET', '/api/map/collections', { token })).body.data;
    assert.is(maps.data.length, 2);

    const document = (await app.rest('GET', '/api/openapi.json')).body as any;
    for (const [path, method] of [
      ['/subscription/plans', 'get'],
      ['/subscription/progress', 'get'],
      ['/subscription/hall', 'get'],
      ['/subscription/my-status', 'get'],
      ['/subscription/my-orders', 'get'],
      ['/subscription/orders/create', 'post'],
      ['/subscription/orders/{orderId}/cancel', 'post'],
      ['/subscription/webhook/{payType}', 'post'],
      ['/subscription/hall-visibility', 'post'],
      ['/admin/subscription/orders/{orderId}/confirm', 'post'],
    ] as const) {
      assert.ok(document.paths[path]?.[method], `${method} ${path}`);
    }
    assert.is(document.paths['/subscription/plans'].get.security, undefined);
    assert.equal(document.paths['/subscription/my-status'].get.security, [{ bearerAuth: [] }]);
  } finally {
    await app.stop();
  }
});

Setup('CLI: subscription-import loads a catalog, order-confirm pays, orders-expire sweeps', async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const { runCommand } = await import('../../server/cli/command');
  const { orderConfirmCommand, ordersExpireCommand, subscriptionImportCommand } = await import(
    '../../server/cli/subscription-commands'
  );
  const { openDatabase } = await import('../../db/client');
  const { listPlans } = await import('../../server/domains/subscription/catalog');
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-cli-'));
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = `file:${join(dir, 'cli.db')}`;
  try {
    const file = join(dir, 'catalog.json');
    writeFileSync(
      file,
      JSON.stringify({
        plans: [
          { planId: 'p', name: 'P', tiers: [{ tierId: 't', name: 'T', price: 2.5, currency: 'EUR', months: 2 }] },
        ],
      }),
    );
    const printed: string[] = [];
    await runCommand(subscriptionImportCommand, [file], (line) => printed.push(line));
    assert.equal(printed, ['imported 1 plan(s), 1 tier(s), 0 pay type(s)']);
    const database = openDatabase(process.env.DATABASE_URL, { driver: TEST_DRIVER });
    try {
      const plans = await listPlans({ db: database.db });
      assert.equal(plans.plans[0]!.tiers, [
        { tierId: 't', name: 'T', description: null, price: 2.5, currency: 'EUR', months: 2 },
      ]);
    } finally {
      database.close();
    }
    writeFileSync(
      file,
      JSON.stringify({
        plans: [{ planId: 'p', name: 'P', tiers: [{ tierId: 't', name: 'T', price: -1, currency: 'EUR', months: 2 }] }],
      }),
    );
    try {
      await runCommand(subscriptionImportCommand, [file], () => {});
      assert.unreachable('a bad price is refused');
    } catch (error) {
      assert.match(String(error), /plans\[0\]\.tiers\[0\]\.price/);
    }
    try {
      await runCommand(orderConfirmCommand, [], () => {});
      assert.unreachable('orderId is required');
    } catch (error) {
      assert.match(String(error), /expected exactly one <orderId>/);
    }
    const swept: string[] = [];
    await runCommand(ordersExpireCommand, [], (line) => swept.push(line));
    assert.equal(swept, ['0 order(s) expired']);
  } finally {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
    rmSync(dir, { recursive: true, force: true });
  }
});

Setup.run();
