// The list without a keyword (issue 16): the index-backed sorts (hottest's stored key, rating's ties), with
// and without a shipType, and totals that stay exact through every change of what is listable.
import { eq, sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { assemblies } from '../../db/schema';
import { HOT_DECAY_MS } from '../../db/schema/assembly';
import type { TTestServer } from '../support/helpers';
import { HULK } from '../support/community-sample';
import { catalogSuite, DAY, HOUR, list, names, publish, type TUser } from './fixtures';

const Sorts = catalogSuite('list without a keyword: index-backed sorts, exact totals', async (app) => ({
  owner: await app.signUp(),
  fans: [await app.signUp(), await app.signUp()],
}));

async function storedCount(app: TTestServer, shipIds?: string[]): Promise<number> {
  const filter = shipIds ? sql` and ship_id in (select value from json_each(${JSON.stringify(shipIds)}))` : sql``;
  return Number(
    (await app.database.db.get<{ n: number }>(
      sql`select count(*) as n from assemblies where deleted_at is null and is_public = 1${filter}`,
    ))!.n,
  );
}

Sorts(
  'hottest is log10(2 x likes + views / 10 + 1), rounded to 0.01, + age in units of 12 hours, hand-computed, and follows likes and views',
  async ({ app, owner, fans }) => {
    const old = await publish(app, owner.token, { ...HULK, name: 'Hot old' });
    app.clock.advance(2 * HOUR);
    const fresh = await publish(app, owner.token, { ...HULK, name: 'Hot new' });
    const liked = await publish(app, owner.token, { ...HULK, shipId: 'bedar', name: 'Hot liked' });
    for (const fan of fans)
      await app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid: old.uuid } });
    await app.trpc(fans[0]!.token).assembly.like.mutate({ uuid: liked.uuid });
    // old: log10(2x2 + 1) = 0.70, - 2/12 = 0.533; liked: log10(2 + 1) = 0.48; new: log10(1) = 0
    const hottest = await list(app, 'sort=hottest');
    assert.equal(names(hottest.data), ['Hot old', 'Hot liked', 'Hot new']);
    const stored = await app.database.db
      .select({ hotRank: assemblies.hotRank, createdAt: assemblies.createdAt })
      .from(assemblies)
      .where(eq(assemblies.uuid, old.uuid))
      .get();
    const expected = Math.round(Math.log10(5) * 100) / 100 + stored!.createdAt.getTime() / HOT_DECAY_MS;
    assert.ok(
      Math.abs(stored!.hotRank - expected) < 1e-9,
      `the stored key is the documented formula: ${stored!.hotRank} against ${expected}`,
    );
    // The order does not change with time alone: that is what lets an index serve it.
    app.clock.advance(10 * HOUR + 31_000);
    assert.equal(names((await list(app, 'sort=hottest')).data), ['Hot old', 'Hot liked', 'Hot new']);
    // 21 views lift new to log10(2.1 + 1) = 0.49, above liked (0.48); views are written by the flush.
    for (let i = 0; i < 21; i++) await app.rest('GET', `/api/assembly/item?uuid=${fresh.uuid}`);
    await app.app.deps.views.flush(app.database.db);
    app.clock.advance(31_000); // views do not invalidate cached pages
    assert.equal(names((await list(app, 'sort=hottest')).data), ['Hot old', 'Hot new', 'Hot liked']);
    // Taking a like back lowers it again: liked 0, new 0.49, old log10(2 + 1) - 2/12 = 0.313.
    await app.rest('POST', '/api/assembly/like', { token: fans[0]!.token, body: { uuid: liked.uuid, like: false } });
    for (const fan of fans)
      await app.rest('POST', '/api/assembly/like', {
        token: fan.token,
        body: { uuid: old.uuid, like: fan === fans[0] },
      });
    assert.equal(names((await list(app, 'sort=hottest')).data), ['Hot new', 'Hot old', 'Hot liked']);
    // shipType: the hulk ones only (small = bedar and hulk, tank = hulk), merged from both hulls' indexes in order.
    assert.equal(names((await list(app, 'sort=hottest&shipType=tank')).data), ['Hot new', 'Hot old']);
    assert.equal(names((await list(app, 'sort=hottest&shipType=small')).data), ['Hot new', 'Hot old', 'Hot liked']);
    assert.equal(names((await list(app, 'sort=hottest&shipType=dps')).data), ['Hot liked']);
    await app.database.db.delete(assemblies);
  },
);

Sorts(
  'rating follows every rating and breaks ties by count, then newest first; so does a shipType',
  async ({ app, owner, fans }) => {
    const a = await publish(app, owner.token, { ...HULK, name: 'Rated a' });
    const b = await publish(app, owner.token, { ...HULK, shipId: 'bedar', name: 'Rated b' });
    await publish(app, owner.token, { ...HULK, name: 'Rated c' });
    await publish(app, owner.token, { ...HULK, shipId: 'bedar', name: 'Rated d' });
    assert.equal(
      names((await list(app, 'sort=rating')).data),
      ['Rated d', 'Rated c', 'Rated b', 'Rated a'],
      'all at 3: newest first',
    );
    const rate = (fan: TUser, uuid: string, score: number) =>
      app.rest('POST', '/api/assembly/rate', { token: fan.token, body: { uuid, score } });
    await rate(fans[0]!, a.uuid, 4); // 19/6 = 3.17
    await rate(fans[0]!, b.uuid, 5);
    await rate(fans[1]!, b.uuid, 1); // 21/7 = 3.00, two ratings: above the unrated 3.00
    assert.equal(names((await list(app, 'sort=rating')).data), ['Rated a', 'Rated b', 'Rated d', 'Rated c']);
    assert.equal(names((await list(app, 'sort=rating&shipType=small&pageSize=2')).data), ['Rated a', 'Rated b']);
    assert.equal(names((await list(app, 'sort=rating&shipType=small&pageSize=2&page=2')).data), ['Rated d', 'Rated c']);
    await rate(fans[1]!, b.uuid, 5); // re-rated: 25/7 = 3.57
    assert.equal(names((await list(app, 'sort=rating')).data), ['Rated b', 'Rated a', 'Rated d', 'Rated c']);
    assert.equal(names((await list(app, 'sort=rating&shipType=tank')).data), ['Rated a', 'Rated c']);
    assert.equal(names((await list(app, 'sort=latest&shipType=small&pageSize=3')).data), [
      'Rated d',
      'Rated c',
      'Rated b',
    ]);
    await app.database.db.delete(assemblies);
  },
);

Sorts(
  'totals stay exact through publish, private, trash, restore, a change of hull and deletion',
  async ({ app, owner }) => {
    const check = async (label: string) => {
      for (const [query, hulls] of [
        ['', undefined],
        ['&shipType=small', ['bedar', 'hulk']],
        ['&shipType=medium', ['brigantine']],
        ['&shipType=large', []],
      ] as const) {
        const data = await list(app, `sort=hottest${query}`);
        assert.is(data.pagination.total, await storedCount(app, hulls ? [...hulls] : undefined), `${label}${query}`);
        assert.is(data.data.length, Math.min(20, data.pagination.total), `${label}${query}: items`);
      }
    };
    const shown = await publish(app, owner.token, { ...HULK, name: 'Counted shown' });
    const hidden = await publish(app, owner.token, { ...HULK, name: 'Counted hidden', isPublic: false });
    const binned = await publish(app, owner.token, { ...HULK, shipId: 'bedar', name: 'Counted binned' });
    await publish(app, owner.token, { ...HULK, shipId: 'brigantine', name: 'Counted brigantine' });
    await check('published');
    assert.is((await list(app, 'sort=latest')).pagination.total, 3);
    await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: binned.uuid } });
    await app.trpc(owner.token).assembly.edit.mutate({ uuid: hidden.uuid, data: { isPublic: true } });
    await check('trashed one, made one public');
    await app.rest('POST', '/api/assembly/restore', { token: owner.token, body: { uuid: binned.uuid } });
    await app.trpc(owner.token).assembly.edit.mutate({ uuid: shown.uuid, data: { isPublic: false } });
    await check('restored one, made one private');
    await app.trpc(owner.token).assembly.edit.mutate({ uuid: hidden.uuid, data: { shipId: 'brigantine' } });
    await check('moved to another hull');
    assert.is((await list(app, 'shipType=medium')).pagination.total, 2);
    await app.database.db.delete(assemblies).where(eq(assemblies.uuid, hidden.uuid));
    await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: binned.uuid } });
    app.clock.advance(30 * DAY + 1000);
    await app.database.db.run(sql`delete from assemblies where deleted_at is not null`);
    await app.app.deps.caches.list.invalidateAll();
    await check('deleted and purged');
    assert.is((await list(app, '')).pagination.total, 1);
  },
);

Sorts.run();
