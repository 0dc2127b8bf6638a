// The web client's likes (issue 19: GET /likes/check, POST /likes/toggle, GET /likes/count) and the
// caller's own isLiked on items and list pages, over HTTP on both surfaces; the same likes as POST /assembly/like.
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import superjson from 'superjson';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import type { AppRouter } from '../../server/router';
import {
  HULK,
  importCommunitySample,
  signUpAdmin,
  startTestServer,
  trpcError,
  type TTestServer,
} from '../support/helpers';
import { publish, readable, type TUser } from './fixtures';

const Likes = suite<{ app: TTestServer; owner: TUser; fan: TUser; other: TUser }>(
  'likes: check, toggle, count, isLiked',
);
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

Likes.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.fan = await context.app.signUp();
  context.other = await context.app.signUp();
});
Likes.after(async ({ app }) => app.stop());

const query = (uuid: string, extra = '') => `targetType=assembly&targetId=${uuid}${extra}`;

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
    const batch = createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: `${app.url}/trpc`,
          transformer: superjson,
          maxItems: 10,
          headers: () => ({ authorization: `Bearer ${fan.token}` }),
        }),
      ],
    });
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

Likes(
  'errors: 400 on bad input, 401 without a token, 403 own or unreadable or another userId, 404 unknown or trashed',
  async ({ app, owner, fan }) => {
    const { uuid } = await publish(app, owner.token, HULK);
    const hidden = await publish(app, owner.token, { ...HULK, isPublic: false, password: 'open-sesame' });
    const trashed = await publish(app, owner.token, HULK);
    await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: trashed.uuid } });
    const toggle = (token: string | undefined, body: Record<string, unknown>) =>
      app.rest('POST', '/api/likes/toggle', { token, body: { targetType: 'assembly', targetId: uuid, ...body } });
    // 400: strict inputs.
    for (const [label, body] of [
      ['targetType', { targetType: 'planet' }],
      ['targetId', { targetId: 'nope' }],
      ['Unrecognized', { extra: 1 }],
    ] as const) {
      const response = await toggle(fan.token, body);
      assert.is(response.status, 400, label);
      assert.match(response.text, label);
    }
    assert.is((await app.rest('GET', `/api/likes/count?targetType=planet&targetId=${uuid}`)).status, 400);
    // A codex type takes a codex id: an assembly's uuid is one in form, and no codex entry has it (issue 34).
    assert.is((await app.rest('GET', `/api/likes/count?targetType=item&targetId=${uuid}`)).status, 404);
    assert.is((await app.rest('GET', `/api/likes/check?${query(uuid, '&x=1')}`, { token: fan.token })).status, 400);
    assert.is(
      (
        await trpcError(
          app.trpc(fan.token).assembly.likes.toggle.mutate({ targetType: 'planet' as 'assembly', targetId: uuid }),
        )
      ).status,
      400,
    );
    // 401.
    assert.is((await toggle(undefined, {})).status, 401);
    assert.is((await app.rest('GET', `/api/likes/check?${query(uuid)}`)).status, 401);
    assert.is(
      (await trpcError(app.trpc().assembly.likes.toggle.mutate({ targetType: 'assembly', targetId: uuid }))).status,
      401,
    );
    assert.is(
      (await trpcError(app.trpc().assembly.likes.check.query({ targetType: 'assembly', targetId: uuid }))).status,
      401,
    );
    // 403: your own, someone else's userId, a private one without its password.
    assert.is((await toggle(owner.token, {})).status, 403);
    assert.is(
      (await trpcError(app.trpc(owner.token).assembly.likes.toggle.mutate({ targetType: 'assembly', targetId: uuid })))
        .status,
      403,
    );
    assert.is((await toggle(fan.token, { userId: owner.id })).status, 403);
    assert.is((await toggle(fan.token, { targetId: hidden.uuid })).status, 403);
    assert.is((await app.rest('GET', `/api/likes/check?${query(hidden.uuid)}`, { token: fan.token })).status, 403);
    assert.is((await app.rest('GET', `/api/likes/count?${query(hidden.uuid)}`)).status, 403);
    assert.is(
      (await trpcError(app.trpc().assembly.likes.count.query({ targetType: 'assembly', targetId: hidden.uuid })))
        .status,
      403,
    );
    // ... with its password, or as its creator, it works.
    assert.equal((await toggle(fan.token, { targetId: hidden.uuid, password: 'open-sesame' })).body.data.isLiked, true);
    assert.equal(
      (await app.rest('GET', `/api/likes/count?${query(hidden.uuid, '&password=open-sesame')}`)).body.data.likeCount,
      1,
    );
    assert.equal(
      (await app.rest('GET', `/api/likes/count?${query(hidden.uuid)}`, { token: owner.token })).body.data.likeCount,
      1,
    );
    assert.equal(
      (await app.rest('GET', `/api/likes/check?${query(hidden.uuid)}`, { token: owner.token })).body.data.isLiked,
      false,
    );
    // 404.
    for (const target of [UNKNOWN, trashed.uuid]) {
      assert.is((await toggle(fan.token, { targetId: target })).status, 404);
      assert.is((await app.rest('GET', `/api/likes/check?${query(target)}`, { token: fan.token })).status, 404);
      assert.is((await app.rest('GET', `/api/likes/count?${query(target)}`)).status, 404);
      assert.is(
        (await trpcError(app.trpc().assembly.likes.count.query({ targetType: 'assembly', targetId: target }))).status,
        404,
      );
    }
  },
);

Likes(
  'likes switched off by the creator (attr.isLike: false): a new like is a 403 on every writer; taking one back works; existing likes stay counted',
  async ({ app, owner, fan, other }) => {
    const { uuid } = await publish(app, owner.token, HULK);
    await app.rest('POST', '/api/likes/toggle', { token: fan.token, body: { targetType: 'assembly', targetId: uuid } });
    const settings = (isLike: boolean) =>
      app.rest('POST', '/api/assembly/attr/edit', {
        token: owner.token,
        body: { uuid, assembly: { attr: { isLike } } },
      });
    assert.is((await settings(false)).status, 200);
    assert.is((await app.rest('GET', `/api/assembly/item?uuid=${uuid}`)).body.data.assembly.attr.isLike, false);
    const refused = [
      await app.rest('POST', '/api/likes/toggle', {
        token: other.token,
        body: { targetType: 'assembly', targetId: uuid },
      }),
      await app.rest('POST', '/api/assembly/like', { token: other.token, body: { uuid } }),
      await app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid, like: true } }),
    ];
    for (const response of refused) {
      assert.is(response.status, 403, response.text);
      assert.is(response.body.data.key, 'assembly.likesDisabled');
      assert.match(response.body.message, 'Likes are switched off');
    }
    const viaTrpc = await trpcError(
      app.trpc(other.token).assembly.likes.toggle.mutate({ targetType: 'assembly', targetId: uuid }),
    );
    assert.equal([viaTrpc.status, viaTrpc.data.key], [403, 'assembly.likesDisabled']);
    assert.is((await trpcError(app.trpc(other.token).assembly.like.mutate({ uuid }))).status, 403);
    // Existing likes stay counted; the fan can still take theirs back (a toggle, then like: false is idempotent).
    assert.is((await app.rest('GET', `/api/likes/count?${query(uuid)}`)).body.data.likeCount, 1);
    assert.equal(
      (
        await app.rest('POST', '/api/likes/toggle', {
          token: fan.token,
          body: { targetType: 'assembly', targetId: uuid },
        })
      ).body.data,
      { targetType: 'assembly', targetId: uuid, isLiked: false, likeCount: 0 },
    );
    assert.equal(
      (await app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid, like: false } })).body.data,
      { uuid, liked: false, likes: 0 },
    );
    // Switched on again (or absent: the contract's form has no attr), likes work.
    assert.is((await settings(true)).status, 200);
    assert.is(
      (await app.trpc(other.token).assembly.likes.toggle.mutate({ targetType: 'assembly', targetId: uuid })).isLiked,
      true,
    );
    // Concurrent: likes during a switch-off are each either in before it or refused after it; the count is the rows.
    const batch = createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: `${app.url}/trpc`,
          transformer: superjson,
          maxItems: 10,
          headers: () => ({ authorization: `Bearer ${fan.token}` }),
        }),
      ],
    });
    const [, ...likes] = await Promise.allSettled([
      settings(false),
      ...Array.from({ length: 5 }, () => batch.assembly.like.mutate({ uuid })),
    ]);
    const count = (await app.rest('GET', `/api/likes/count?${query(uuid)}`)).body.data.likeCount;
    assert.is(count, likes.some((result) => result.status === 'fulfilled') ? 2 : 1);
    assert.is(
      (await app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid } })).status,
      403,
      'off once the switch is written',
    );
  },
);

Likes.run();
