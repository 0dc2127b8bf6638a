// The input forms of the assembly list (issue 18): the community web client's sortField/sortOrder mapped
// onto our sorts and order, the rest of what its Browse view sends accepted, what we do not offer a 400.
import * as assert from 'uvu/assert';
import { HULK } from '../support/community-sample';
import { ownerAndOtherSuite, publish } from './fixtures';

const ListSort = ownerAndOtherSuite("assembly input forms: the web client's list sorts");

ListSort(
  "list: the client's sortField/sortOrder map onto sort and order; what we do not offer is a 400",
  async ({ app, owner, other }) => {
    const names = ['Sortmap old', 'Sortmap liked', 'Sortmap rated'];
    const uuids: string[] = [];
    for (const name of names) uuids.push((await publish(app, owner.token, { ...HULK, name, tags: ['sortmap'] })).uuid);
    await app.rest('POST', '/api/assembly/like', { token: other.token, body: { uuid: uuids[1] } });
    await app.rest('POST', '/api/assembly/rate', { token: other.token, body: { uuid: uuids[2], score: 5 } });
    const order = async (query: string) => {
      const response = await app.rest('GET', `/api/assembly/list?keyword=sortmap&${query}`);
      assert.is(response.status, 200, `${query}: ${response.text.slice(0, 200)}`);
      return response.body.data.data.map((item: { name: string }) => item.name);
    };
    for (const [sortField, sort] of [
      ['createdTime', 'latest'],
      ['likes', 'hottest'],
      ['rating', 'rating'],
      ['updatedTime', 'updated'],
    ]) {
      assert.equal(
        await order(`sortField=${sortField}&sortOrder=desc`),
        await order(`sort=${sort}`),
        `sortField=${sortField} is sort=${sort}`,
      );
      assert.equal(await order(`sortField=${sortField}&sort=${sort}`), await order(`sort=${sort}`), 'both, agreeing');
      assert.equal(
        await order(`sortField=${sortField}&sortOrder=asc`),
        (await order(`sort=${sort}`)).reverse(),
        `sortField=${sortField}&sortOrder=asc reverses it`,
      );
    }
    assert.is((await order('sortField=likes'))[0], 'Sortmap liked');
    assert.is((await order('sortField=rating'))[0], 'Sortmap rated');
    assert.is((await order('sortField=createdTime'))[0], 'Sortmap rated');
    // What the Browse view sends besides (src/views/assembly/Browse.vue:104-116): accepted, changing nothing.
    assert.equal(await order('isHasPassword=false&sortField=createdTime&sortOrder=desc'), await order('sort=latest'));
    assert.equal(await order('createdStart=&updatedEnd='), await order('sort=latest'), 'empty date ranges');
    assert.equal(
      await order('isHasPassword=true'),
      await order('sort=latest'),
      'lists hold no assembly with a password either way',
    );
    assert.equal(
      await order('createdStart=2024-01-01'),
      await order('sort=latest'),
      'a range that holds them all (list-order-ranges.test.ts has the rest)',
    );
    const refused = async (query: string, pattern: RegExp) => {
      const response = await app.rest('GET', `/api/assembly/list?${query}`);
      assert.is(response.status, 400, query);
      assert.match(response.body.message, pattern);
    };
    await refused('sortField=__proto__', /sortField: must be createdTime, likes, rating/);
    await refused('sortField=toString', /sortField: must be createdTime, likes, rating/);
    await refused('sortField=likes&sort=latest', /sortField: disagrees with sort=latest/);
    await refused('sortOrder=ascending', /sortOrder: must be desc or asc/);
    await refused('createdStart=2024-01-32', /createdStart: must be a date/);
    // tRPC: the same input.
    const viaTrpc = await app.trpc().assembly.list.query({ keyword: 'sortmap', sortField: 'likes', sortOrder: 'desc' });
    assert.is(viaTrpc.data[0]!.name, 'Sortmap liked');
  },
);

ListSort.run();
