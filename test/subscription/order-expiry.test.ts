// Sponsorship orders that end unpaid: cancelling (owner only, pending only), the 30-minute payment window,
// and the sweep of overdue orders (the server job and the admin route).
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { subscriptionMemberships, subscriptionOrders } from '../../db/schema';
import { JOBS } from '../../server/jobs';
import { trpcError } from '../support/http-clients';
import { createOrder, makeAdmin, ordersSuite, postWebhook } from './fixtures';

const Closing = ordersSuite('orders: cancel, expire');

Closing('the server job expires overdue orders from the service clock', async ({ app }) => {
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

Closing('cancel: owner only (404 for others), pending only (409 otherwise)', async ({ app, alice, bob }) => {
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

Closing(
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

Closing.run();
