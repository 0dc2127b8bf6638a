import { createTRPCClient, httpLink } from '@trpc/client';
import { and, count, eq } from 'drizzle-orm';
import superjson from 'superjson';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { subscriptionMemberships, subscriptionOrders } from '../../db/schema';
import { DEMO_SUBSCRIPTION_CATALOG } from '../../server/seed/subscription';
import { loadConfig, ConfigError } from '../../server/config';
import { JOBS } from '../../server/jobs';
import type { AppRouter } from '../../server/router';
import { setRole } from '../../server/domains/user/account';
import { MANUAL_DEV_SECRET, signManualWebhook } from '../../server/domains/subscription/payment/manual';
import { addCalendarMonths, percentOf, toMinor } from '../../server/domains/subscription/money';
import { startTestServer, TEST_DRIVER, trpcError, type TTestServer } from '../support/helpers';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

/** Moves the service clock to an exact instant (sessions made before may then be expired: sign in again). */
function setClock(app: TTestServer, iso: string): void {
  app.clock.offsetMs = Date.parse(iso) - Date.now();
}

async function makeAdmin(app: TTestServer): Promise<TUser> {
  const admin = await app.signUp();
  assert.ok(await setRole({ db: app.database.db }, { username: admin.username, role: 'admin' }));
  return admin;
}

async function importCatalog(app: TTestServer, admin: TUser): Promise<void> {
  const response = await app.rest('POST', '/api/admin/subscription/import', {
    token: admin.token,
    body: DEMO_SUBSCRIPTION_CATALOG,
  });
  assert.is(response.status, 200, response.text);
  assert.equal(response.body.data, { plans: 1, tiers: 3, payTypes: 1, goal: true });
}

async function signIn(app: TTestServer, user: TUser): Promise<TUser> {
  const response = await app.rest('POST', '/api/user/signin', {
    body: { username: user.username, password: user.password },
  });
  assert.is(response.status, 200, response.text);
  return { ...user, token: response.body.data.token };
}

function createOrder(app: TTestServer, token: string, body: Record<string, unknown>, key?: string) {
  return app.rest('POST', '/api/subscription/orders/create', {
    token,
    body,
    headers: key ? { 'idempotency-key': key } : {},
  });
}

async function paidOrder(app: TTestServer, user: TUser, admin: TUser, tierId: string) {
  const created = await createOrder(app, user.token, { tierId, payType: 'manual' });
  assert.is(created.status, 200, created.text);
  const confirmed = await app.rest('POST', `/api/admin/subscription/orders/${created.body.data.orderId}/confirm`, {
    token: admin.token,
  });
  assert.is(confirmed.status, 200, confirmed.text);
  return confirmed.body.data as { order: any; alreadyPaid: boolean; membershipExpiry: string };
}

function postWebhook(
  app: TTestServer,
  payType: string,
  event: unknown,
  options: { at?: Date; secret?: string; signature?: string | null } = {},
) {
  const raw = JSON.stringify(event);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signature =
    options.signature === undefined
      ? signManualWebhook(options.secret ?? MANUAL_DEV_SECRET, raw, options.at ?? app.clock.now())
      : options.signature;
  if (signature !== null) headers['x-tidewatch-signature'] = signature;
  return app.rest('POST', `/api/subscription/webhook/${payType}`, { rawBody: raw, headers });
}

function clientWithKey(app: TTestServer, token: string, key: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${app.url}/trpc`,
        transformer: superjson,
        headers: () => ({ authorization: `Bearer ${token}`, 'idempotency-key': key }),
      }),
    ],
  });
}

// --- Pure rules ---

const Rules = suite('sponsorship rules: calendar months, money, percent');

Rules('a month added to the 31st clamps to the end of a shorter month and keeps the time of day', () => {
  const at = (iso: string) => new Date(iso);
  assert.is(addCalendarMonths(at('2027-01-31T10:20:30.456Z'), 1).toISOString(), '2027-02-28T10:20:30.456Z');
  assert.is(
    addCalendarMonths(at('2028-01-31T00:00:00.000Z'), 1).toISOString(),
    '2028-02-29T00:00:00.000Z',
    'leap year',
  );
  assert.is(addCalendarMonths(at('2027-03-31T23:59:59.999Z'), 1).toISOString(), '2027-04-30T23:59:59.999Z');
  assert.is(
    addCalendarMonths(at('2026-12-31T12:00:00.000Z'), 2).toISOString(),
    '2027-02-28T12:00:00.000Z',
    'across a year end',
  );
  assert.is(addCalendarMonths(at('2027-08-31T12:00:00.000Z'), 6).toISOString(), '2028-02-29T12:00:00.000Z');
  assert.is(addCalendarMonths(at('2027-01-15T08:00:00.000Z'), 12).toISOString(), '2028-01-15T08:00:00.000Z');
  assert.is(addCalendarMonths(at('2027-11-30T08:00:00.000Z'), 3).toISOString(), '2028-02-29T08:00:00.000Z');
});

Rules('money converts to minor units only with at most two decimals; percent rounds to two decimals', () => {
  assert.is(toMinor(4.99), 499);
  assert.is(toMinor(12.99), 1299);
  assert.is(toMinor(0.1 + 0.2), 30);
  assert.is(toMinor(1.005), null);
  assert.is(percentOf(12095, 20000), 60.48);
  assert.is(percentOf(1, 3), 33.33);
  assert.is(percentOf(2, 3), 66.67);
  assert.is(percentOf(30000, 20000), 150, 'not capped');
  assert.is(percentOf(5, 0), 0);
});

Rules('PAYMENT_MANUAL_SECRET is required in production, optional elsewhere', () => {
  assert.throws(
    () => loadConfig({ NODE_ENV: 'production' }),
    (error: unknown) => error instanceof ConfigError && /PAYMENT_MANUAL_SECRET/.test(String(error)),
  );
  assert.is(
    loadConfig({ NODE_ENV: 'production', PAYMENT_MANUAL_SECRET: 'a-long-enough-secret' }).PAYMENT_MANUAL_SECRET,
    'a-long-enough-secret',
  );
  assert.is(loadConfig({ NODE_ENV: 'development' }).PAYMENT_MANUAL_SECRET, undefined);
  assert.throws(() => loadConfig({ PAYMENT_MANUAL_SECRET: 'short' }), /PAYMENT_MANUAL_SECRET/);
});

Rules.run();

// --- Catalog and its admin procedures ---

const Catalog = suite<{ app: TTestServer; admin: TUser; user: TUser }>('sponsorship catalog from the database');

Catalog.before(async (context) => {
  context.app = await startTestServer();
  context.admin = await makeAdmin(context.app);
  context.user = await context.app.signUp();
});
Catalog.after(async (context) => {
  await context.app.stop();
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

// --- Order lifecycle ---

const Orders = suite<{ app: TTestServer; admin: TUser; alice: TUser; bob: TUser }>(
  'orders: create, idempotency, cancel, expire, confirm',
);

Orders.before(async (context) => {
  context.app = await startTestServer();
  setClock(context.app, '2027-03-10T12:00:00.000Z');
  context.admin = await makeAdmin(context.app);
  await importCatalog(context.app, context.admin);
  context.alice = await context.app.signUp();
  context.bob = await context.app.signUp();
});
Orders.after(async (context) => {
  await context.app.stop();
});

Orders('create returns a pending order with amount, 30-minute deadline and payment URL', async ({ app, alice }) => {
  const response = await createOrder(app, alice.token, { tierId: 'quartermaster-3m', payType: 'manual' });
  assert.is(response.status, 200, response.text);
  const order = response.body.data;
  assert.is(order.status, 'pending');
  assert.is(order.amount, 12.99);
  assert.is(order.currency, 'USD');
  assert.is(order.months, 3);
  assert.is(order.tierName, 'Quartermaster');
  assert.is(Date.parse(order.payDeadline) - Date.parse(order.createdAt), 30 * 60 * 1000);
  assert.is(order.paymentUrl, `http://127.0.0.1:3000/sponsor/pay?order=${order.orderId}`);
  assert.is(order.paidAt, null);
  assert.is(response.headers.get('idempotent-replayed'), null);
  const viaTrpc = await app
    .trpc(alice.token)
    .subscription.createOrder.mutate({ tierId: 'deckhand-1m', payType: 'manual' });
  assert.is(viaTrpc.amount, 4.99);
  assert.is(viaTrpc.status, 'pending');
  assert.is.not(viaTrpc.orderId, order.orderId, 'without a key every call is a new order');
  await app.trpc(alice.token).subscription.cancelOrder.mutate({ orderId: viaTrpc.orderId });
  await app.trpc(alice.token).subscription.cancelOrder.mutate({ orderId: order.orderId });
});

Orders('unknown tierId or payType is a 400; no token a 401', async ({ app, alice }) => {
  const tier = await createOrder(app, alice.token, { tierId: 'admiral', payType: 'manual' });
  assert.is(tier.status, 400);
  assert.equal(tier.body.data.issues, [{ path: 'tierId', message: 'unknown tier' }]);
  const pay = await createOrder(app, alice.token, { tierId: 'deckhand-1m', payType: 'bitcoin' });
  assert.is(pay.status, 400);
  assert.equal(pay.body.data.issues, [{ path: 'payType', message: 'unknown pay type' }]);
  const missing = await createOrder(app, alice.token, { tierId: 'deckhand-1m' });
  assert.is(missing.status, 400);
  assert.match(missing.body.message, /payType/);
  assert.is(
    (await trpcError(app.trpc(alice.token).subscription.createOrder.mutate({ tierId: 'admiral', payType: 'manual' })))
      .status,
    400,
  );
  assert.is((await createOrder(app, '', { tierId: 'deckhand-1m', payType: 'manual' })).status, 401);
  assert.is(
    (await trpcError(app.trpc().subscription.createOrder.mutate({ tierId: 'deckhand-1m', payType: 'manual' }))).status,
    401,
  );
  assert.is((await app.rest('GET', '/api/subscription/my-orders')).status, 401);
  assert.is((await app.rest('GET', '/api/subscription/my-status')).status, 401);
});

Orders(
  'the same Idempotency-Key returns the same order; another body with it is a 422; keys are per user',
  async ({ app, alice, bob }) => {
    const first = await createOrder(app, alice.token, { tierId: 'deckhand-1m', payType: 'manual' }, 'key-001');
    const again = await createOrder(app, alice.token, { tierId: 'deckhand-1m', payType: 'manual' }, 'key-001');
    assert.is(again.status, 200);
    assert.equal(again.body.data, first.body.data);
    assert.is(again.headers.get('idempotent-replayed'), 'true');
    const viaTrpc = await clientWithKey(app, alice.token, 'key-001').subscription.createOrder.mutate({
      tierId: 'deckhand-1m',
      payType: 'manual',
    });
    assert.is(viaTrpc.orderId, first.body.data.orderId);
    const rows = await app.database.db
      .select({ n: count() })
      .from(subscriptionOrders)
      .where(and(eq(subscriptionOrders.userId, alice.id), eq(subscriptionOrders.idempotencyKey, 'key-001')))
      .get();
    assert.is(rows?.n, 1);

    const different = await createOrder(app, alice.token, { tierId: 'quartermaster-3m', payType: 'manual' }, 'key-001');
    assert.is(different.status, 422);
    assert.match(different.body.message, /Idempotency-Key was already used/);
    assert.is(different.body.data.orderId, first.body.data.orderId);
    assert.is(
      (
        await trpcError(
          clientWithKey(app, alice.token, 'key-001').subscription.createOrder.mutate({
            tierId: 'quartermaster-3m',
            payType: 'manual',
          }),
        )
      ).status,
      422,
    );

    const bobs = await createOrder(app, bob.token, { tierId: 'deckhand-1m', payType: 'manual' }, 'key-001');
    assert.is(bobs.status, 200);
    assert.is.not(
      bobs.body.data.orderId,
      first.body.data.orderId,
      'another user with the same key gets their own order',
    );

    // A cancelled order is still what the key stands for.
    await app.rest('POST', `/api/subscription/orders/${first.body.data.orderId}/cancel`, { token: alice.token });
    const afterCancel = await createOrder(app, alice.token, { tierId: 'deckhand-1m', payType: 'manual' }, 'key-001');
    assert.is(afterCancel.body.data.orderId, first.body.data.orderId);
    assert.is(afterCancel.body.data.status, 'cancelled');
    await app.rest('POST', `/api/subscription/orders/${bobs.body.data.orderId}/cancel`, { token: bob.token });

    const bad = await createOrder(app, alice.token, { tierId: 'deckhand-1m', payType: 'manual' }, 'has space');
    assert.is(bad.status, 400);
    assert.match(bad.body.message, /Idempotency-Key/);
  },
);

Orders('concurrent creates with one Idempotency-Key make one order', async ({ app }) => {
  const frank = await app.signUp();
  const responses = await Promise.all(
    Array.from({ length: 5 }, () =>
      createOrder(app, frank.token, { tierId: 'deckhand-1m', payType: 'manual' }, 'race-key'),
    ),
  );
  assert.equal(
    responses.map((response) => response.status),
    [200, 200, 200, 200, 200],
  );
  assert.is(new Set(responses.map((response) => response.body.data.orderId)).size, 1);
  const rows = await app.database.db
    .select({ n: count() })
    .from(subscriptionOrders)
    .where(eq(subscriptionOrders.userId, frank.id))
    .get();
  assert.is(rows?.n, 1);
});

Orders('the server job expires overdue orders from the service clock', async ({ app }) => {
  const job = JOBS.find((candidate) => candidate.name === 'expire-pending-orders');
  assert.ok(job, 'the job is in the list the server starts');
  assert.is(job!.intervalMs, 60_000);
  const gina = await app.signUp();
  const order = (await createOrder(app, gina.token, { tierId: 'deckhand-1m', payType: 'manual' })).body.data;
  assert.is(await job!.run(app.database.db, app.app.deps), 0, 'not yet due');
  app.clock.advance(30 * 60 * 1000);
  assert.ok(((await job!.run(app.database.db, app.app.deps)) as number) >= 1);
  const stored = await app.database.db
    .select({ status: subscriptionOrders.status })
    .from(subscriptionOrders)
    .where(eq(subscriptionOrders.id, order.orderId))
    .get();
  assert.is(stored?.status, 'expired', 'due exactly at the deadline');
});

Orders('cancel: owner only (404 for others), pending only (409 otherwise)', async ({ app, alice, bob }) => {
  const order = (await createOrder(app, alice.token, { tierId: 'deckhand-1m', payType: 'manual' })).body.data;
  const path = `/api/subscription/orders/${order.orderId}/cancel`;
  const other = await app.rest('POST', path, { token: bob.token });
  assert.is(other.status, 404);
  assert.is(other.body.message, 'Order not found');
  assert.is(
    (await trpcError(app.trpc(bob.token).subscription.cancelOrder.mutate({ orderId: order.orderId }))).status,
    404,
  );
  assert.is((await app.rest('POST', path)).status, 401);
  assert.is(
    (await app.rest('POST', '/api/subscription/orders/no-such-order/cancel', { token: alice.token })).status,
    404,
  );

  const cancelled = await app.rest('POST', path, { token: alice.token });
  assert.is(cancelled.status, 200);
  assert.is(cancelled.body.data.status, 'cancelled');
  assert.is(cancelled.body.data.paymentUrl, null);
  assert.ok(cancelled.body.data.closedAt);
  const twice = await app.rest('POST', path, { token: alice.token });
  assert.is(twice.status, 409);
  assert.is(twice.body.message, 'Order is cancelled: only a pending order can be cancelled');
  const viaTrpc = await trpcError(app.trpc(alice.token).subscription.cancelOrder.mutate({ orderId: order.orderId }));
  assert.is(viaTrpc.status, 409);
  const confirm = await app.rest('POST', `/api/admin/subscription/orders/${order.orderId}/confirm`, {
    token: (await makeAdmin(app)).token,
  });
  assert.is(confirm.status, 409, 'a cancelled order cannot be paid');
});

Orders(
  'a pending order expires after 30 minutes: shown expired, cannot be cancelled or paid, swept',
  async ({ app, alice, admin }) => {
    const order = (await createOrder(app, alice.token, { tierId: 'deckhand-1m', payType: 'manual' })).body.data;
    app.clock.advance(29 * 60 * 1000);
    let listed = (await app.rest('GET', '/api/subscription/my-orders', { token: alice.token })).body.data.data;
    assert.is(
      listed.find((item: any) => item.orderId === order.orderId).status,
      'pending',
      'still payable at 29 minutes',
    );
    app.clock.advance(60 * 1000 + 1);
    listed = (await app.rest('GET', '/api/subscription/my-orders', { token: alice.token })).body.data.data;
    const shown = listed.find((item: any) => item.orderId === order.orderId);
    assert.is(shown.status, 'expired');
    assert.is(shown.paymentUrl, null);
    assert.is(shown.closedAt, order.payDeadline);
    const cancel = await app.rest('POST', `/api/subscription/orders/${order.orderId}/cancel`, { token: alice.token });
    assert.is(cancel.status, 409);
    assert.match(cancel.body.message, /Order is expired/);
    const confirm = await app.rest('POST', `/api/admin/subscription/orders/${order.orderId}/confirm`, {
      token: admin.token,
    });
    assert.is(confirm.status, 409);
    assert.match(confirm.body.message, /expired: it can no longer be paid/);
    const webhook = await postWebhook(app, 'manual', {
      eventId: 'ev-exp',
      type: 'order.paid',
      orderId: order.orderId,
      amountMinor: 499,
      currency: 'USD',
    });
    assert.is(webhook.status, 409);

    const sweep = await app.rest('POST', '/api/admin/subscription/orders/expire', { token: admin.token });
    assert.is(sweep.status, 200);
    assert.ok(sweep.body.data.expired >= 1);
    const stored = await app.database.db
      .select()
      .from(subscriptionOrders)
      .where(eq(subscriptionOrders.id, order.orderId))
      .get();
    assert.is(stored?.status, 'expired');
    assert.is(stored?.closedAt?.toISOString(), order.payDeadline);
    assert.is(
      (await app.trpc(admin.token).admin.subscription.expireOrders.mutate({})).expired,
      0,
      'nothing left to sweep',
    );
    const membership = await app.database.db
      .select()
      .from(subscriptionMemberships)
      .where(eq(subscriptionMemberships.userId, alice.id))
      .all();
    assert.equal(membership, []);
  },
);

Orders('admin confirmation twice extends the membership exactly once', async ({ app, admin }) => {
  const carol = await app.signUp();
  const order = (await createOrder(app, carol.token, { tierId: 'deckhand-1m', payType: 'manual' })).body.data;
  const path = `/api/admin/subscription/orders/${order.orderId}/confirm`;
  assert.is(
    (await app.rest('POST', path, { token: carol.token })).status,
    403,
    'owners cannot confirm their own orders',
  );
  const first = await app.rest('POST', path, { token: admin.token });
  assert.is(first.status, 200, first.text);
  assert.is(first.body.data.alreadyPaid, false);
  assert.is(first.body.data.order.status, 'paid');
  const paidAt = new Date(first.body.data.order.paidAt);
  assert.is(first.body.data.membershipExpiry, addCalendarMonths(paidAt, 1).toISOString());
  app.clock.advance(60_000);
  const second = await app.trpc(admin.token).admin.subscription.confirmOrder.mutate({ orderId: order.orderId });
  assert.is(second.alreadyPaid, true);
  assert.is(second.membershipExpiry, first.body.data.membershipExpiry, 'not extended again');
  assert.is(second.order.paidAt, first.body.data.order.paidAt);
  const status = await app.rest('GET', '/api/subscription/my-status', { token: carol.token });
  assert.equal(status.body.data, { 'deckhand-1m': { expiryTime: first.body.data.membershipExpiry } });
  assert.equal(await app.trpc(carol.token).subscription.myStatus.query({}), status.body.data);
  const cancel = await app.rest('POST', `/api/subscription/orders/${order.orderId}/cancel`, { token: carol.token });
  assert.is(cancel.status, 409);
  assert.is(cancel.body.message, 'Order is paid: only a pending order can be cancelled');
  assert.is(
    (await app.rest('POST', '/api/admin/subscription/orders/nope/confirm', { token: admin.token })).status,
    404,
  );
  const seen = await app.rest('GET', `/api/admin/subscription/orders/${order.orderId}`, { token: admin.token });
  assert.is(seen.body.data.userId, carol.id);
});

Orders('webhook: a signed payment confirms once; bad signatures are 401; mismatches are 409', async ({ app }) => {
  const dave = await app.signUp();
  const order = (await createOrder(app, dave.token, { tierId: 'quartermaster-3m', payType: 'manual' })).body.data;
  const event = {
    eventId: 'ev-1',
    type: 'order.paid',
    orderId: order.orderId,
    amountMinor: 1299,
    currency: 'USD',
    reference: 'bank-42',
  };

  const unsigned = await postWebhook(app, 'manual', event, { signature: null });
  assert.is(unsigned.status, 401);
  assert.match(unsigned.body.message, /Missing x-tidewatch-signature/);
  assert.is((await postWebhook(app, 'manual', event, { secret: 'someone-elses-secret' })).status, 401);
  const stale = await postWebhook(app, 'manual', event, { at: new Date(app.clock.now().getTime() - 10 * 60 * 1000) });
  assert.is(stale.status, 401);
  assert.match(stale.body.message, /timestamp/);
  assert.is((await postWebhook(app, 'manual', event, { signature: 't=1,v1=zz' })).status, 401);
  // The signature covers the exact bytes: the same JSON re-spaced does not verify.
  const raw = JSON.stringify(event);
  const tampered = await app.rest('POST', '/api/subscription/webhook/manual', {
    rawBody: JSON.stringify(event, null, 1),
    headers: {
      'content-type': 'application/json',
      'x-tidewatch-signature': signManualWebhook(MANUAL_DEV_SECRET, raw, app.clock.now()),
    },
  });
  assert.is(tampered.status, 401);
  const wrongAmount = await postWebhook(app, 'manual', { ...event, amountMinor: 999 });
  assert.is(wrongAmount.status, 409);
  assert.match(wrongAmount.body.message, /does not match/);
  assert.is((await postWebhook(app, 'manual', { ...event, orderId: 'missing' })).status, 404);
  assert.is((await postWebhook(app, 'stripe', event)).status, 404);
  const malformed = await postWebhook(app, 'manual', { eventId: 'ev-x', type: 'order.paid' });
  assert.is(malformed.status, 400);
  assert.match(malformed.body.message, /orderId/);
  const other = await postWebhook(app, 'manual', { eventId: 'ev-note', type: 'order.note', orderId: order.orderId });
  assert.is(other.status, 200, 'event types it does not handle are acknowledged');
  assert.equal(other.body.data, { eventId: 'ev-note', handled: false, alreadyPaid: false, order: null });
  assert.equal(
    (await app.rest('GET', '/api/subscription/my-status', { token: dave.token })).body.data,
    {},
    'nothing paid yet',
  );

  const paid = await postWebhook(app, 'manual', event);
  assert.is(paid.status, 200, paid.text);
  assert.is(paid.body.data.handled, true);
  assert.is(paid.body.data.alreadyPaid, false);
  assert.is(paid.body.data.order.status, 'paid');
  const expiry = addCalendarMonths(new Date(paid.body.data.order.paidAt), 3).toISOString();
  const repeated = await postWebhook(app, 'manual', event);
  assert.is(repeated.status, 200);
  assert.is(repeated.body.data.alreadyPaid, true);
  assert.equal((await app.rest('GET', '/api/subscription/my-status', { token: dave.token })).body.data, {
    'quartermaster-3m': { expiryTime: expiry },
  });
  const stored = await app.database.db
    .select()
    .from(subscriptionOrders)
    .where(eq(subscriptionOrders.id, order.orderId))
    .get();
  assert.is(stored?.confirmedBy, 'webhook');
  assert.is(stored?.providerRef, 'bank-42');

  const overTrpc = await trpcError(app.trpc().subscription.handleWebhook.mutate({ payType: 'manual' }));
  assert.is(overTrpc.status, 400, 'no raw body on the native surface');
});

Orders('at most 5 unexpired pending orders per user; my-orders lists payable ones first', async ({ app }) => {
  const erin = await app.signUp();
  const paid = (await createOrder(app, erin.token, { tierId: 'captain-12m', payType: 'manual' })).body.data;
  await app.rest('POST', `/api/admin/subscription/orders/${paid.orderId}/confirm`, {
    token: (await makeAdmin(app)).token,
  });
  app.clock.advance(1000);
  const pending: string[] = [];
  for (let index = 0; index < 5; index++) {
    const response = await createOrder(app, erin.token, { tierId: 'deckhand-1m', payType: 'manual' });
    assert.is(response.status, 200);
    pending.push(response.body.data.orderId);
    app.clock.advance(1000);
  }
  const sixth = await createOrder(app, erin.token, { tierId: 'deckhand-1m', payType: 'manual' });
  assert.is(sixth.status, 409);
  assert.match(sixth.body.message, /5 pending orders/);
  await app.rest('POST', `/api/subscription/orders/${pending[4]}/cancel`, { token: erin.token });

  const page = await app.rest('GET', '/api/subscription/my-orders?pageSize=10', { token: erin.token });
  assert.equal(
    page.body.data.data.map((item: any) => [item.orderId, item.status]),
    [
      [pending[0], 'pending'],
      [pending[1], 'pending'],
      [pending[2], 'pending'],
      [pending[3], 'pending'],
      [pending[4], 'cancelled'],
      [paid.orderId, 'paid'],
    ],
    'pending by nearest deadline, then the rest newest first',
  );
  assert.equal(page.body.data.pagination, { page: 1, pageSize: 10, total: 6, totalPages: 1 });
  assert.ok(page.body.data.data[0].paymentUrl);
  const second = await app.trpc(erin.token).subscription.myOrders.query({ page: 2, pageSize: 4 });
  assert.equal(
    second.data.map((item) => item.orderId),
    [pending[4], paid.orderId],
  );
});

Orders.run();

// --- Membership arithmetic over the API ---

const Membership = suite<{ app: TTestServer }>('membership: extends from max(now, expiry) by calendar months');

Membership.before(async (context) => {
  context.app = await startTestServer();
});
Membership.after(async (context) => {
  await context.app.stop();
});

Membership(
  'Jan 31 + 1 month is Feb 28; renewals stack from the expiry; a lapsed one restarts from now',
  async ({ app }) => {
    setClock(app, '2027-01-31T10:00:00.000Z');
    let admin = await makeAdmin(app);
    await importCatalog(app, admin);
    let user = await app.signUp();

    const first = await paidOrder(app, user, admin, 'deckhand-1m');
    const paidAt = new Date(first.order.paidAt);
    assert.is(first.order.paidAt.slice(0, 10), '2027-01-31');
    const feb28 = new Date(
      Date.UTC(
        2027,
        1,
        28,
        paidAt.getUTCHours(),
        paidAt.getUTCMinutes(),
        paidAt.getUTCSeconds(),
        paidAt.getUTCMilliseconds(),
      ),
    );
    assert.is(first.membershipExpiry, feb28.toISOString());

    const second = await paidOrder(app, user, admin, 'deckhand-1m');
    assert.is(
      second.membershipExpiry,
      new Date(feb28.getTime()).toISOString().replace('2027-02-28', '2027-03-28'),
      'from the current expiry, not from now',
    );
    const third = await paidOrder(app, user, admin, 'quartermaster-3m');
    const other = await paidOrder(app, user, admin, 'captain-12m');
    assert.is(third.membershipExpiry.slice(0, 10), '2027-04-30', 'a separate tier starts from now: Jan 31 + 3 months');
    assert.is(other.membershipExpiry.slice(0, 10), '2028-01-31');
    const status = (await app.rest('GET', '/api/subscription/my-status', { token: user.token })).body.data;
    assert.equal(Object.keys(status), ['captain-12m', 'deckhand-1m', 'quartermaster-3m']);
    assert.is(status['deckhand-1m'].expiryTime.slice(0, 10), '2027-03-28');

    // Long after the deckhand membership lapsed: a new month counts from the day of payment.
    setClock(app, '2027-08-31T09:00:00.000Z');
    admin = await signIn(app, admin);
    user = await signIn(app, user);
    const renewed = await paidOrder(app, user, admin, 'deckhand-1m');
    assert.is(renewed.membershipExpiry.slice(0, 10), '2027-09-30');
    const lapsed = (await app.rest('GET', '/api/subscription/my-status', { token: user.token })).body.data;
    assert.is(
      lapsed['quartermaster-3m'].expiryTime.slice(0, 10),
      '2027-04-30',
      'lapsed memberships stay visible with a past expiry',
    );
    const rows = await app.database.db
      .select({ n: count() })
      .from(subscriptionMemberships)
      .where(eq(subscriptionMemberships.userId, user.id))
      .get();
    assert.is(rows?.n, 3, 'one row per tier');
  },
);

Membership.run();

// --- Progress and hall ---

const Figures = suite<{ app: TTestServer }>('progress and hall figures');

Figures.before(async (context) => {
  context.app = await startTestServer();
});
Figures.after(async (context) => {
  await context.app.stop();
});

Figures('progress counts this UTC month; the hall ranks all-time totals without opted-out users', async ({ app }) => {
  // April: C pays 44.99 (counts for the hall, not for May's progress).
  setClock(app, '2027-04-20T08:00:00.000Z');
  const admin = await makeAdmin(app);
  await importCatalog(app, admin);
  const c = await app.signUp();
  await paidOrder(app, c, admin, 'captain-12m');

  setClock(app, '2027-05-15T12:00:00.000Z');
  const a = await app.signUp();
  const b = await app.signUp();
  const d = await app.signUp();
  const e = await app.signUp();
  await paidOrder(app, a, admin, 'deckhand-1m'); // 4.99
  app.clock.advance(1000);
  await paidOrder(app, a, admin, 'captain-12m'); // 44.99 -> A: 49.98
  app.clock.advance(1000);
  await paidOrder(app, b, admin, 'quartermaster-3m'); // 12.99
  app.clock.advance(1000);
  await paidOrder(app, d, admin, 'quartermaster-3m'); // 12.99
  await paidOrder(app, d, admin, 'captain-12m'); // 44.99 -> D: 57.98
  // E: one cancelled and one expired order: counted nowhere.
  const cancelled = (await createOrder(app, e.token, { tierId: 'captain-12m', payType: 'manual' })).body.data;
  await app.rest('POST', `/api/subscription/orders/${cancelled.orderId}/cancel`, { token: e.token });
  await createOrder(app, e.token, { tierId: 'captain-12m', payType: 'manual' });
  app.clock.advance(31 * 60 * 1000);

  // May: 4.99 + 44.99 + 12.99 + 12.99 + 44.99 = 120.95 of 200 -> 60.475% -> 60.48; payers A, B, D.
  const progress = await app.rest('GET', '/api/subscription/progress');
  assert.equal(progress.body.data, {
    month: '2027-05',
    goal: 200,
    currency: 'USD',
    paidTotal: 120.95,
    remaining: 79.05,
    percent: 60.48,
    supporterCount: 3,
  });

  assert.equal(await app.trpc(d.token).subscription.getHallVisibility.query({}), { visible: true });
  const optOut = await app.rest('POST', '/api/subscription/hall-visibility', {
    token: d.token,
    body: { visible: false },
  });
  assert.equal(optOut.body.data, { visible: false });
  assert.is((await app.rest('POST', '/api/subscription/hall-visibility', { body: { visible: false } })).status, 401);
  assert.is(
    (await app.rest('POST', '/api/subscription/hall-visibility', { token: d.token, body: { visible: 'maybe' } }))
      .status,
    400,
  );

  // Hall, all time, D hidden: A 49.98 (2 orders), C 44.99 (since April), B 12.99.
  const hall = await app.rest('GET', '/api/subscription/hall');
  assert.equal(
    hall.body.data.data.map((entry: any) => [entry.rank, entry.user.username, entry.paidTotal, entry.orderCount]),
    [
      [1, a.username, 49.98, 2],
      [2, c.username, 44.99, 1],
      [3, b.username, 12.99, 1],
    ],
  );
  assert.equal(hall.body.data.pagination, { page: 1, pageSize: 20, total: 3, totalPages: 1 });
  assert.is(hall.body.data.data[1].since.slice(0, 10), '2027-04-20');
  assert.is(hall.body.data.data[0].user.id, a.id);
  assert.is(JSON.stringify(hall.body).includes('@'), false, 'no e-mail addresses in the hall');
  assert.equal(
    (await app.rest('GET', '/api/subscription/progress')).body.data.supporterCount,
    3,
    'opting out of the hall does not change the figures',
  );

  await app.trpc(d.token).subscription.setHallVisibility.mutate({ visible: true });
  const page2 = await app.rest('GET', '/api/subscription/hall?pageSize=2&page=2');
  assert.equal(
    page2.body.data.data.map((entry: any) => [entry.rank, entry.user.username, entry.paidTotal]),
    [
      [3, c.username, 44.99],
      [4, b.username, 12.99],
    ],
  );
  assert.equal(page2.body.data.pagination, { page: 2, pageSize: 2, total: 4, totalPages: 2 });
  const top = await app.trpc().subscription.hall.query({ pageSize: 1 });
  assert.equal([top.data[0]!.user.username, top.data[0]!.paidTotal], [d.username, 57.98]);

  // A new month starts from zero; the hall keeps everything.
  setClock(app, '2027-06-01T00:00:00.000Z');
  const june = (await app.rest('GET', '/api/subscription/progress')).body.data;
  assert.equal(
    [june.month, june.paidTotal, june.percent, june.supporterCount, june.remaining],
    ['2027-06', 0, 0, 0, 200],
  );
});

Figures.run();

// --- Demo data, OpenAPI and the CLI ---

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
