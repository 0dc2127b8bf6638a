// The list's keyword search and its cap (MAX_SEARCH_RESULTS): paging through the newest matches, the
// truncated flag (and its OpenAPI description), shipType before the cap, the sorts within it; on both surfaces.
import { randomUUID } from 'node:crypto';
import * as assert from 'uvu/assert';
import { assemblies } from '../../db/schema';
import { transaction } from '../../db/transaction';
import { invalidateAssembly } from '../../server/domains/assembly/item';
import { MAX_SEARCH_RESULTS } from '../../server/domains/assembly/schemas';
import { resolveRef } from '../support/openapi-operations';
import { ownerAndFansSuite } from './fixtures';

const Cap = ownerAndFansSuite("list: the keyword search's cap");

Cap(
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

Cap.run();
