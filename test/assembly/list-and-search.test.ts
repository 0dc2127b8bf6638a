// The list: paging, FTS5 keyword search, hull-class filters, on both surfaces. The hottest and rating
// sorts are in list-and-search-sorts.test.ts, what the search index holds in list-and-search-index.test.ts,
// the keyword search's cap in list-and-search-cap.test.ts.
import * as assert from 'uvu/assert';
import { ftsQuery } from '../../server/domains/assembly/search';
import { HULK } from '../support/community-sample';
import { trpcError } from '../support/http-clients';
import { ownerAndFansSuite, publish } from './fixtures';

const List = ownerAndFansSuite('list: paging, search, filter');

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

List.run();
