/**
 * The pending-order cap holds per call, as over REST, however the calls arrive: a tRPC batch
 * (httpBatchLink: its calls run side by side on the server), concurrent REST requests, or both at
 * once. Each test fires many calls together and asserts exact counts of the answers: only a limit
 * decided per call, before the work it guards, gives them. The other limits per call are in
 * limits-per-call.test.ts (private assembly passwords), limits-per-call-signin.test.ts and
 * limits-per-call-signup.test.ts.
 */
import { and, count, eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { subscriptionOrders } from '../../db/schema';
import { MAX_PENDING_ORDERS } from '../../server/domains/subscription/orders';
import { DEMO_SUBSCRIPTION_CATALOG } from '../../server/seed/subscription';
import type { TTestServer } from '../support/helpers';
import { batchClient, statusOf } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { tally } from '../support/server-suite';
import { limitsSuite, repeat } from './limits-fixtures';

const Orders = limitsSuite<{ tierId: string }>('pending-order cap, per call', {}, async (context) => {
  const admin = await signUpAdmin(context.app);
  const imported = await context.app.rest('POST', '/api/admin/subscription/import', {
    token: admin.token,
    body: DEMO_SUBSCRIPTION_CATALOG,
  });
  assert.is(imported.status, 200, imported.text);
  context.tierId = DEMO_SUBSCRIPTION_CATALOG.plans[0]!.tiers[0]!.tierId;
});

async function pendingOrders(app: TTestServer, userId: string): Promise<number> {
  const row = await app.database.db
    .select({ n: count() })
    .from(subscriptionOrders)
    .where(and(eq(subscriptionOrders.userId, userId), eq(subscriptionOrders.status, 'pending')))
    .get();
  return row?.n ?? 0;
}

function restOrder(app: TTestServer, token: string, tierId: string, key?: string) {
  return app
    .rest('POST', '/api/subscription/orders/create', {
      token,
      body: { tierId, payType: 'manual' },
      headers: key ? { 'idempotency-key': key } : {},
    })
    .then((response) => ({ status: response.status, orderId: response.body.data?.orderId as string | undefined }));
}

Orders(
  '20 createOrder calls in one tRPC batch leave exactly 5 pending orders; the other 15 answer 409',
  async ({ app, tierId }) => {
    assert.is(MAX_PENDING_ORDERS, 5);
    const buyer = await app.signUp();
    const { client, sent } = batchClient(app.url, { headers: { authorization: `Bearer ${buyer.token}` } });
    const statuses = await Promise.all(
      repeat(20, () => statusOf(client.subscription.createOrder.mutate({ tierId, payType: 'manual' }))),
    );
    assert.is(sent.requests, 1, 'one batch');
    assert.equal(tally(statuses), { 200: 5, 409: 15 });
    assert.is(await pendingOrders(app, buyer.id), 5);
  },
);

Orders(
  '20 concurrent REST requests, and a batch mixed with REST requests, hold the cap exactly',
  async ({ app, tierId }) => {
    const rest = await app.signUp();
    const answers = await Promise.all(repeat(20, () => restOrder(app, rest.token, tierId)));
    assert.equal(tally(answers.map((answer) => answer.status)), { 200: 5, 409: 15 });
    assert.is(await pendingOrders(app, rest.id), 5);

    const mixed = await app.signUp();
    const { client } = batchClient(app.url, { headers: { authorization: `Bearer ${mixed.token}` } });
    const statuses = await Promise.all([
      ...repeat(10, () => statusOf(client.subscription.createOrder.mutate({ tierId, payType: 'manual' }))),
      ...repeat(10, () => restOrder(app, mixed.token, tierId).then((answer) => answer.status)),
    ]);
    assert.equal(tally(statuses), { 200: 5, 409: 15 });
    assert.is(await pendingOrders(app, mixed.id), 5);
  },
);

Orders(
  'one Idempotency-Key in a batch and in concurrent requests makes one order; at the cap, its repeats still return it',
  async ({ app, tierId }) => {
    const buyer = await app.signUp();
    const key = `key-${buyer.id}`;
    // A batch shares its headers: every call carries the key.
    const { client } = batchClient(app.url, {
      headers: { authorization: `Bearer ${buyer.token}`, 'idempotency-key': key },
    });
    const answers = await Promise.all([
      ...repeat(10, () =>
        client.subscription.createOrder
          .mutate({ tierId, payType: 'manual' })
          .then((order) => ({ status: 200, orderId: order.orderId })),
      ),
      ...repeat(10, () => restOrder(app, buyer.token, tierId, key)),
    ]);
    assert.equal(tally(answers.map((answer) => answer.status)), { 200: 20 });
    assert.is(new Set(answers.map((answer) => answer.orderId)).size, 1, 'every call answered the same order');
    assert.is(await pendingOrders(app, buyer.id), 1);

    // Four more fill the cap; the key's order is among the five, and its repeats are replays, not 409s.
    const filled = await Promise.all(repeat(10, () => restOrder(app, buyer.token, tierId)));
    assert.equal(tally(filled.map((answer) => answer.status)), { 200: 4, 409: 6 });
    const again = await Promise.all([
      ...repeat(5, () =>
        client.subscription.createOrder.mutate({ tierId, payType: 'manual' }).then((order) => order.orderId),
      ),
      ...repeat(5, () => restOrder(app, buyer.token, tierId, key).then((answer) => answer.orderId)),
    ]);
    assert.equal(new Set(again), new Set([answers[0]!.orderId]));
    assert.is(await pendingOrders(app, buyer.id), 5);

    // At the cap, a new key's concurrent calls: one decision, a 409 for all of them, and nothing written.
    const { client: fresh } = batchClient(app.url, {
      headers: { authorization: `Bearer ${buyer.token}`, 'idempotency-key': `${key}-2` },
    });
    const refused = await Promise.all(
      repeat(10, () => statusOf(fresh.subscription.createOrder.mutate({ tierId, payType: 'manual' }))),
    );
    assert.equal(tally(refused), { 409: 10 });
    assert.is(await pendingOrders(app, buyer.id), 5);
  },
);

Orders.run();
