// Subscription service logic called in process (no HTTP): the order state machine, the pending-order
// cap, the lazy expiry of unpaid orders, membership month arithmetic, progress and the hall.
// The other files of test/subscription/ cover the routes on both surfaces (status codes, the
// Idempotency-Key header, webhook signatures, the envelope, access rules).
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { MAX_PENDING_ORDERS, PAY_WINDOW_MS } from '../../server/domains/subscription/orders';
import { DEMO_SUBSCRIPTION_CATALOG } from '../../server/seed/subscription';
import { errorCodeOf, startInProcess, type TCaller, type TInProcessApp } from '../support/caller';

interface TCtx {
  app: TInProcessApp;
  admin: TCaller;
}

/** Moves the service clock to an exact instant. */
function setClock(app: TInProcessApp, iso: string): void {
  app.clock.offsetMs = Date.parse(iso) - Date.now();
}

const Orders = suite<TCtx>('subscription services (in process)');

Orders.before(async (context) => {
  context.app = await startInProcess();
  context.admin = (await context.app.signUp({ role: 'admin' })).caller;
  assert.equal(await context.admin.admin.subscription.import(DEMO_SUBSCRIPTION_CATALOG), {
    plans: 1,
    tiers: 3,
    payTypes: 1,
    goal: true,
  });
});

Orders.after.each(({ app }) => {
  app.clock.offsetMs = 0;
});

Orders.after(({ app }) => app.close());

Orders(
  'an order moves pending → cancelled once; a cancelled order can be neither cancelled nor paid',
  async ({ app, admin }) => {
    const { caller } = await app.signUp();
    const order = await caller.subscription.createOrder({ tierId: 'deckhand-1m', payType: 'manual' });
    assert.is(order.status, 'pending');
    assert.is(order.amount, 4.99);
    assert.is(Date.parse(order.payDeadline) - Date.parse(order.createdAt), PAY_WINDOW_MS);
    assert.ok(order.paymentUrl, 'a pending order can be paid');
    const cancelled = await caller.subscription.cancelOrder({ orderId: order.orderId });
    assert.is(cancelled.status, 'cancelled');
    assert.is(cancelled.paymentUrl, null);
    assert.ok(cancelled.closedAt);
    assert.is(await errorCodeOf(caller.subscription.cancelOrder({ orderId: order.orderId })), 'CONFLICT');
    assert.is(await errorCodeOf(admin.admin.subscription.confirmOrder({ orderId: order.orderId })), 'CONFLICT');
  },
);

Orders("someone else's order is not found, for cancelling as for anything else", async ({ app }) => {
  const owner = await app.signUp();
  const stranger = await app.signUp();
  const order = await owner.caller.subscription.createOrder({ tierId: 'deckhand-1m', payType: 'manual' });
  assert.is(await errorCodeOf(stranger.caller.subscription.cancelOrder({ orderId: order.orderId })), 'NOT_FOUND');
  assert.is((await stranger.caller.subscription.myOrders()).pagination.total, 0);
});

Orders('a paid order is confirmed once: a repeat changes nothing and says alreadyPaid', async ({ app, admin }) => {
  const { caller } = await app.signUp();
  const order = await caller.subscription.createOrder({ tierId: 'quartermaster-3m', payType: 'manual' });
  const first = await admin.admin.subscription.confirmOrder({ orderId: order.orderId });
  assert.is(first.alreadyPaid, false);
  assert.is(first.order.status, 'paid');
  const again = await admin.admin.subscription.confirmOrder({ orderId: order.orderId });
  assert.is(again.alreadyPaid, true);
  assert.is(again.membershipExpiry, first.membershipExpiry);
  assert.is(await errorCodeOf(caller.subscription.cancelOrder({ orderId: order.orderId })), 'CONFLICT');
  assert.equal(await caller.subscription.myStatus(), { 'quartermaster-3m': { expiryTime: first.membershipExpiry! } });
});

Orders('at most MAX_PENDING_ORDERS unexpired pending orders; cancelling or expiry makes room', async ({ app }) => {
  const { caller } = await app.signUp();
  const orders = [];
  for (let index = 0; index < MAX_PENDING_ORDERS; index++)
    orders.push(await caller.subscription.createOrder({ tierId: 'deckhand-1m', payType: 'manual' }));
  assert.is(
    await errorCodeOf(caller.subscription.createOrder({ tierId: 'deckhand-1m', payType: 'manual' })),
    'CONFLICT',
  );
  await caller.subscription.cancelOrder({ orderId: orders[0]!.orderId });
  await caller.subscription.createOrder({ tierId: 'deckhand-1m', payType: 'manual' });
  assert.is(
    await errorCodeOf(caller.subscription.createOrder({ tierId: 'deckhand-1m', payType: 'manual' })),
    'CONFLICT',
  );
  app.clock.advance(PAY_WINDOW_MS);
  // Past the deadline every pending order counts as expired, before any sweep has run.
  const fresh = await caller.subscription.createOrder({ tierId: 'deckhand-1m', payType: 'manual' });
  assert.is(fresh.status, 'pending');
});

Orders(
  'an unpaid order expires at its deadline: shown expired, closed at the deadline, no longer payable',
  async ({ app, admin }) => {
    const { caller } = await app.signUp();
    const order = await caller.subscription.createOrder({ tierId: 'deckhand-1m', payType: 'manual' });
    app.clock.advance(PAY_WINDOW_MS - 5000);
    assert.is((await caller.subscription.myOrders()).data[0]!.status, 'pending');
    app.clock.advance(5000);
    const [shown] = (await caller.subscription.myOrders()).data;
    assert.is(shown!.status, 'expired');
    assert.is(shown!.closedAt, order.payDeadline);
    assert.is(shown!.paymentUrl, null);
    assert.is(await errorCodeOf(caller.subscription.cancelOrder({ orderId: order.orderId })), 'CONFLICT');
    assert.is(await errorCodeOf(admin.admin.subscription.confirmOrder({ orderId: order.orderId })), 'CONFLICT');
    assert.ok(
      (await admin.admin.subscription.expireOrders()).expired >= 1,
      'the sweep writes what reads already showed',
    );
    assert.is((await admin.admin.subscription.getOrder({ orderId: order.orderId })).closedAt, order.payDeadline);
  },
);

Orders(
  'own orders list the payable ones first, nearest deadline first, then the rest newest first',
  async ({ app, admin }) => {
    const { caller } = await app.signUp();
    const paid = await caller.subscription.createOrder({ tierId: 'deckhand-1m', payType: 'manual' });
    await admin.admin.subscription.confirmOrder({ orderId: paid.orderId });
    app.clock.advance(1000);
    const early = await caller.subscription.createOrder({ tierId: 'deckhand-1m', payType: 'manual' });
    app.clock.advance(1000);
    const late = await caller.subscription.createOrder({ tierId: 'captain-12m', payType: 'manual' });
    app.clock.advance(1000);
    const cancelled = await caller.subscription.createOrder({ tierId: 'deckhand-1m', payType: 'manual' });
    await caller.subscription.cancelOrder({ orderId: cancelled.orderId });
    const listed = await caller.subscription.myOrders({ page: 1, pageSize: 20 });
    assert.equal(
      listed.data.map((order) => order.orderId),
      [early.orderId, late.orderId, cancelled.orderId, paid.orderId],
    );
    assert.is(listed.pagination.total, 4);
  },
);

Orders(
  'membership months: a month from Jan 31 ends on the last day of February, and a renewal extends from the expiry',
  async ({ app, admin }) => {
    const { caller } = await app.signUp();
    const buyAndPay = async (tierId: string) => {
      const order = await caller.subscription.createOrder({ tierId, payType: 'manual' });
      // The test clock keeps ticking from where it is set: compare to the second.
      return (await admin.admin.subscription.confirmOrder({ orderId: order.orderId })).membershipExpiry?.slice(0, 19);
    };
    setClock(app, '2025-01-31T12:00:00.000Z');
    assert.is(await buyAndPay('deckhand-1m'), '2025-02-28T12:00:00');
    assert.is(await buyAndPay('deckhand-1m'), '2025-03-28T12:00:00', 'renewed while active: from the current expiry');
    // Tiers are kept apart: a quartermaster membership starts from now.
    assert.is(await buyAndPay('quartermaster-3m'), '2025-04-30T12:00:00');
    setClock(app, '2025-06-15T08:30:00.000Z');
    assert.is(await buyAndPay('deckhand-1m'), '2025-07-15T08:30:00', 'lapsed: from now');
    setClock(app, '2028-01-31T00:00:00.000Z');
    assert.is(await buyAndPay('captain-12m'), '2029-01-31T00:00:00');
    assert.is(await buyAndPay('deckhand-1m'), '2028-02-29T00:00:00', 'a leap year');
    assert.equal(Object.keys(await caller.subscription.myStatus()), ['captain-12m', 'deckhand-1m', 'quartermaster-3m']);
  },
);

Orders(
  "progress counts this UTC month's payments in the goal's currency; the hall leaves out who opted out",
  async ({ app, admin }) => {
    setClock(app, '2031-03-10T10:00:00.000Z');
    const before = await app.anonymous.subscription.progress();
    assert.is(before.month, '2031-03');
    assert.is(before.goal, 200);
    const shy = await app.signUp();
    const proud = await app.signUp();
    for (const [user, tierId] of [
      [shy, 'captain-12m'],
      [proud, 'quartermaster-3m'],
    ] as const) {
      const order = await user.caller.subscription.createOrder({ tierId, payType: 'manual' });
      await admin.admin.subscription.confirmOrder({ orderId: order.orderId });
    }
    const after = await app.anonymous.subscription.progress();
    assert.is(Math.round((after.paidTotal - before.paidTotal) * 100), 4499 + 1299);
    assert.is(after.supporterCount - before.supporterCount, 2);
    assert.is(after.remaining, Math.max(0, Math.round((200 - after.paidTotal) * 100) / 100));
    setClock(app, '2031-04-01T00:00:00.000Z');
    assert.is((await app.anonymous.subscription.progress()).paidTotal, 0, 'a new month starts from zero');

    const names = async () =>
      (await app.anonymous.subscription.hall({ page: 1, pageSize: 100 })).data.map((entry) => entry.user.username);
    assert.ok((await names()).includes(shy.username));
    assert.equal(await shy.caller.subscription.setHallVisibility({ visible: false }), { visible: false });
    assert.equal(await shy.caller.subscription.getHallVisibility(), { visible: false });
    assert.not.ok((await names()).includes(shy.username));
    assert.ok((await names()).includes(proud.username));
  },
);

Orders.run();
