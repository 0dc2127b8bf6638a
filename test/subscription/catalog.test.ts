// The sponsorship catalog from the database: importing it, the plans and progress read on both surfaces,
// the admin procedures that edit tiers, pay types and the goal, and their access rules.
import * as assert from 'uvu/assert';
import { trpcError } from '../support/http-clients';
import { serverSuite } from '../support/server-suite';
import { createOrder, importCatalog, makeAdmin, type TUser } from './fixtures';

const Catalog = serverSuite<{ admin: TUser; user: TUser }>('sponsorship catalog from the database', {
  setUp: async (context) => {
    context.admin = await makeAdmin(context.app);
    context.user = await context.app.signUp();
  },
});

Catalog('plans are empty until imported, then list tiers and pay types on both surfaces', async ({ app, admin }) => {
  assert.equal((await app.rest('GET', '/api/subscription/plans')).body.data, { plans: [], payTypes: [] });
  await importCatalog(app, admin);
  const plans = (await app.rest('GET', '/api/subscription/plans')).body.data;
  assert.is(plans.plans.length, 1);
  assert.equal(
    plans.plans[0].tiers.map((tier: any) => [tier.tierId, tier.price, tier.currency, tier.months]),
    [
      ['deckhand-1m', 4.99, 'USD', 1],
      ['quartermaster-3m', 12.99, 'USD', 3],
      ['captain-12m', 44.99, 'USD', 12],
    ],
  );
  assert.equal(plans.payTypes, [{ payType: 'manual', name: 'Bank transfer (confirmed by the treasurer)' }]);
  assert.equal(await app.trpc().subscription.plans.query({}), plans);
  const progress = await app.trpc().subscription.progress.query({});
  assert.is(progress.goal, 200);
  assert.is(progress.currency, 'USD');
});

Catalog(
  'admins edit tiers, pay types and the goal; retired tiers disappear and cannot be bought',
  async ({ app, admin, user }) => {
    const put = await app.rest('PUT', '/api/admin/subscription/tiers/deckhand-1m', {
      token: admin.token,
      body: { planId: 'supporter', name: 'Deckhand', price: 5.5, currency: 'USD', months: 1 },
    });
    assert.is(put.status, 200, put.text);
    assert.is(put.body.data.price, 5.5);
    const retired = await app.trpc(admin.token).admin.subscription.putTier.mutate({
      tierId: 'captain-12m',
      planId: 'supporter',
      name: 'Captain',
      price: 44.99,
      currency: 'USD',
      months: 12,
      active: false,
    });
    assert.is(retired.active, false);
    const tiers = (await app.rest('GET', '/api/subscription/plans')).body.data.plans[0].tiers;
    assert.equal(
      tiers.map((tier: any) => [tier.tierId, tier.price]),
      [
        ['deckhand-1m', 5.5],
        ['quartermaster-3m', 12.99],
      ],
    );
    const buyRetired = await createOrder(app, user.token, { tierId: 'captain-12m', payType: 'manual' });
    assert.is(buyRetired.status, 400);
    assert.match(buyRetired.body.message, /tierId/);

    const goal = await app.rest('PUT', '/api/admin/subscription/goal', {
      token: admin.token,
      body: { amount: 350.25, currency: 'USD' },
    });
    assert.equal(goal.body.data, { amount: 350.25, currency: 'USD' });
    assert.is((await app.rest('GET', '/api/subscription/progress')).body.data.goal, 350.25);

    const off = await app.rest('PUT', '/api/admin/subscription/pay-types/manual', {
      token: admin.token,
      body: { name: 'Manual', enabled: false },
    });
    assert.is(off.status, 200);
    assert.equal((await app.rest('GET', '/api/subscription/plans')).body.data.payTypes, []);
    const disabled = await createOrder(app, user.token, { tierId: 'deckhand-1m', payType: 'manual' });
    assert.is(disabled.status, 400);
    assert.match(disabled.body.message, /payType/);
    await app.rest('PUT', '/api/admin/subscription/pay-types/manual', {
      token: admin.token,
      body: { name: 'Manual', enabled: true },
    });

    const unknownProvider = await app.rest('PUT', '/api/admin/subscription/pay-types/paypal', {
      token: admin.token,
      body: { name: 'PayPal' },
    });
    assert.is(unknownProvider.status, 400);
    assert.match(unknownProvider.body.message, /no payment provider "paypal"/);
    const noPlan = await app.rest('PUT', '/api/admin/subscription/tiers/x', {
      token: admin.token,
      body: { planId: 'nope', name: 'X', price: 1, currency: 'USD', months: 1 },
    });
    assert.is(noPlan.status, 400);
    assert.match(noPlan.body.message, /planId/);
    const badPrice = await app.rest('PUT', '/api/admin/subscription/tiers/x', {
      token: admin.token,
      body: { planId: 'supporter', name: 'X', price: 1.999, currency: 'usd', months: 0 },
    });
    assert.is(badPrice.status, 400);
    assert.equal(badPrice.body.data.issues.map((issue: any) => issue.path).sort(), ['currency', 'months', 'price']);
  },
);

Catalog('admin procedures: 401 without a token, 403 for a non-admin, on both surfaces', async ({ app, user }) => {
  const body = { amount: 1, currency: 'USD' };
  assert.is((await app.rest('PUT', '/api/admin/subscription/goal', { body })).status, 401);
  assert.is((await app.rest('PUT', '/api/admin/subscription/goal', { token: user.token, body })).status, 403);
  assert.is((await app.rest('POST', '/api/admin/subscription/import', { token: user.token, body: {} })).status, 403);
  assert.is((await app.rest('POST', '/api/admin/subscription/orders/expire', { token: user.token })).status, 403);
  assert.is((await trpcError(app.trpc(user.token).admin.subscription.putGoal.mutate(body))).status, 403);
  assert.is((await trpcError(app.trpc().admin.subscription.putGoal.mutate(body))).status, 401);
});

Catalog.run();
