// The list's order and date ranges (issue 18): sortOrder=asc on every sort, sort=updated (the web
// client's sortField=updatedTime) following edits, and createdStart/End, updatedStart/End alone, together,
// with a keyword, a shipType and every sort, their errors, and their cap.
import { randomUUID } from 'node:crypto';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { assemblies } from '../../db/schema';
import { transaction } from '../../db/transaction';
import { invalidateAssembly } from '../../server/domains/assembly/item';
import { MAX_SEARCH_RESULTS } from '../../server/domains/assembly/schemas';
import { startTestServer, type TTestServer } from '../support/helpers';
import { HULK, importCommunitySample } from '../support/community-sample';
import { signUpAdmin } from '../support/sign-up';
import { DAY, HOUR, publish, type TUser } from './fixtures';

const Order = suite<{ app: TTestServer; owner: TUser; fans: TUser[] }>(
  'list: sortOrder=asc, sort=updated, date ranges',
);

Order.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.fans = [await context.app.signUp(), await context.app.signUp()];
});
Order.after(async ({ app }) => app.stop());

async function list(app: TTestServer, query: string) {
  const response = await app.rest('GET', `/api/assembly/list?${query}`);
  assert.is(response.status, 200, `${query}: ${response.text.slice(0, 300)}`);
  return response.body.data as { data: { name: string }[]; pagination: { total: number }; truncated: boolean };
}
const names = async (app: TTestServer, query: string) => (await list(app, query)).data.map((item) => item.name);
/** The UTC day of an instant, as a date. */
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

Order(
  'sortOrder=asc reverses every sort, with and without a keyword and a shipType, and pages',
  async ({ app, owner, fans }) => {
    await publish(app, owner.token, { ...HULK, name: 'Asc a', tags: ['ascword'] });
    app.clock.advance(HOUR);
    const b = await publish(app, owner.token, { ...HULK, shipId: 'bedar', name: 'Asc b', tags: ['ascword'] });
    app.clock.advance(HOUR);
    const c = await publish(app, owner.token, { ...HULK, name: 'Asc c', tags: ['ascword'] });
    await publish(app, owner.token, { ...HULK, shipId: 'brigantine', name: 'Asc d', tags: ['ascword'] });
    for (const fan of fans) await app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid: b.uuid } });
    await app.rest('POST', '/api/assembly/rate', { token: fans[0]!.token, body: { uuid: c.uuid, score: 5 } });
    app.clock.advance(HOUR);
    await app.trpc(owner.token).assembly.edit.mutate({ uuid: b.uuid, data: { description: 'edited' } });
    for (const sort of ['latest', 'hottest', 'rating', 'updated']) {
      for (const filter of ['', '&keyword=ascword', '&shipType=small', '&keyword=asc&shipType=small']) {
        const desc = await names(app, `sort=${sort}${filter}`);
        assert.ok(desc.length >= 3, `${sort}${filter}: ${desc}`);
        assert.equal(
          await names(app, `sort=${sort}&sortOrder=asc${filter}`),
          [...desc].reverse(),
          `${sort}${filter} asc`,
        );
        assert.equal(
          await names(app, `sort=${sort}&sortOrder=desc${filter}`),
          desc,
          `${sort}${filter} desc explicitly`,
        );
      }
    }
    assert.equal(await names(app, 'sort=latest&sortOrder=asc&pageSize=2&page=2'), ['Asc c', 'Asc d']);
    assert.equal(
      await names(app, 'sortField=likes&sortOrder=asc&pageSize=3&page=2'),
      ['Asc b'],
      'the client form: likes ascending, last page',
    );
    // tRPC takes the same form.
    assert.equal(
      (await app.trpc().assembly.list.query({ sort: 'hottest', sortOrder: 'asc' })).data
        .map((item) => item.name)
        .at(-1),
      'Asc b',
    );
    await app.database.db.delete(assemblies);
  },
);

Order(
  'sort=updated (sortField=updatedTime) is last edited first, follows edits, not likes or views, with exact totals',
  async ({ app, owner, fans }) => {
    const x = await publish(app, owner.token, { ...HULK, name: 'Upd x' });
    app.clock.advance(HOUR);
    const y = await publish(app, owner.token, { ...HULK, shipId: 'brigantine', name: 'Upd y' });
    app.clock.advance(HOUR);
    await publish(app, owner.token, { ...HULK, name: 'Upd z' });
    assert.equal(await names(app, 'sort=updated'), ['Upd z', 'Upd y', 'Upd x']);
    app.clock.advance(HOUR);
    const edited = await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid: x.uuid, data: { name: 'Upd x2' } },
    });
    assert.ok(edited.body.data.updatedTime > x.updatedTime, 'an edit moves updatedTime');
    assert.equal(await names(app, 'sortField=updatedTime&sortOrder=desc'), ['Upd x2', 'Upd z', 'Upd y']);
    assert.equal(await names(app, 'sortField=updatedTime&sortOrder=asc'), ['Upd y', 'Upd z', 'Upd x2']);
    // Likes and views do not.
    await app.rest('POST', '/api/assembly/like', { token: fans[0]!.token, body: { uuid: y.uuid } });
    await app.rest('GET', `/api/assembly/item?uuid=${y.uuid}`);
    await app.app.deps.views.flush(app.database.db);
    await app.app.deps.caches.list.invalidateAll();
    assert.equal(await names(app, 'sort=updated'), ['Upd x2', 'Upd z', 'Upd y']);
    assert.equal(await names(app, 'sort=updated&shipType=medium'), ['Upd y']);
    assert.equal(await names(app, 'sort=updated&keyword=upd'), ['Upd x2', 'Upd z', 'Upd y']);
    // Made private, then public again: an edit like any other; the total is the kept count.
    app.clock.advance(HOUR);
    await app.trpc(owner.token).assembly.edit.mutate({ uuid: y.uuid, data: { isPublic: false } });
    assert.equal((await list(app, 'sort=updated')).pagination.total, 2);
    await app.trpc(owner.token).assembly.edit.mutate({ uuid: y.uuid, data: { isPublic: true } });
    assert.equal(await names(app, 'sort=updated'), ['Upd y', 'Upd x2', 'Upd z']);
    assert.equal((await list(app, 'sort=updated')).pagination.total, 3);
    await app.database.db.delete(assemblies);
  },
);

Order(
  'date ranges: created and updated, each bound alone, together, with every sort, a keyword and a shipType',
  async ({ app, owner }) => {
    // p1 on day 0 (edited on day 5), p2 on day 2 (a brigantine), p3 on day 4.
    const p1 = await publish(app, owner.token, { ...HULK, name: 'Range p1', tags: ['rangeword'] });
    const t0 = Date.parse(p1.createdTime);
    app.clock.advance(2 * DAY);
    await publish(app, owner.token, { ...HULK, shipId: 'brigantine', name: 'Range p2', tags: ['rangeword'] });
    app.clock.advance(2 * DAY);
    await publish(app, owner.token, { ...HULK, name: 'Range p3' });
    app.clock.advance(DAY);
    await app.trpc(owner.token).assembly.edit.mutate({ uuid: p1.uuid, data: { description: 'day 5' } });
    const d = (n: number) => day(t0 + n * DAY);
    assert.equal(await names(app, `createdStart=${d(1)}`), ['Range p3', 'Range p2']);
    assert.equal(await names(app, `createdEnd=${d(2)}`), ['Range p2', 'Range p1'], 'a date End covers its whole day');
    assert.equal(await names(app, `createdStart=${d(2)}&createdEnd=${d(2)}`), ['Range p2']);
    assert.equal(await names(app, `createdStart=${d(1)}&createdEnd=${d(3)}&sortOrder=asc`), ['Range p2']);
    assert.equal(await names(app, `createdStart=${d(0)}&sortOrder=asc`), ['Range p1', 'Range p2', 'Range p3']);
    // The client's pickers: the local midnights of the chosen days as instants (here UTC+08:00, a day earlier in UTC).
    const midnight = (n: number) => new Date(Date.parse(`${d(n)}T00:00:00+08:00`)).toISOString();
    const created = [
      ['Range p3', t0 + 4 * DAY],
      ['Range p2', t0 + 2 * DAY],
      ['Range p1', t0],
    ] as const;
    const within = (start: string, end: string) =>
      created.filter(([, at]) => Date.parse(start) <= at && at < Date.parse(end) + DAY).map(([name]) => name);
    for (const [start, end] of [
      [2, 2],
      [1, 3],
      [0, 1],
      [3, 5],
    ]) {
      assert.equal(
        await names(app, `createdStart=${midnight(start!)}&createdEnd=${midnight(end!)}`),
        within(midnight(start!), midnight(end!)),
        `days ${start} to ${end}`,
      );
    }
    assert.equal(
      await names(app, 'createdStart=null&createdEnd=null'),
      ['Range p3', 'Range p2', 'Range p1'],
      "the client's 'null' is absent",
    );
    // updated: p1 is the only one edited on day 5; on another field than the sort, ranked among the candidates.
    assert.equal(await names(app, `updatedStart=${d(5)}`), ['Range p1']);
    assert.equal(await names(app, `updatedStart=${d(3)}&sort=updated`), ['Range p1', 'Range p3']);
    assert.equal(await names(app, `updatedStart=${d(3)}&sort=updated&sortOrder=asc`), ['Range p3', 'Range p1']);
    assert.equal(await names(app, `updatedEnd=${d(4)}&sort=latest`), ['Range p3', 'Range p2']);
    assert.equal(await names(app, `createdStart=${d(3)}&sort=updated`), ['Range p3']);
    assert.equal(
      await names(app, `createdStart=${d(0)}&sort=hottest&sortOrder=asc`),
      (await names(app, 'sort=hottest')).reverse(),
    );
    assert.equal(await names(app, `createdEnd=${d(2)}&sort=rating`), ['Range p2', 'Range p1']);
    // Both ranges: created by day 2 and updated from day 5.
    const both = await list(app, `createdEnd=${d(2)}&updatedStart=${d(5)}`);
    assert.equal([both.data.map((item) => item.name), both.pagination.total, both.truncated], [['Range p1'], 1, false]);
    // With a keyword (the candidates are its matches) and a shipType (the ship_id-led indexes).
    assert.equal(await names(app, `keyword=rangeword&createdStart=${d(1)}`), ['Range p2']);
    assert.equal(await names(app, `keyword=range&updatedStart=${d(5)}&sortField=likes`), ['Range p1']);
    assert.equal(await names(app, `shipType=medium&createdEnd=${d(3)}`), ['Range p2']);
    assert.equal(await names(app, `shipType=tank&createdStart=${d(0)}&sortOrder=asc`), ['Range p1', 'Range p3']);
    assert.equal(await names(app, `shipType=tank&updatedStart=${d(5)}&sort=updated`), ['Range p1']);
    assert.equal(await names(app, `shipType=large&createdStart=${d(0)}`), [], 'a class without hulls');
    assert.equal(await names(app, `createdStart=${d(9)}`), [], 'an empty range');
    // tRPC takes the same form.
    assert.equal(
      (await app.trpc().assembly.list.query({ createdStart: d(1), createdEnd: d(3) })).data.map((item) => item.name),
      ['Range p2'],
    );
    await app.database.db.delete(assemblies);
  },
);

Order(
  'a date range that cannot be read, or whose start is after its end, is a 400 naming the field',
  async ({ app }) => {
    for (const [query, field, pattern] of [
      ['createdStart=yesterday', 'createdStart', /createdStart: must be a date \(YYYY-MM-DD\) or an ISO 8601 instant/],
      ['createdEnd=2024-13-45', 'createdEnd', /createdEnd: must be a date/],
      ['updatedStart=2024-03-01T00:00:00', 'updatedStart', /updatedStart: must be a date/],
      ['updatedEnd=1709251200000', 'updatedEnd', /updatedEnd: must be a date/],
      ['createdStart=2024-03-02&createdEnd=2024-03-01', 'createdStart', /createdStart: must not be after createdEnd/],
      [
        'updatedStart=2024-03-01T00:00:01Z&updatedEnd=2024-03-01T00:00:00Z',
        'updatedStart',
        /updatedStart: must not be after updatedEnd/,
      ],
      ['sortOrder=up', 'sortOrder', /sortOrder: must be desc or asc/],
      ['sortField=views', 'sortField', /sortField: must be createdTime, likes, rating, updatedTime/],
      ['sortField=updatedTime&sort=latest', 'sortField', /sortField: disagrees with sort=latest/],
    ] as const) {
      const response = await app.rest('GET', `/api/assembly/list?${query}`);
      assert.is(response.status, 400, query);
      assert.equal(response.body.data.issues[0].path, field, query);
      assert.match(response.body.message, pattern);
    }
    assert.is(
      (await app.rest('GET', '/api/assembly/list?createdStart=2024-03-01&createdEnd=2024-03-01')).status,
      200,
      'one day',
    );
    // Documented in the OpenAPI document.
    const operation = JSON.stringify(
      ((await app.rest('GET', '/api/openapi.json')).body as unknown as { paths: Record<string, unknown> }).paths[
        '/assembly/list'
      ],
    );
    for (const text of [
      'Only assemblies whose createdTime is in the range',
      'Only assemblies whose updatedTime is in the range',
      'asc (the same order reversed)',
      'updatedTime (sort=updated)',
      'an assembly with a password is private',
    ]) {
      assert.ok(operation.includes(text), text);
    }
  },
);

Order(
  `a range pages through at most ${MAX_SEARCH_RESULTS} matches: the first in its order on the sorted field, the newest otherwise`,
  async ({ app, owner }) => {
    await app.database.db.delete(assemblies);
    const total = MAX_SEARCH_RESULTS + 50;
    const base = app.clock.now().getTime() - total * 1000;
    const row = (i: number) => ({
      uuid: randomUUID(),
      creatorId: owner.id,
      name: `Ranged ${i}`,
      shipId: i < 2 ? 'brigantine' : 'hulk',
      weapons: '[]',
      furnitures: '[]',
      tags: '[]',
      isPublic: true,
      likes: i === 0 ? 1_000_000 : i === 600 ? 500 : 0,
      createdAt: new Date(base + i * 1000),
      updatedAt: new Date(base + i * 1000),
    });
    await transaction(app.database.db, async (tx) => {
      for (let start = 0; start < total; start += 100)
        await tx
          .insert(assemblies)
          .values(Array.from({ length: Math.min(100, total - start) }, (_, k) => row(start + k)));
    });
    await invalidateAssembly(app.app.deps, {});
    const from = new Date(base - DAY).toISOString();
    const newest = await list(app, `createdStart=${from}&pageSize=100`);
    assert.equal(
      [newest.pagination.total, newest.truncated, newest.data[0]!.name],
      [MAX_SEARCH_RESULTS, true, `Ranged ${total - 1}`],
    );
    const oldest = await list(app, `createdStart=${from}&pageSize=100&sortOrder=asc&page=10`);
    assert.equal(
      [oldest.data[0]!.name, oldest.data.at(-1)!.name, oldest.truncated],
      ['Ranged 900', `Ranged ${MAX_SEARCH_RESULTS - 1}`, true],
      'asc: the oldest 1,000',
    );
    assert.equal((await list(app, `createdStart=${from}&pageSize=100&page=11`)).data, [], 'past the cap: empty');
    // On another field than the sort: the newest 1,000 in the range, ranked (Ranged 0 is not among them).
    const hottest = await list(app, `createdStart=${from}&sort=hottest&pageSize=5`);
    assert.equal(
      [hottest.data[0]!.name, hottest.pagination.total, hottest.truncated],
      ['Ranged 600', MAX_SEARCH_RESULTS, true],
    );
    // A shipType walks its hulls' own indexes: the 2 oldest brigantines are found past 1,000 newer hulks.
    const medium = await list(app, `createdStart=${from}&shipType=medium&updatedStart=${from}`);
    assert.equal([medium.data.map((item) => item.name), medium.truncated], [['Ranged 1', 'Ranged 0'], false]);
    await app.database.db.delete(assemblies);
  },
);

Order.run();
