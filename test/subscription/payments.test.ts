// Paying sponsorship orders: admin confirmation and the signed payment webhook each extend the membership
// once, and memberships extend from max(now, expiry) by calendar months.
import { count, eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { subscriptionMemberships, subscriptionOrders } from '../../db/schema';
import { addCalendarMonths } from '../../server/domains/subscription/money';
import { MANUAL_DEV_SECRET, signManualWebhook } from '../../server/domains/subscription/payment/manual';
import { trpcError } from '../support/http-clients';
import { serverSuite } from '../support/server-suite';
import {
  createOrder,
  importCatalog,
  makeAdmin,
  ordersSuite,
  paidOrder,
  postWebhook,
  setClock,
  signIn,
} from './fixtures';

const Payments = ordersSuite('orders: confirm, webhook');

Payments('admin confirmation twice extends the membership exactly once', async ({ app, admin }) => {
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

Payments('webhook: a signed payment confirms once; bad signatures are 401; mismatches are 409', async ({ app }) => {
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

Payments.run();

// --- Membership arithmetic over the API ---

const Membership = serverSuite('membership: extends from max(now, expiry) by calendar months');

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
