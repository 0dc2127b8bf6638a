// Sponsorship orders over the routes, on both surfaces: creating one, bad input and access rules, the
// Idempotency-Key header (replays, conflicts, races), the cap of 5 pending orders and the my-orders list.
// Cancelling and expiry: order-expiry.test.ts; paying (admin confirmation, webhook): payments.test.ts.
import { and, count, eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { subscriptionOrders } from '../../db/schema';
import { trpcError } from '../support/http-clients';
import { clientWithKey, createOrder, makeAdmin, ordersSuite } from './fixtures';

const Orders = ordersSuite('orders: create, idempotency, pending cap, my-orders');

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
