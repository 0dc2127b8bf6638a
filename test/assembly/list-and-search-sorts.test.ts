// The list's sorts: hottest (likes, views and publication time) and rating (smoothed), hand-computed, on REST.
import * as assert from 'uvu/assert';
import { HULK } from '../support/community-sample';
import { HOUR, ownerAndFansSuite, publish } from './fixtures';

const Sorts = ownerAndFansSuite('list: the hottest and rating sorts');

Sorts(
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

Sorts('sort=rating: smoothed (sum + 15) / (count + 5), hand-computed', async ({ app, owner, fans }) => {
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

Sorts.run();
