// The web client's likes (issue 19: GET /likes/check, POST /likes/toggle, GET /likes/count) and the
// caller's own isLiked on items and list pages, over HTTP on both surfaces; the same likes as POST /assembly/like;
// concurrent toggles. Refused likes (bad input, access rules, likes switched off) are in likes-refusals.test.ts.
import * as assert from 'uvu/assert';
import { HULK } from '../support/community-sample';
import { batchClient } from '../support/http-clients';
import { likeQuery as query, ownerFanAndOtherSuite, publish, readable, type TUser } from './fixtures';

const Likes = ownerFanAndOtherSuite('likes: check, toggle, count, isLiked');

Likes(
  'toggle flips the like, check and count follow, and POST /assembly/like shares the same likes',
  async ({ app, owner, fan, other }) => {
    const { uuid } = await publish(app, owner.token, HULK);
    const toggle = (user: TUser) =>
      app.rest('POST', '/api/likes/toggle', {
        token: user.token,
        body: { userId: user.id, targetType: 'assembly', targetId: uuid },
      });
    const on = await toggle(fan);
    assert.is(on.status, 200, on.text);
    assert.equal(on.body.data, { targetType: 'assembly', targetId: uuid, isLiked: true, likeCount: 1 });
    assert.equal((await app.rest('GET', `/api/likes/check?${query(uuid)}`, { token: fan.token })).body.data, {
      targetType: 'assembly',
      targetId: uuid,
      isLiked: true,
    });
    assert.equal(
      (await app.rest('GET', `/api/likes/check?${query(uuid)}`, { token: other.token })).body.data.isLiked,
      false,
    );
    assert.equal((await app.rest('GET', `/api/likes/count?${query(uuid)}`)).body.data, {
      targetType: 'assembly',
      targetId: uuid,
      likeCount: 1,
    });
    // One mechanism: the contract's like sees the toggle's, and the other way round.
    assert.equal(
      (await app.rest('POST', '/api/assembly/like', { token: other.token, body: { uuid } })).body.data.likes,
      2,
    );
    assert.equal((await toggle(other)).body.data, {
      targetType: 'assembly',
      targetId: uuid,
      isLiked: false,
      likeCount: 1,
    });
    assert.equal(
      (await app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid, like: false } })).body.data.likes,
      0,
    );
    assert.is(
      (await app.rest('GET', `/api/likes/check?${query(uuid)}`, { token: fan.token })).body.data.isLiked,
      false,
    );
    // The same on native tRPC.
    const trpc = app.trpc(fan.token);
    assert.equal(await trpc.assembly.likes.toggle.mutate({ targetType: 'assembly', targetId: uuid }), {
      targetType: 'assembly',
      targetId: uuid,
      isLiked: true,
      likeCount: 1,
    });
    assert.is((await trpc.assembly.likes.check.query({ targetType: 'assembly', targetId: uuid })).isLiked, true);
    assert.is((await app.trpc().assembly.likes.count.query({ targetType: 'assembly', targetId: uuid })).likeCount, 1);
    assert.is((await app.rest('GET', `/api/assembly/item?uuid=${uuid}`)).body.data.likes, 1);
  },
);

Likes(
  "isLiked is the caller's own on items and list pages, never carried by the shared caches",
  async ({ app, owner, fan, other }) => {
    const { uuid } = await publish(app, owner.token, { ...HULK, name: 'Liked hulk' });
    await app.rest('POST', '/api/likes/toggle', { token: fan.token, body: { targetType: 'assembly', targetId: uuid } });
    const listed = async (token?: string) => {
      const response = await app.rest('GET', '/api/assembly/list?keyword=liked', { token });
      assert.is(response.status, 200, response.text);
      return response.body.data.data.find((item: { uuid: string }) => item.uuid === uuid);
    };
    // Anonymous first (fills the stored answer and the list cache), then signed in, then anonymous again.
    for (const [who, token, expected] of [
      ['anonymous', undefined, false],
      ['the fan', fan.token, true],
      ['another user', other.token, false],
      ['the creator', owner.token, false],
      ['anonymous again', undefined, false],
      ['the fan again', fan.token, true],
    ] as const) {
      assert.is((await listed(token)).isLiked, expected, `list as ${who}`);
      const item = await app.rest('GET', `/api/assembly/item?uuid=${uuid}`, { token });
      assert.is(readable(item.body.data).isLiked, expected, `item as ${who}`);
      if (token)
        assert.is(item.headers.get('cache-control'), 'private, no-cache', `item as ${who}: not for shared caches`);
    }
    const page = await app.trpc(fan.token).assembly.list.query({ keyword: 'liked' });
    assert.is(page.data.find((item) => item.uuid === uuid)?.isLiked, true, 'tRPC list');
    assert.is(readable(await app.trpc(fan.token).assembly.getItem.query({ uuid })).isLiked, true, 'tRPC item');
    assert.is(readable(await app.trpc().assembly.getItem.query({ uuid })).isLiked, false, 'tRPC item, anonymous');
    assert.is(
      (await app.trpc(other.token).assembly.list.query({ keyword: 'liked' })).data.find((item) => item.uuid === uuid)
        ?.isLiked,
      false,
      'tRPC list, another user',
    );
    // A toggle drops the cached pages: the fan sees the change at once.
    await app.trpc(fan.token).assembly.likes.toggle.mutate({ targetType: 'assembly', targetId: uuid });
    assert.is((await listed(fan.token)).isLiked, false, 'after taking the like back');
    assert.is((await listed()).likes, 0);
  },
);

Likes(
  'concurrent toggles by one user in one tRPC batch end with a consistent count',
  async ({ app, owner, fan, other }) => {
    const { uuid } = await publish(app, owner.token, HULK);
    await app.rest('POST', '/api/assembly/like', { token: other.token, body: { uuid } });
    const batch = batchClient(app.url, { token: fan.token, maxItems: 10 }).client;
    for (const n of [7, 10]) {
      const before = (await app.rest('GET', `/api/likes/check?${query(uuid)}`, { token: fan.token })).body.data
        .isLiked as boolean;
      const answers = await Promise.all(
        Array.from({ length: n }, () => batch.assembly.likes.toggle.mutate({ targetType: 'assembly', targetId: uuid })),
      );
      // Applied one after the other: the answers alternate, and each count matches its state.
      assert.is(
        answers.filter((answer) => answer.isLiked).length,
        before ? Math.floor(n / 2) : Math.ceil(n / 2),
        `${n} toggles`,
      );
      for (const answer of answers) assert.is(answer.likeCount, answer.isLiked ? 2 : 1);
      const liked = n % 2 === 1 ? !before : before;
      assert.is(
        (await app.rest('GET', `/api/likes/check?${query(uuid)}`, { token: fan.token })).body.data.isLiked,
        liked,
      );
      const count = (await app.rest('GET', `/api/likes/count?${query(uuid)}`)).body.data.likeCount;
      assert.is(count, liked ? 2 : 1, "one like of the other user, and the fan's when liked");
      assert.is(
        (await app.rest('GET', `/api/assembly/item?uuid=${uuid}`)).body.data.likes,
        count,
        'the likes column agrees',
      );
    }
  },
);

Likes.run();
