// Likes of codex entries (issue 34): the same mechanism as an assembly's (GET /likes/check, POST
// /likes/toggle, GET /likes/count), on every codex target type, over HTTP on REST and native tRPC;
// toggles applied one after the other in a tRPC batch and across concurrent REST requests; user/likes
// and user/space/likes across target types.
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { batchClient, trpcError } from '../support/http-clients';
import { suite } from '../support/suite';
import { publish, type TUser } from '../assembly/fixtures';
import { CODEX_TARGETS, importCarriedData } from './fixtures';

interface TContext {
  app: TTestServer;
  fan: TUser;
  other: TUser;
}

const Likes = suite<TContext>('likes of codex entries: every target type, both surfaces');
Likes.before(async (context) => {
  context.app = await startTestServer();
  await importCarriedData(context.app);
  context.fan = await context.app.signUp();
  context.other = await context.app.signUp();
});
Likes.after(async ({ app }) => app.stop());

const query = (targetType: string, targetId: string) =>
  `targetType=${targetType}&targetId=${encodeURIComponent(targetId)}`;

Likes(
  'every codex target type: check, toggle, count on REST and tRPC, kept under the type of the entry found',
  async ({ app, fan, other }) => {
    for (const { targetType, targetId, stored } of CODEX_TARGETS) {
      const label = `${targetType} ${targetId}`;
      const check = async (user: TUser) =>
        (await app.rest('GET', `/api/likes/check?${query(targetType, targetId)}`, { token: user.token })).body;
      const count = async () => (await app.rest('GET', `/api/likes/count?${query(targetType, targetId)}`)).body;
      // The NPC and map location entries are liked from two pages (targetType item and npc, treasureMap and mapLocation): one like each.
      const before = (await count()).data.likeCount as number;
      const first = await check(fan);
      assert.equal(first.data, { targetType: stored, targetId, isLiked: first.data.isLiked === true }, label);
      const toggled = await app.rest('POST', '/api/likes/toggle', { token: fan.token, body: { targetType, targetId } });
      assert.is(toggled.status, 200, `${label}: ${toggled.text}`);
      assert.equal(toggled.body.data, {
        targetType: stored,
        targetId,
        isLiked: !first.data.isLiked,
        likeCount: before + (first.data.isLiked ? -1 : 1),
      });
      const viaTrpc = await app
        .trpc(other.token)
        .assembly.likes.toggle.mutate({ targetType: targetType as 'ship', targetId });
      assert.equal(
        viaTrpc,
        { targetType: stored, targetId, isLiked: true, likeCount: toggled.body.data.likeCount + 1 },
        label,
      );
      assert.equal(
        await app.trpc().assembly.likes.count.query({ targetType: targetType as 'ship', targetId }),
        (await count()).data,
      );
      assert.equal(
        await app.trpc(other.token).assembly.likes.check.query({ targetType: targetType as 'ship', targetId }),
        {
          targetType: stored,
          targetId,
          isLiked: true,
        },
      );
      // Taken back on tRPC: the other user's like is gone again.
      assert.is(
        (await app.trpc(other.token).assembly.likes.toggle.mutate({ targetType: targetType as 'ship', targetId }))
          .isLiked,
        false,
      );
    }
    // The NPC's like, given from its page as item, is the one the npc type reads.
    assert.equal(
      (await app.rest('GET', `/api/likes/check?${query('npc', 'cookery')}`, { token: fan.token })).body.data,
      (await app.rest('GET', `/api/likes/check?${query('item', 'cookery')}`, { token: fan.token })).body.data,
    );
  },
);

Likes(
  'errors: 401 without a token on check and toggle, 404 for an id the data set lacks, 400 for a bad one',
  async ({ app, fan }) => {
    assert.is((await app.rest('GET', `/api/likes/check?${query('ship', 'dhow')}`)).status, 401);
    assert.is(
      (await app.rest('POST', '/api/likes/toggle', { body: { targetType: 'ship', targetId: 'dhow' } })).status,
      401,
    );
    assert.is(
      (await trpcError(app.trpc().assembly.likes.toggle.mutate({ targetType: 'ship', targetId: 'dhow' }))).status,
      401,
    );
    assert.is((await app.rest('GET', `/api/likes/count?${query('ship', 'dhow')}`)).status, 200, 'counts are public');
    for (const [targetType, targetId] of [
      ['ship', 'noSuchShip'],
      ['material', 'dhow'],
    ]) {
      const missing = await app.rest('POST', '/api/likes/toggle', { token: fan.token, body: { targetType, targetId } });
      assert.equal([missing.status, missing.body.message], [404, `Codex ${targetType} "${targetId}" not found`]);
      assert.is((await app.rest('GET', `/api/likes/count?${query(targetType!, targetId!)}`)).status, 404);
      assert.is(
        (
          await trpcError(
            app.trpc().assembly.likes.count.query({ targetType: targetType as 'ship', targetId: targetId! }),
          )
        ).status,
        404,
      );
    }
    const bad = await app.rest('GET', `/api/likes/count?${query('ship', 'a/b')}`);
    assert.equal([bad.status, bad.body.data.issues[0].path], [400, 'targetId']);
    // userId, when sent, is the caller's own.
    assert.is(
      (
        await app.rest('POST', '/api/likes/toggle', {
          token: fan.token,
          body: { targetType: 'ship', targetId: 'dhow', userId: 'someone' },
        })
      ).status,
      403,
    );
  },
);

Likes(
  'concurrent toggles by one user, in one tRPC batch or at once over REST, are applied one after the other',
  async ({ app, fan, other }) => {
    await app.rest('POST', '/api/likes/toggle', {
      token: other.token,
      body: { targetType: 'set', targetId: 'wrecker' },
    });
    const state = async () =>
      (await app.rest('GET', `/api/likes/check?${query('set', 'wrecker')}`, { token: fan.token })).body.data
        .isLiked as boolean;
    for (const n of [7, 10]) {
      const before = await state();
      const { client, sent } = batchClient(app.url, { token: fan.token, maxItems: 10 });
      const answers = await Promise.all(
        Array.from({ length: n }, () =>
          client.assembly.likes.toggle.mutate({ targetType: 'set', targetId: 'wrecker' }),
        ),
      );
      assert.is(sent.requests, 1, 'one batch');
      assert.is(answers.filter((answer) => answer.isLiked).length, before ? Math.floor(n / 2) : Math.ceil(n / 2));
      for (const answer of answers) assert.is(answer.likeCount, answer.isLiked ? 2 : 1);
      const rest = await Promise.all(
        Array.from({ length: n }, () =>
          app.rest('POST', '/api/likes/toggle', { token: fan.token, body: { targetType: 'set', targetId: 'wrecker' } }),
        ),
      );
      for (const answer of rest) assert.is(answer.body.data.likeCount, answer.body.data.isLiked ? 2 : 1);
      assert.is(await state(), before, `${n} and ${n} toggles`);
      assert.is(
        (await app.rest('GET', `/api/likes/count?${query('set', 'wrecker')}`)).body.data.likeCount,
        before ? 2 : 1,
      );
    }
  },
);

Likes('user/likes and user/space/likes list assemblies and codex entries, latest like first', async ({ app }) => {
  const creator = await app.signUp();
  const liker = await app.signUp();
  const { uuid, name } = await publish(app, creator.token, { name: 'Liked dhow', shipId: 'dhow', weapons: [] });
  const like = async (targetType: string, targetId: string) => {
    app.clock.advance(1000);
    const response = await app.rest('POST', '/api/likes/toggle', {
      token: liker.token,
      body: { targetType, targetId },
    });
    assert.equal([response.status, response.body.data.isLiked], [200, true], response.text);
  };
  await like('ship', 'galleon');
  await like('assembly', uuid);
  await like('item', 'cookery');
  const mine = await app.rest('GET', '/api/user/likes', { token: liker.token });
  assert.is(mine.status, 200, mine.text);
  const [npc, assembly, ship] = mine.body.data.data;
  assert.equal(
    mine.body.data.data.map((item: any) => [item.targetType, item.targetId]),
    [
      ['npc', 'cookery'],
      ['assembly', uuid],
      ['ship', 'galleon'],
    ],
  );
  assert.equal(
    { ...npc, likedTime: 't' },
    {
      targetType: 'npc',
      targetId: 'cookery',
      name: 'Cookery',
      type: 'structure',
      rarity: null,
      season: 'release',
      likedTime: 't',
    },
  );
  assert.equal(
    [assembly.uuid, assembly.name, assembly.isLiked, assembly.shipId],
    [uuid, name, true, 'dhow'],
    'an item of GET /assembly/list',
  );
  assert.equal([ship.name, ship.type], ['Galleon', 'ships']);
  assert.ok(Date.parse(npc.likedTime) > Date.parse(assembly.likedTime));
  assert.equal(mine.body.data.pagination, { page: 1, pageSize: 20, total: 3, totalPages: 1 });
  assert.equal(await app.trpc(liker.token).user.likes.mine.query(), mine.body.data);
  // Their space: the same list, for anyone; the viewer's own isLiked on the assemblies.
  const space = await app.rest('GET', `/api/user/space/likes?userId=${liker.id}`);
  assert.equal(
    space.body.data.data.map((item: any) => item.targetId),
    ['cookery', uuid, 'galleon'],
  );
  assert.is(space.body.data.data[1].isLiked, false, 'anonymous');
  assert.equal(await app.trpc().user.likes.ofUser.query({ userId: liker.id }), space.body.data);
  const paged = await app.rest('GET', `/api/user/likes?page=2&pageSize=2`, { token: liker.token });
  assert.equal(
    paged.body.data.data.map((item: any) => item.targetId),
    ['galleon'],
  );
});

Likes.run();
