// The list: paging, FTS5 keyword search and its cap, hull-class filters, the hottest and rating sorts, on both surfaces.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { createSchema } from 'zod-openapi';
import { z } from 'zod';
import { assemblies } from '../../db/schema';
import { transaction } from '../../db/transaction';
import { JOBS } from '../../server/jobs';
import { invalidateAssembly } from '../../server/domains/assembly/item';
import { ftsQuery } from '../../server/domains/assembly/search';
import { ZJsonObject } from '../../server/domains/assembly/attributes-schema';
import { MAX_SEARCH_RESULTS } from '../../server/domains/assembly/schemas';
import {
  HULK,
  importCommunitySample,
  signUpAdmin,
  startTestServer,
  trpcError,
  type TTestServer,
} from '../support/helpers';
import { resolveRef } from '../support/openapi-operations';
import { DAY, HOUR, publish, type TUser } from './fixtures';

const List = suite<{ app: TTestServer; owner: TUser; fans: TUser[] }>('list: search, filter, sorts, paging');

List.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.fans = [await context.app.signUp(), await context.app.signUp()];
});
List.after(async ({ app }) => app.stop());

List('paging defaults 1/20, pageSize over 100 is a 400, private and trashed never listed', async ({ app, owner }) => {
  for (let i = 0; i < 22; i++) await publish(app, owner.token, { ...HULK, name: `Paged ${i}`, tags: ['paging'] });
  await publish(app, owner.token, { ...HULK, name: 'Paged private', tags: ['paging'], isPublic: false });
  const trashed = await publish(app, owner.token, { ...HULK, name: 'Paged trashed', tags: ['paging'] });
  await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: trashed.uuid } });
  const first = (await app.rest('GET', '/api/assembly/list?keyword=paging')).body.data;
  assert.equal(first.pagination, { page: 1, pageSize: 20, total: 22, totalPages: 2 });
  assert.is(first.truncated, false, 'truncated is always present');
  assert.is((await app.rest('GET', '/api/assembly/list')).body.data.truncated, false, 'and false without a keyword');
  assert.is(first.data.length, 20);
  assert.is(first.data[0].name, 'Paged 21', 'latest first');
  assert.is(first.data[0].weapons, undefined, 'list items are summaries');
  const second = (await app.rest('GET', '/api/assembly/list?keyword=paging&page=2')).body.data;
  assert.equal(
    second.data.map((item: { name: string }) => item.name),
    ['Paged 1', 'Paged 0'],
  );
  const names = [...first.data, ...second.data].map((item: { name: string }) => item.name);
  assert.not.ok(names.includes('Paged private'));
  assert.not.ok(names.includes('Paged trashed'));
  const tooBig = await app.rest('GET', '/api/assembly/list?pageSize=101');
  assert.is(tooBig.status, 400);
  assert.match(tooBig.body.message, /pageSize/);
  assert.is((await app.rest('GET', '/api/assembly/list?page=0')).status, 400);
  assert.is((await app.rest('GET', '/api/assembly/list?sort=best')).status, 400);
  const viaTrpc = await app.trpc().assembly.list.query({ keyword: 'paging', pageSize: 5, page: 5 });
  assert.equal(viaTrpc.pagination, { page: 5, pageSize: 5, total: 22, totalPages: 5 });
  assert.is(viaTrpc.truncated, false);
  assert.is(viaTrpc.data.length, 2);
  assert.is((await trpcError(app.trpc().assembly.list.query({ pageSize: 101 }))).status, 400);
});

List(
  'keyword matches name words or tags through FTS5, every word as a prefix; operators are plain text',
  async ({ app, owner }) => {
    await publish(app, owner.token, { ...HULK, name: 'Stormbreaker galleon', tags: ['kraken-hunter'] });
    await publish(app, owner.token, { ...HULK, name: 'Quiet trader', tags: ['merchant', 'stormproof'] });
    const search = async (keyword: string) =>
      (await app.rest('GET', `/api/assembly/list?keyword=${encodeURIComponent(keyword)}`)).body.data.data.map(
        (item: { name: string }) => item.name,
      );
    assert.equal(await search('stormbreaker'), ['Stormbreaker galleon']);
    assert.equal(await search('storm'), ['Quiet trader', 'Stormbreaker galleon'], 'prefix match on name and tag');
    assert.equal(await search('MERCHANT'), ['Quiet trader']);
    assert.equal(await search('kraken'), ['Stormbreaker galleon']);
    assert.equal(await search('stormbreaker gall'), ['Stormbreaker galleon'], 'every word must match');
    assert.equal(await search('storm gall'), ['Stormbreaker galleon'], 'every word as a prefix');
    assert.equal(await search('s g'), ['Stormbreaker galleon'], 'one-letter prefixes too');
    assert.equal(await search('storm galleons'), [], 'a prefix longer than the word does not match');
    assert.equal(await search('kraken storm'), ['Stormbreaker galleon'], 'words in any order, name and tags together');
    for (const hostile of [
      '"',
      'AND (',
      'storm OR',
      '*',
      'NEAR(a b)',
      "'; drop table assemblies; --",
      'name:storm',
      '^storm',
    ]) {
      const response = await app.rest('GET', `/api/assembly/list?keyword=${encodeURIComponent(hostile)}`);
      assert.is(response.status, 200, `${hostile}: ${response.text}`);
    }
    assert.equal(await search('"'), []);
    assert.equal(await search('storm OR'), [], 'OR is a word to match, not an operator');
    assert.equal(ftsQuery('a "b" AND ('), '"a"* """b"""* "AND"*');
    assert.is(ftsQuery('nul\u0000byte'), '"nul"* "byte"*', 'control characters split words');
    const edited = (await app.rest('GET', '/api/assembly/list?keyword=stormbreaker')).body.data.data[0];
    await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid: edited.uuid, data: { name: 'Renamed ship', tags: [] } },
    });
    assert.equal(await search('stormbreaker'), [], 'the index follows edits');
    assert.equal(await search('renamed'), ['Renamed ship']);
    assert.equal(
      (await app.trpc().assembly.list.query({ keyword: 'quiet' })).data.map((item) => item.name),
      ['Quiet trader'],
    );
  },
);

List('shipType filters by hull size or archetype', async ({ app, owner }) => {
  await publish(app, owner.token, { ...HULK, name: 'Class hulk', tags: ['classes'] });
  await publish(app, owner.token, { ...HULK, shipId: 'brigantine', name: 'Class brigantine', tags: ['classes'] });
  await publish(app, owner.token, { ...HULK, shipId: 'bedar', name: 'Class bedar', tags: ['classes'] });
  const names = async (shipType: string) =>
    (await app.rest('GET', `/api/assembly/list?keyword=classes&shipType=${shipType}`)).body.data.data.map(
      (item: { name: string }) => item.name,
    );
  assert.equal(await names('small'), ['Class bedar', 'Class hulk']);
  assert.equal(await names('medium'), ['Class brigantine']);
  assert.equal(await names('tank'), ['Class hulk']);
  assert.equal(await names('DPS'), ['Class bedar', 'Class brigantine']);
  assert.equal(await names('large'), []);
});

List(
  'sort=hottest: log10(2 x likes + views / 10 + 1), rounded to 0.01, + publication time / 12 h, hand-computed',
  async ({ app, owner, fans }) => {
    const old = await publish(app, owner.token, { ...HULK, name: 'Hot old', tags: ['hotsort'] });
    app.clock.advance(2 * HOUR);
    const fresh = await publish(app, owner.token, { ...HULK, name: 'Hot new', tags: ['hotsort'] });
    const liked = await publish(app, owner.token, { ...HULK, name: 'Hot liked', tags: ['hotsort'] });
    for (const fan of fans)
      await app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid: old.uuid } });
    await app.trpc(fans[0]!.token).assembly.like.mutate({ uuid: liked.uuid });
    // Relative to the two new ones (interaction rounded to 0.01): old log10(2x2 + 1) - 2/12 = 0.70 - 0.167; liked log10(2 + 1) = 0.48; new 0
    const hottest = (await app.rest('GET', '/api/assembly/list?keyword=hotsort&sort=hottest')).body.data.data;
    assert.equal(
      hottest.map((item: { name: string }) => item.name),
      ['Hot old', 'Hot liked', 'Hot new'],
    );
    assert.equal(
      hottest.map((item: { likes: number }) => item.likes),
      [2, 1, 0],
    );
    const latest = (await app.rest('GET', '/api/assembly/list?keyword=hotsort')).body.data.data;
    assert.equal(
      latest.map((item: { name: string }) => item.name),
      ['Hot liked', 'Hot new', 'Hot old'],
    );
    // Time alone changes no order (issue 16: that is what lets an index serve the list without a keyword).
    // The cached first page expires with the clock.
    app.clock.advance(10 * HOUR);
    const later = (await app.rest('GET', '/api/assembly/list?keyword=hotsort&sort=hottest')).body.data.data;
    assert.equal(
      later.map((item: { name: string }) => item.name),
      ['Hot old', 'Hot liked', 'Hot new'],
    );
    // A view counts a tenth of a like: 21 views lift new to log10(2.1 + 1) = 0.49, above liked (0.48).
    // Views do not invalidate cached lists; the page is fresh again once its 30 s have passed.
    for (let i = 0; i < 21; i++) await app.rest('GET', `/api/assembly/item?uuid=${fresh.uuid}`);
    await app.app.deps.views.flush(app.database.db);
    app.clock.advance(31_000);
    const viewed = (await app.rest('GET', '/api/assembly/list?keyword=hotsort&sort=hottest')).body.data.data;
    assert.equal(
      viewed.map((item: { name: string }) => item.name),
      ['Hot old', 'Hot new', 'Hot liked'],
    );
    assert.equal(
      viewed.map((item: { views: number }) => item.views),
      [0, 21, 0],
    );
  },
);

List('sort=rating: smoothed (sum + 15) / (count + 5), hand-computed', async ({ app, owner, fans }) => {
  const one5 = await publish(app, owner.token, { ...HULK, name: 'Rated one five', tags: ['ratesort'] });
  const two5 = await publish(app, owner.token, { ...HULK, name: 'Rated two fives', tags: ['ratesort'] });
  const low = await publish(app, owner.token, { ...HULK, name: 'Rated two', tags: ['ratesort'] });
  await publish(app, owner.token, { ...HULK, name: 'Unrated', tags: ['ratesort'] });
  const rate = (token: string, uuid: string, score: number) =>
    app.rest('POST', '/api/assembly/rate', { token, body: { uuid, score } });
  await rate(fans[0]!.token, one5.uuid, 5);
  await rate(fans[0]!.token, two5.uuid, 5);
  await rate(fans[1]!.token, two5.uuid, 5);
  await rate(fans[1]!.token, low.uuid, 2);
  // one five: 20/6 = 3.33; two fives: 25/7 = 3.57; unrated: 15/5 = 3; two: 17/6 = 2.83
  const items = (await app.rest('GET', '/api/assembly/list?keyword=ratesort&sort=rating')).body.data.data;
  assert.equal(
    items.map((item: { name: string }) => item.name),
    ['Rated two fives', 'Rated one five', 'Unrated', 'Rated two'],
  );
  assert.equal(
    items.map((item: { rating: unknown }) => item.rating),
    [
      { average: 5, count: 2, smoothed: 3.57 },
      { average: 5, count: 1, smoothed: 3.33 },
      { average: null, count: 0, smoothed: 3 },
      { average: 2, count: 1, smoothed: 2.83 },
    ],
  );
});

/** Ids in the FTS5 index itself that match a keyword (not through the list). */
async function indexedIds(app: TTestServer, keyword: string): Promise<number[]> {
  const rows = await app.database.db.all<{ id: number }>(
    sql`select rowid as id from assemblies_fts where assemblies_fts match ${ftsQuery(keyword)} order by rowid`,
  );
  return rows.map((row) => Number(row.id));
}

async function idOf(app: TTestServer, uuid: string): Promise<number> {
  return (await app.database.db.select({ id: assemblies.id }).from(assemblies).where(eq(assemblies.uuid, uuid)).get())!
    .id;
}

List(
  'the index holds only listable assemblies: publish state, trash, rename and purge move rows in and out',
  async ({ app, owner }) => {
    const names = async (keyword: string) =>
      (await app.rest('GET', `/api/assembly/list?keyword=${encodeURIComponent(keyword)}`)).body.data.data.map(
        (item: { name: string }) => item.name,
      );
    const viaTrpc = async (keyword: string) =>
      (await app.trpc().assembly.list.query({ keyword })).data.map((item) => item.name);
    const shown = await publish(app, owner.token, { ...HULK, name: 'Lagoon shown', tags: ['lagoonidx'] });
    const hidden = await publish(app, owner.token, {
      ...HULK,
      name: 'Lagoon hidden',
      tags: ['lagoonidx'],
      isPublic: false,
      password: 'open-sesame',
    });
    const binned = await publish(app, owner.token, { ...HULK, name: 'Lagoon binned', tags: ['lagoonidx'] });
    await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: binned.uuid } });
    const [shownId, hiddenId, binnedId] = [
      await idOf(app, shown.uuid),
      await idOf(app, hidden.uuid),
      await idOf(app, binned.uuid),
    ];
    assert.equal(await names('lagoonidx'), ['Lagoon shown']);
    assert.equal(await viaTrpc('lagoon'), ['Lagoon shown']);
    assert.equal(await indexedIds(app, 'lagoonidx'), [shownId], 'private and trashed are not in the index at all');
    assert.equal(await indexedIds(app, 'hidden'), [], 'a private name is not searchable text anywhere');

    // Made public, restored from the trash: findable.
    await app.trpc(owner.token).assembly.edit.mutate({ uuid: hidden.uuid, data: { isPublic: true } });
    await app.rest('POST', '/api/assembly/restore', { token: owner.token, body: { uuid: binned.uuid } });
    assert.equal(await names('lagoonidx'), ['Lagoon binned', 'Lagoon hidden', 'Lagoon shown']);
    assert.equal(await viaTrpc('lagoonidx'), ['Lagoon binned', 'Lagoon hidden', 'Lagoon shown']);
    assert.equal(await indexedIds(app, 'lagoonidx'), [shownId, hiddenId, binnedId]);

    // Renamed: the index follows (old words gone, new words in).
    await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid: shown.uuid, data: { name: 'Atoll shown', tags: ['atollidx'] } },
    });
    assert.equal(await names('atollidx'), ['Atoll shown']);
    assert.equal(await indexedIds(app, 'atoll'), [shownId]);
    assert.equal(await indexedIds(app, 'lagoonidx'), [hiddenId, binnedId]);

    // Made private again, trashed: out of the index.
    await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid: hidden.uuid, data: { isPublic: false } },
    });
    await app.trpc(owner.token).assembly.delete.mutate({ uuid: binned.uuid });
    assert.equal(await names('lagoonidx'), []);
    assert.equal(await viaTrpc('lagoonidx'), []);
    assert.equal(await indexedIds(app, 'lagoonidx'), []);
    // Editing a private one (name included) keeps it out.
    await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid: hidden.uuid, data: { name: 'Lagoon hidden renamed' } },
    });
    assert.equal(await indexedIds(app, 'lagoonidx'), []);
    // Views and likes never touch the index (the update trigger fires on name, tags, is_public, deleted_at only).
    await app.rest('GET', `/api/assembly/item?uuid=${shown.uuid}`);
    assert.equal(await indexedIds(app, 'atollidx'), [shownId]);

    // Purged (trashed 30 days ago) and deleted outright (an account's cascade, say): gone for good.
    await app.trpc(owner.token).assembly.delete.mutate({ uuid: shown.uuid });
    app.clock.advance(30 * DAY + 1000);
    const job = JOBS.find((candidate) => candidate.name === 'assembly-trash-purge')!;
    const purged = (await job.run(app.database.db, app.app.deps)) as { uuids: string[] };
    assert.ok(purged.uuids.includes(shown.uuid) && purged.uuids.includes(binned.uuid));
    assert.equal(await indexedIds(app, 'atollidx'), []);
    assert.equal(await names('atollidx'), []);
    const later = await app.signUp(); // the owner's session has expired with the 30 days
    const doomed = await publish(app, later.token, { ...HULK, name: 'Lagoon doomed', tags: ['lagoonidx'] });
    assert.equal(await indexedIds(app, 'lagoonidx'), [await idOf(app, doomed.uuid)]);
    await app.database.db.delete(assemblies).where(eq(assemblies.uuid, doomed.uuid));
    assert.equal(await indexedIds(app, 'lagoonidx'), []);
    // What is left in the index is exactly the listable rows.
    const listable = await app.database.db.get<{ n: number }>(
      sql`select count(*) as n from assemblies where is_public = 1 and deleted_at is null`,
    );
    const indexed = await app.database.db.get<{ n: number }>(sql`select count(*) as n from assemblies_fts_docsize`);
    assert.is(Number(indexed!.n), Number(listable!.n));
  },
);

List(
  `keyword search pages through the newest ${MAX_SEARCH_RESULTS} matches; shipType filters before the cap`,
  async ({ app, owner }) => {
    // 1,205 matches written straight through drizzle in one transaction (the triggers index them):
    // the 3 oldest are the only medium hulls, the newest 1,000 also carry the tag capexact.
    const total = MAX_SEARCH_RESULTS + 205;
    const base = app.clock.now().getTime() - total * 1000;
    const row = (i: number) => ({
      uuid: randomUUID(),
      creatorId: owner.id,
      name: `Capped ${i}`,
      shipId: i < 3 ? 'brigantine' : 'hulk',
      weapons: '[]',
      furnitures: '[]',
      tags: JSON.stringify(i >= total - MAX_SEARCH_RESULTS ? ['capword', 'capexact'] : ['capword']),
      isPublic: true,
      // The oldest one would be the hottest of all by far, but it is not among the newest 1,000.
      likes: i === 0 ? 1_000_000 : i === 700 ? 500 : 0,
      createdAt: new Date(base + i * 1000),
      updatedAt: new Date(base + i * 1000),
    });
    await transaction(app.database.db, async (tx) => {
      for (let start = 0; start < total; start += 100) {
        await tx
          .insert(assemblies)
          .values(Array.from({ length: Math.min(100, total - start) }, (_, k) => row(start + k)));
      }
    });
    await invalidateAssembly(app.app.deps, {});
    const list = async (query: string) => {
      const response = await app.rest('GET', `/api/assembly/list?keyword=capword&${query}`);
      assert.is(response.status, 200, response.text);
      return response.body.data;
    };
    const first = await list('pageSize=100');
    assert.equal(first.pagination, { page: 1, pageSize: 100, total: MAX_SEARCH_RESULTS, totalPages: 10 });
    assert.is(first.truncated, true);
    assert.is(first.data[0].name, `Capped ${total - 1}`, 'newest first');
    const last = await list('pageSize=100&page=10');
    assert.is(last.data.length, 100, 'the last page is full');
    assert.is(last.data[99].name, `Capped ${total - MAX_SEARCH_RESULTS}`, 'the oldest of the newest 1,000');
    const past = await list('pageSize=100&page=11');
    assert.equal(past.data, [], 'a page past the cap is empty, not an error');
    assert.equal(past.pagination, { page: 11, pageSize: 100, total: MAX_SEARCH_RESULTS, totalPages: 10 });
    assert.is(past.truncated, true);
    const partial = await app.trpc().assembly.list.query({ keyword: 'capword', pageSize: 30, page: 34 });
    assert.equal(partial.pagination, { page: 34, pageSize: 30, total: MAX_SEARCH_RESULTS, totalPages: 34 });
    assert.is(partial.data.length, 10, 'the page that straddles the cap stops at it');
    assert.is(partial.truncated, true);

    // Exactly the cap is not truncated.
    const exact = await app.trpc().assembly.list.query({ keyword: 'capexact', pageSize: 100 });
    assert.equal([exact.pagination.total, exact.truncated], [MAX_SEARCH_RESULTS, false]);

    // shipType applies before the cap: the only 3 medium hulls are older than the newest 1,000 matches.
    const medium = await list('shipType=medium');
    assert.equal(
      medium.data.map((item: { name: string }) => item.name),
      ['Capped 2', 'Capped 1', 'Capped 0'],
    );
    assert.equal([medium.pagination.total, medium.truncated], [3, false]);
    const small = await app.trpc().assembly.list.query({ keyword: 'capword', shipType: 'small' });
    assert.equal(
      [small.pagination.total, small.truncated, small.data[0]!.name],
      [MAX_SEARCH_RESULTS, true, `Capped ${total - 1}`],
    );

    // hottest and rating rank the newest 1,000 candidates only.
    const hottest = await list('sort=hottest&pageSize=5');
    assert.is(hottest.data[0].name, 'Capped 700');
    assert.not.ok(hottest.data.some((item: { name: string }) => item.name === 'Capped 0'));
    assert.equal([hottest.pagination.total, hottest.truncated], [MAX_SEARCH_RESULTS, true]);
    const rating = await list('sort=rating&page=200&pageSize=5');
    assert.equal([rating.data.length, rating.pagination.totalPages], [5, 200]);
    assert.equal((await list('sort=rating&page=201&pageSize=5')).data, []);

    // The field is documented in the OpenAPI document.
    const document = (await app.rest('GET', '/api/openapi.json')).body as unknown;
    const success = (document as any).paths['/assembly/list'].get.responses['200'].content['application/json'].schema;
    const truncated = resolveRef(document, resolveRef(document, success).properties.data).properties.truncated;
    assert.is(truncated.type, 'boolean');
    assert.match(truncated.description, new RegExp(`^True when the keyword matched more than ${MAX_SEARCH_RESULTS} `));
  },
);

List.run();

const JsonObjects = suite("the web client's JSON objects in answers (attr, assembly, wheel and warehouse settings)");

JsonObjects(
  'a plain object passes as itself; anything else fails the output validation; documented as a record of anything',
  () => {
    const stored = JSON.parse('{"isShowItemName":true,"nested":{"a":[1,2]},"__proto__":{"polluted":true}}') as Record<
      string,
      unknown
    >;
    assert.is(ZJsonObject.parse(stored), stored, 'not copied key by key');
    const bare = Object.create(null) as Record<string, unknown>;
    assert.is(ZJsonObject.parse(bare), bare, 'an object without a prototype is plain too');
    for (const value of [[], null, 'text', 3, new Date(), new Map()]) {
      const result = ZJsonObject.safeParse(value);
      assert.is(result.success, false, `${Object.prototype.toString.call(value)} refused`);
      assert.match(result.error!.issues[0]!.message, /must be an object/);
    }
    const asRecord = z.record(z.string(), z.unknown()).meta({ description: 'settings' });
    assert.equal(createSchema(ZJsonObject.meta({ description: 'settings' })).schema, createSchema(asRecord).schema);
  },
);

JsonObjects.run();
