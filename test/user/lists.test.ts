// A user's lists of assemblies (issue 19): GET /user/me/assemblys, /user/space/assemblys,
// /user/likes and /user/space/likes over HTTP on both surfaces: what each shows (never a private,
// trashed or anonymous assembly in a space), paging and its bounds, errors and access, and the
// query plans (each walks an index of the user's own rows, no sort).
import { sql } from 'drizzle-orm';
import { selectUserLikes } from '../../server/domains/assembly/user-lists';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { HULK, importCommunitySample } from '../support/community-sample';
import { trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
interface TFixtures {
  app: TTestServer;
  owner: TUser;
  fan: TUser;
  other: TUser;
  /** The owner's: public, private, private with a password, trashed, anonymous, public again (newest). */
  uuids: {
    public1: string;
    private: string;
    locked: string;
    trashed: string;
    anonymous: string;
    public2: string;
    othersPublic: string;
  };
}

const Lists = suite<TFixtures>("a user's lists: own and space assemblies, likes");

async function publish(app: TTestServer, user: TUser, body: Record<string, unknown>): Promise<string> {
  const response = await app.rest('POST', '/api/assembly/publish', { token: user.token, body: { ...HULK, ...body } });
  assert.is(response.status, 200, response.text);
  return response.body.data.uuid;
}

Lists.before(async (context) => {
  const app = await startTestServer();
  context.app = app;
  await importCommunitySample(app, await signUpAdmin(app));
  context.owner = await app.signUp();
  context.fan = await app.signUp();
  context.other = await app.signUp();
  const { owner, fan, other } = context;
  const uuids = {
    public1: await publish(app, owner, { name: 'Public one' }),
    private: await publish(app, owner, { name: 'Private one', isPublic: false }),
    locked: await publish(app, owner, { name: 'Locked one', isPublic: false, password: 'open-sesame' }),
    trashed: await publish(app, owner, { name: 'Trashed one' }),
    anonymous: await publish(app, owner, { name: 'Anonymous one', assembly: { attr: { isAnonymous: true } } }),
    public2: await publish(app, owner, { name: 'Public two' }),
    othersPublic: await publish(app, other, { name: "Other's" }),
  };
  context.uuids = uuids;
  // The fan likes, in this order: public1, locked (with its password), anonymous, trashed, othersPublic.
  for (const [uuid, password] of [
    [uuids.public1],
    [uuids.locked, 'open-sesame'],
    [uuids.anonymous],
    [uuids.trashed],
    [uuids.othersPublic],
  ] as const) {
    const liked = await app.rest('POST', '/api/likes/toggle', {
      token: fan.token,
      body: { targetType: 'assembly', targetId: uuid, ...(password ? { password } : {}) },
    });
    assert.is(liked.status, 200, liked.text);
    app.clock.advance(1000);
  }
  assert.is(
    (await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: uuids.trashed } })).status,
    200,
  );
});
Lists.after(async ({ app }) => app.stop());

const names = (response: { body: { data: { data: { name: string }[] } } }) =>
  response.body.data.data.map((item) => item.name);

Lists(
  'user/me/assemblys: your own, private ones included, not the trashed, newest first; the list item form; tRPC alike',
  async ({ app, owner, other }) => {
    const response = await app.rest('GET', '/api/user/me/assemblys', { token: owner.token });
    assert.is(response.status, 200, response.text);
    assert.equal(names(response), ['Public two', 'Anonymous one', 'Locked one', 'Private one', 'Public one']);
    assert.equal(response.body.data.pagination, { page: 1, pageSize: 20, total: 5, totalPages: 1 });
    // The item form of GET /assembly/list.
    const listed = (await app.rest('GET', '/api/assembly/list?keyword=public')).body.data.data.find(
      (item: { name: string }) => item.name === 'Public two',
    );
    const mine = response.body.data.data[0];
    assert.equal(Object.keys(mine).sort(), Object.keys(listed).sort());
    assert.equal({ ...mine, views: 0 }, { ...listed, views: 0 });
    assert.is(response.headers.get('cache-control'), 'private, no-cache');
    const viaTrpc = await app.trpc(owner.token).user.assemblies.mine.query();
    assert.equal(
      viaTrpc.data.map((item) => item.name),
      names(response),
    );
    // Another user sees their own.
    assert.equal(names(await app.rest('GET', '/api/user/me/assemblys', { token: other.token })), ["Other's"]);
  },
);

Lists(
  "user/space/assemblys: public, listable and credited only, for anyone (no token, a stranger, the owner); the viewer's isLiked",
  async ({ app, owner, fan, other, uuids }) => {
    for (const [who, token] of [
      ['anonymous', undefined],
      ['a stranger', other.token],
      ['the fan', fan.token],
      ['the owner', owner.token],
    ] as const) {
      const response = await app.rest('GET', `/api/user/space/assemblys?userId=${owner.id}&page=1&pageSize=10`, {
        token,
      });
      assert.is(response.status, 200, response.text);
      assert.equal(names(response), ['Public two', 'Public one'], who);
      assert.is(response.body.data.pagination.total, 2);
      for (const hidden of [uuids.private, uuids.locked, uuids.trashed, uuids.anonymous])
        assert.not.ok(response.text.includes(hidden), `${who}: ${hidden} never shown`);
      const liked = response.body.data.data.find((item: { uuid: string }) => item.uuid === uuids.public1).isLiked;
      assert.is(liked, who === 'the fan', `${who}: isLiked is the viewer's own`);
      const viaTrpc = await app.trpc(token).user.assemblies.ofUser.query({ userId: owner.id, pageSize: 10 });
      assert.equal(viaTrpc, response.body.data, `${who} on tRPC`);
    }
  },
);

Lists(
  'user/likes and user/space/likes: the public assemblies liked, latest like first; never a private or trashed one',
  async ({ app, owner, fan, other, uuids }) => {
    const own = await app.rest('GET', '/api/user/likes', { token: fan.token });
    assert.is(own.status, 200, own.text);
    assert.equal(names(own), ["Other's", 'Anonymous one', 'Public one']);
    assert.ok(own.body.data.data.every((item: { isLiked: boolean }) => item.isLiked));
    const anonymousItem = own.body.data.data.find((item: { uuid: string }) => item.uuid === uuids.anonymous);
    assert.equal([anonymousItem.userId, anonymousItem.username], [null, ''], 'an anonymous assembly stays anonymous');
    assert.not.ok(own.text.includes(uuids.locked), 'liked with its password, still private: not listed');
    assert.equal(
      (await app.trpc(fan.token).user.likes.mine.query()).data.map((item) => item.name),
      names(own),
    );
    for (const [who, token] of [
      ['anonymous', undefined],
      ['a stranger', other.token],
      ['the fan', fan.token],
    ] as const) {
      const space = await app.rest('GET', `/api/user/space/likes?userId=${fan.id}`, { token });
      assert.is(space.status, 200, space.text);
      assert.equal(names(space), ["Other's", 'Anonymous one', 'Public one'], who);
      assert.ok(
        space.body.data.data.every((item: { isLiked: boolean }) => item.isLiked === (who === 'the fan')),
        `${who}: isLiked`,
      );
      assert.equal(
        await app.trpc(token).user.likes.ofUser.query({ userId: fan.id }),
        space.body.data,
        `${who} on tRPC`,
      );
    }
    // An owner's likes list is empty (they liked nothing).
    assert.equal(names(await app.rest('GET', '/api/user/likes', { token: owner.token })), []);
  },
);

Lists(
  'paging: pageSize and page, totals; bounds: pageSize over 100, a window over 10,000, unknown keys are 400',
  async ({ app, owner, fan }) => {
    const second = await app.rest('GET', '/api/user/me/assemblys?page=2&pageSize=2', { token: owner.token });
    assert.equal(names(second), ['Locked one', 'Private one']);
    assert.equal(second.body.data.pagination, { page: 2, pageSize: 2, total: 5, totalPages: 3 });
    const past = await app.rest('GET', `/api/user/space/likes?userId=${fan.id}&page=9&pageSize=2`);
    assert.equal([names(past), past.body.data.pagination.total], [[], 3]);
    for (const [path, token, message] of [
      ['/api/user/me/assemblys?pageSize=101', owner.token, 'pageSize'],
      ['/api/user/likes?page=0', fan.token, 'page'],
      ['/api/user/likes?page=101&pageSize=100', fan.token, 'at most 10000'],
      [`/api/user/space/assemblys?userId=${owner.id}&page=10001`, undefined, 'at most 10000'],
      [`/api/user/space/assemblys?userId=${owner.id}&sort=hottest`, undefined, 'Unrecognized key'],
      // The web client's space page (Space.vue:177) spreads the user id into the query of user/me/assemblys: refused, not guessed at.
      ['/api/user/me/assemblys?0=a&1=b', owner.token, 'Unrecognized keys'],
      ['/api/user/space/likes', undefined, 'userId'],
      [`/api/user/space/likes?userId=${'x'.repeat(65)}`, undefined, 'userId'],
    ] as const) {
      const response = await app.rest('GET', path, { token });
      assert.is(response.status, 400, `${path}: ${response.text.slice(0, 200)}`);
      assert.match(`${response.body.message} ${JSON.stringify(response.body.data.issues)}`, message, path);
    }
    assert.is((await trpcError(app.trpc(owner.token).user.assemblies.mine.query({ pageSize: 101 }))).status, 400);
    assert.is(
      (await trpcError(app.trpc().user.likes.ofUser.query({ userId: fan.id, page: 101, pageSize: 100 }))).status,
      400,
    );
  },
);

Lists('errors: 401 for your own lists without a token, 404 for the space of an unknown user', async ({ app }) => {
  for (const path of ['/api/user/me/assemblys', '/api/user/likes']) {
    const response = await app.rest('GET', path);
    assert.equal([response.status, response.body.data.key], [401, 'user.invalid'], path);
    assert.is(
      (await app.rest('GET', path, { token: 'forgedtokenforgedtokenforgedtoke' })).body.data.key,
      'user.tokenExpired',
    );
  }
  assert.is((await trpcError(app.trpc().user.assemblies.mine.query())).status, 401);
  assert.is((await trpcError(app.trpc().user.likes.mine.query())).status, 401);
  const unknown = '00000000-0000-4000-8000-000000000000';
  for (const path of [`/api/user/space/assemblys?userId=${unknown}`, `/api/user/space/likes?userId=${unknown}`]) {
    const response = await app.rest('GET', path);
    assert.equal([response.status, response.body.data.key], [404, 'user.notFound'], path);
  }
  assert.is((await trpcError(app.trpc().user.assemblies.ofUser.query({ userId: unknown }))).status, 404);
  assert.is((await trpcError(app.trpc().user.likes.ofUser.query({ userId: unknown }))).status, 404);
});

Lists(
  'a write shows at once: trashing drops an assembly from every list, restoring brings it back',
  async ({ app, owner, fan, uuids }) => {
    assert.is(
      (await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: uuids.public1 } })).status,
      200,
    );
    assert.not.ok(names(await app.rest('GET', `/api/user/space/assemblys?userId=${owner.id}`)).includes('Public one'));
    assert.not.ok(names(await app.rest('GET', '/api/user/likes', { token: fan.token })).includes('Public one'));
    assert.not.ok(
      names(await app.rest('GET', '/api/user/me/assemblys', { token: owner.token })).includes('Public one'),
    );
    assert.is(
      (await app.rest('POST', '/api/assembly/restore', { token: owner.token, body: { uuid: uuids.public1 } })).status,
      200,
    );
    assert.ok(names(await app.rest('GET', `/api/user/space/likes?userId=${fan.id}`)).includes('Public one'));
  },
);

Lists("query plans: each list walks an index of the user's rows, without a temporary sort", async ({ app, owner }) => {
  const plan = async (query: string) =>
    (await app.database.db.all<{ detail: string }>(sql.raw(`explain query plan ${query}`)))
      .map((row) => row.detail)
      .join(' | ');
  const own = await plan(
    `select id from assemblies where creator_id = '${owner.id}' and deleted_at is null order by id desc limit 20`,
  );
  assert.match(own, /USING (COVERING )?INDEX assemblies_creator/);
  assert.not.match(own, /TEMP B-TREE/);
  // user/likes across target types (issue 34): the service's own query, test/codex/query-plans.test.ts.
  const { sql: text, params } = selectUserLikes(app.database.db, owner.id).limit(20).toSQL();
  let at = 0;
  const likes = await plan(text.replace(/\?/g, () => `'${String(params[at++])}'`));
  assert.match(likes, /likes USING INDEX likes_user/);
  assert.not.match(likes, /TEMP B-TREE/);
});

Lists.run();
