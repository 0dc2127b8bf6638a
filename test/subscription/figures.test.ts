// Sponsorship figures: this month's progress towards the goal and the all-time hall of supporters, with
// the hall-visibility opt-out.
import * as assert from 'uvu/assert';
import { serverSuite } from '../support/server-suite';
import { createOrder, importCatalog, makeAdmin, paidOrder, setClock } from './fixtures';

const Figures = serverSuite('progress and hall figures');

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
