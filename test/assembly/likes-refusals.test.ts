// The web client's likes (issue 19: GET /likes/check, POST /likes/toggle, GET /likes/count) refused: bad
// input, no token, access rules, unknown and trashed assemblies; likes switched off by the creator
// (attr.isLike), on every writer (POST /assembly/like too), on both surfaces.
import * as assert from 'uvu/assert';
import { HULK } from '../support/community-sample';
import { batchClient, trpcError } from '../support/http-clients';
import { likeQuery as query, ownerFanAndOtherSuite, publish, UNKNOWN } from './fixtures';

const Refusals = ownerFanAndOtherSuite('likes: refused');

Refusals(
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

Refusals(
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
    const batch = batchClient(app.url, { token: fan.token, maxItems: 10 }).client;
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

Refusals.run();
