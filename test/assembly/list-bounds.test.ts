import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { openDatabase, type TDb } from '../../db/client';
import { assemblies } from '../../db/schema';
import { HOT_DECAY_MS } from '../../db/schema/assembly';
import { MAX_LIST_WINDOW, MAX_SEARCH_RESULTS } from '../../server/domains/assembly/schemas';
import { inRangesQuery, rangeIdsQuery } from '../../server/domains/assembly/range-queries';
import { pageIdsQuery } from '../../server/domains/assembly/list-queries';
import type { TListSort } from '../../server/domains/assembly/schemas';
import { rankAmongQuery } from '../../server/domains/assembly/search';
import {
  HULK,
  importCommunitySample,
  signUpAdmin,
  startTestServer,
  TEST_DRIVER,
  trpcError,
  type TTestServer,
} from '../support/helpers';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

async function publish(app: TTestServer, token: string, body: Record<string, unknown>): Promise<{ uuid: string }> {
  const response = await app.rest('POST', '/api/assembly/publish', { token, body });
  assert.is(response.status, 200, response.text);
  return response.body.data;
}

const names = (items: { name: string }[]) => items.map((item) => item.name);

// ---------------------------------------------------------------------------------------------
const Window = suite<{ app: TTestServer; owner: TUser }>('list: the reachable window (page × pageSize)');

Window.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  for (let i = 0; i < 3; i++)
    await publish(context.app, context.owner.token, { ...HULK, name: `Window ${i}`, tags: ['windowed'] });
});
Window.after(async ({ app }) => app.stop());

const LIMIT_MESSAGE = new RegExp(`page × pageSize must be at most ${MAX_LIST_WINDOW}`);

Window(
  `up to page × pageSize = ${MAX_LIST_WINDOW} answers; beyond it is a 400 naming the limit, on REST`,
  async ({ app }) => {
    const deepest = await app.rest('GET', `/api/assembly/list?pageSize=100&page=${MAX_LIST_WINDOW / 100}&sort=hottest`);
    assert.is(deepest.status, 200, deepest.text);
    assert.equal(deepest.body.data.data, [], 'an empty page within the window, as before');
    assert.equal(deepest.body.data.pagination, { page: MAX_LIST_WINDOW / 100, pageSize: 100, total: 3, totalPages: 1 });
    for (const query of [
      `pageSize=100&page=${MAX_LIST_WINDOW / 100 + 1}`,
      'page=500001&sort=hottest', // the request of issue 16
      `pageSize=20&page=${MAX_LIST_WINDOW / 20 + 1}&sort=rating&shipType=small`,
      `pageSize=1&page=${MAX_LIST_WINDOW + 1}&keyword=windowed`,
    ]) {
      const response = await app.rest('GET', `/api/assembly/list?${query}`);
      assert.is(response.status, 400, `${query}: ${response.text}`);
      assert.equal([response.body.code, response.body.data.issues[0].path], [400, 'page']);
      assert.match(response.body.message, LIMIT_MESSAGE);
      assert.match(response.body.message, /^Invalid input: page: /);
    }
    // The limit is in the OpenAPI document, on the page parameter and in the operation's description.
    const operation = JSON.stringify(
      ((await app.rest('GET', '/api/openapi.json')).body as unknown as { paths: Record<string, unknown> }).paths[
        '/assembly/list'
      ],
    );
    assert.match(operation, new RegExp(`page × pageSize must be at most ${MAX_LIST_WINDOW}`));
    assert.match(operation, new RegExp(`first ${MAX_LIST_WINDOW} results: page × pageSize above that is a 400`));
  },
);

Window('the same 400 natively through tRPC', async ({ app }) => {
  const within = await app.trpc().assembly.list.query({ page: MAX_LIST_WINDOW / 50, pageSize: 50, sort: 'rating' });
  assert.is(within.pagination.total, 3);
  const rest = await app.rest('GET', `/api/assembly/list?pageSize=50&page=${MAX_LIST_WINDOW / 50 + 1}&sort=rating`);
  const failure = await trpcError(
    app.trpc().assembly.list.query({ page: MAX_LIST_WINDOW / 50 + 1, pageSize: 50, sort: 'rating' }),
  );
  assert.is(failure.status, 400);
  assert.is(failure.message, rest.body.message, 'the same message on both surfaces');
  assert.equal(failure.data.issues, rest.body.data.issues);
});

Window.run();

// ---------------------------------------------------------------------------------------------
const Sorts = suite<{ app: TTestServer; owner: TUser; fans: TUser[] }>(
  'list without a keyword: index-backed sorts, exact totals',
);

Sorts.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.fans = [await context.app.signUp(), await context.app.signUp()];
});
Sorts.after(async ({ app }) => app.stop());

async function list(app: TTestServer, query: string) {
  const response = await app.rest('GET', `/api/assembly/list?${query}`);
  assert.is(response.status, 200, response.text);
  return response.body.data;
}

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

// ---------------------------------------------------------------------------------------------
const Search = suite<{ app: TTestServer; owner: TUser }>(
  'keyword search with a shipType: the class filters inside FTS5',
);

Search.before(async (context) => {
  context.app = await startTestServer();
  const admin = await signUpAdmin(context.app);
  await importCommunitySample(context.app, admin);
  // Two hulls whose ids share a word: a filter by one must not find the other's assemblies.
  const hull = (size: string, archetype: string) => ({
    size,
    archetype,
    hitpoints: 1000,
    slots: { leftSideWeapon: [1, 2] },
  });
  const imported = await context.app.rest('POST', '/api/admin/catalog/import', {
    token: admin.token,
    body: { ships: { sloop: hull('large', 'raider'), sloop_2: hull('large', 'ram') }, items: {} },
  });
  assert.is(imported.status, 200, imported.text);
  context.owner = await context.app.signUp();
});
Search.after(async ({ app }) => app.stop());

Search('a rare class among many matches, hull ids with punctuation, every sort', async ({ app, owner }) => {
  await publish(app, owner.token, { name: 'Gull sloop old', shipId: 'sloop', weapons: [], tags: ['gull'] });
  await publish(app, owner.token, { name: 'Gull sloop two', shipId: 'sloop_2', weapons: [], tags: ['gull'] });
  for (let i = 0; i < 30; i++) await publish(app, owner.token, { ...HULK, name: `Gull hulk ${i}`, tags: ['gull'] });
  const found = async (query: string) => names((await list(app, `keyword=gull&${query}`)).data);
  assert.equal(await found('shipType=raider'), ['Gull sloop old'], 'sloop only, not sloop_2');
  assert.equal(await found('shipType=ram'), ['Gull sloop two']);
  assert.equal(await found('shipType=large'), ['Gull sloop two', 'Gull sloop old']);
  assert.equal(await found('shipType=LARGE&sort=rating'), ['Gull sloop two', 'Gull sloop old']);
  assert.equal((await list(app, 'keyword=gull&shipType=tank')).pagination.total, 30);
  assert.equal(await found('shipType=medium'), [], 'a class with hulls but no assembly');
  assert.equal(await found('shipType=galleon'), [], 'no hull of that class at all');
  // A word that is the start of a hull term ('h' + hex) matches names and tags only.
  assert.equal(await found('shipType=raider&sort=hottest'), ['Gull sloop old']);
  assert.equal(names((await list(app, 'keyword=h6')).data), [], 'hulk is h68756c6b');
  assert.equal(names((await list(app, 'keyword=h736c6f6f70')).data), [], 'sloop');
  assert.is(
    (await list(app, 'keyword=h')).pagination.total,
    30,
    'while h finds the names that start with it (Gull hulk)',
  );
});

Search.run();

// ---------------------------------------------------------------------------------------------
const Plans = suite<{ dir: string; db: TDb; close: () => void }>(
  `list query plans (${TEST_DRIVER ?? 'better-sqlite3'}): no page sorts the listable rows`,
);

Plans.before(async (context) => {
  // A database of its own, as the view flush's plan test does (EXPLAIN on the app's libSQL connection upset its writes).
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-list-plans-'));
  const database = openDatabase(`file:${join(context.dir, 'plans.db')}`, { driver: TEST_DRIVER });
  await database.migrate();
  context.db = database.db;
  context.close = () => database.close();
});
Plans.after(({ dir, close }) => {
  close();
  rmSync(dir, { recursive: true, force: true });
});

/** EXPLAIN QUERY PLAN of a query builder, its placeholders inlined as literals (EXPLAIN needs no real values). */
async function plan(
  db: TDb,
  query: { toSQL(): { sql: string; params: unknown[] } },
  values: Record<string, string | number>,
): Promise<string[]> {
  const { sql: text, params } = query.toSQL();
  let at = 0;
  const inlined = text.replace(/\?/g, () => {
    const param = params[at++] as { name?: string } | string | number;
    const value = typeof param === 'object' && param !== null && 'name' in param ? values[param.name!] : param;
    if (value === undefined) throw new Error(`no value for parameter ${at}`);
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
  return (await db.all<{ detail: string }>(sql.raw(`explain query plan ${inlined}`))).map((row) => row.detail);
}

const INDEX_OF: Record<TListSort | 'created', [string, string]> = {
  latest: ['assemblies_listable', 'assemblies_ship_latest'],
  hottest: ['assemblies_hot', 'assemblies_ship_hot'],
  rating: ['assemblies_rating', 'assemblies_ship_rating'],
  updated: ['assemblies_updated', 'assemblies_ship_updated'],
  created: ['assemblies_created', 'assemblies_ship_created'],
};
const hullValues = (hullCount: number) =>
  Object.fromEntries(Array.from({ length: hullCount }, (_, i) => [`hull${i}`, `hull-${i}`]));

Plans(
  'every sort, both orders, without a shipType and with classes of 1 to 4 hulls, walks its index in order',
  async ({ db }) => {
    for (const sort of ['latest', 'hottest', 'rating', 'updated'] as const) {
      for (const order of ['desc', 'asc'] as const) {
        for (const hullCount of [0, 1, 2, 4]) {
          const steps = await plan(db, pageIdsQuery(db, sort, order, hullCount), {
            limit: 100,
            offset: MAX_LIST_WINDOW - 100,
            ...hullValues(hullCount),
          });
          const where = `${sort} ${order} with ${hullCount} hulls: ${steps.join('; ')}`;
          assert.not.ok(
            steps.some((step) => /TEMP B-TREE/.test(step)),
            where,
          );
          assert.not.ok(
            steps.some((step) => /^SCAN assemblies$/.test(step)),
            where,
          );
          const walks = steps.filter((step) => /assemblies USING (COVERING )?INDEX/.test(step));
          assert.is(walks.length, Math.max(1, hullCount), where);
          assert.ok(
            walks.every((step) => step.includes(`INDEX ${INDEX_OF[sort][hullCount === 0 ? 0 : 1]}`)),
            where,
          );
          if (hullCount > 1)
            assert.ok(
              steps.some((step) => /MERGE \(UNION ALL\)/.test(step)),
              where,
            );
        }
      }
    }
  },
);

Plans(
  'a date range walks its own index within the range, in either direction, merged per hull: no sort',
  async ({ db }) => {
    for (const field of ['created', 'updated'] as const) {
      for (const direction of ['desc', 'asc'] as const) {
        for (const hullCount of [0, 1, 3]) {
          const steps = await plan(db, rangeIdsQuery(db, field, direction, hullCount), {
            from: 1_700_000_000_000,
            until: 1_800_000_000_000,
            cap: MAX_SEARCH_RESULTS + 1,
            ...hullValues(hullCount),
          });
          const where = `${field} ${direction} with ${hullCount} hulls: ${steps.join('; ')}`;
          assert.not.ok(
            steps.some((step) => /TEMP B-TREE|^SCAN assemblies$/.test(step)),
            where,
          );
          const walks = steps.filter((step) => /assemblies USING (COVERING )?INDEX/.test(step));
          assert.is(walks.length, Math.max(1, hullCount), where);
          // A SEARCH of the range (and the hull), never a SCAN of the whole index.
          const [index, column] = [INDEX_OF[field][hullCount === 0 ? 0 : 1], `${field}_at`];
          assert.ok(
            walks.every(
              (step) =>
                step.startsWith('SEARCH') &&
                step.includes(`INDEX ${index} (`) &&
                step.includes(`${column}>?`) &&
                step.includes(`${column}<?`),
            ),
            where,
          );
          if (hullCount > 1)
            assert.ok(
              steps.some((step) => /MERGE \(UNION ALL\)/.test(step)),
              where,
            );
        }
      }
    }
  },
);

Plans(
  'a keyword or range ranks and filters its candidates by id lookups, never by walking a sort or range index',
  async ({ db }) => {
    const statements = [
      ...(['latest', 'hottest', 'rating', 'updated'] as const).flatMap((sort) =>
        (['desc', 'asc'] as const).map((order) => [`rank ${sort} ${order}`, rankAmongQuery(db, sort, order)] as const),
      ),
      ['inRanges', inRangesQuery(db)] as const,
    ];
    for (const [name, query] of statements) {
      const steps = await plan(db, query, {
        ids: '[1,2,3]',
        limit: 20,
        offset: 0,
        createdFrom: 0,
        createdUntil: 1e15,
        updatedFrom: 0,
        updatedUntil: 1e15,
      });
      const where = `${name}: ${steps.join('; ')}`;
      // Looked up by id: through the primary key, or through assemblies_listable's trailing rowid.
      assert.ok(
        steps.some((step) => /SEARCH assemblies USING .*rowid=\?\)/.test(step)),
        where,
      );
      assert.not.ok(
        steps.some((step) =>
          /SCAN assemblies|assemblies_hot|assemblies_rating|assemblies_updated|assemblies_created/.test(step),
        ),
        where,
      );
    }
  },
);

Plans.run();
