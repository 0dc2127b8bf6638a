// Sharing a collection with named users (the web client's sharedUsers): who may read a shared
// non-public collection and its points, that shared users do not change it, what each caller sees of
// the share list, and the input rules; over HTTP on both surfaces.
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { count, eq } from 'drizzle-orm';
import superjson from 'superjson';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { mapCollectionShares } from '../../db/schema';
import type { AppRouter } from '../../server/router';
import { startTestServer, type TTestServer } from '../support/helpers';
import { trpcError } from '../support/http-clients';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
const Sharing = suite<{ app: TTestServer; owner: TUser; friend: TUser; other: TUser; stranger: TUser }>(
  'map collection sharing',
);

Sharing.before(async (context) => {
  context.app = await startTestServer();
  context.owner = await context.app.signUp();
  context.friend = await context.app.signUp();
  context.other = await context.app.signUp();
  context.stranger = await context.app.signUp();
});
Sharing.after(async ({ app }) => app.stop());

Sharing(
  'a shared non-public collection: its users read it and its points; strangers and anonymous get 404',
  async ({ app, owner, friend, other, stranger }) => {
    // The web client's form (maps.vue): names typed into the combobox; a user id works too, any case for names.
    const created = await app.rest('POST', '/api/map/collection', {
      token: owner.token,
      body: {
        title: 'Secret route',
        description: '',
        public: 0,
        sharedUsers: [friend.username.toUpperCase(), other.id, friend.username],
      },
    });
    assert.is(created.status, 200, created.text);
    const collection = created.body.data;
    assert.equal(
      collection.sharedUsers,
      [friend.username, other.username].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
      'usernames, each once, for the author',
    );
    const point = await app
      .trpc(owner.token)
      .map.points.create.mutate({ collectionUuid: collection.uuid, title: 'Waypoint', latitude: 1, longitude: 1 });

    for (const [who, token, status] of [
      ['friend', friend.token, 200],
      ['other', other.token, 200],
      ['stranger', stranger.token, 404],
      ['anonymous', undefined, 404],
    ] as const) {
      const read = await app.rest('GET', `/api/map/collection/${collection.uuid}`, { token });
      assert.is(read.status, status, `collection for ${who}`);
      if (status === 200) {
        assert.equal(read.body.data.sharedUsers, [], `${who} does not see who else it is shared with`);
        assert.is(read.headers.get('cache-control'), 'private, no-store');
        assert.is(read.body.data.points[0].uuid, point.uuid);
      }
      assert.is(
        (await app.rest('GET', `/api/map/collections/${collection.uuid}/points`, { token })).status,
        status,
        `points for ${who}`,
      );
      assert.is((await app.rest('GET', `/api/map/point/${point.uuid}`, { token })).status, status, `point for ${who}`);
      const twin = app.trpc(token).map.get.query({ uuid: collection.uuid });
      if (status === 200) assert.is((await twin).title, 'Secret route');
      else assert.is((await trpcError(twin)).status, 404);
      const pointTwin = app.trpc(token).map.points.get.query({ uuid: point.uuid });
      if (status === 200) assert.is((await pointTwin).title, 'Waypoint');
      else assert.is((await trpcError(pointTwin)).status, 404);
    }

    // The caller's own points in a collection they can read: none of the friend's are in it; a stranger: 404.
    assert.equal(
      (await app.rest('GET', `/api/map/user/points?collectionUuid=${collection.uuid}`, { token: friend.token })).body
        .data.data,
      [],
    );
    assert.is(
      (await app.rest('GET', `/api/map/user/points?collectionUuid=${collection.uuid}`, { token: stranger.token }))
        .status,
      404,
    );
    assert.equal(
      (await app.trpc(owner.token).map.points.listOwn.query({ collectionUuid: collection.uuid })).data.map(
        (p) => p.uuid,
      ),
      [point.uuid],
    );

    // Shared users read; they do not change anything: 403 (they can see it).
    const friendClient = app.trpc(friend.token);
    assert.is(
      (
        await app.rest('PUT', `/api/map/collection/${collection.uuid}`, {
          token: friend.token,
          body: { title: 'mine' },
        })
      ).status,
      403,
    );
    assert.is(
      (await app.rest('DELETE', `/api/map/collection/${collection.uuid}`, { token: friend.token })).status,
      403,
    );
    assert.is((await trpcError(friendClient.map.update.mutate({ uuid: collection.uuid, title: 'x' }))).status, 403);
    assert.is(
      (await app.rest('PUT', `/api/map/point/${point.uuid}`, { token: friend.token, body: { title: 'mine' } })).status,
      403,
    );
    assert.is((await trpcError(friendClient.map.points.delete.mutate({ uuid: point.uuid }))).status, 403);
    assert.is(
      (
        await app.rest('POST', '/api/map/point', {
          token: friend.token,
          body: { collectionUuid: collection.uuid, title: 'x', latitude: 0, longitude: 0 },
        })
      ).status,
      403,
    );
    const own = await friendClient.map.points.create.mutate({ title: 'friend point', latitude: 0, longitude: 0 });
    assert.is(
      (
        await app.rest('POST', `/api/map/collection/${collection.uuid}/points`, {
          token: friend.token,
          body: { pointUuids: [own.uuid] },
        })
      ).status,
      403,
    );
    assert.is(
      (
        await app.rest('DELETE', `/api/map/collection/${collection.uuid}/points`, {
          token: friend.token,
          body: { pointUuids: [point.uuid] },
        })
      ).status,
      403,
    );
    // ... and the stranger is told nothing exists.
    assert.is(
      (
        await app.rest('PUT', `/api/map/collection/${collection.uuid}`, {
          token: stranger.token,
          body: { title: 'mine' },
        })
      ).status,
      404,
    );
    assert.is(
      (
        await app.rest('POST', `/api/map/collection/${collection.uuid}/points`, {
          token: stranger.token,
          body: { pointUuids: [point.uuid] },
        })
      ).status,
      404,
    );
    assert.is(
      (await app.trpc(owner.token).map.get.query({ uuid: collection.uuid })).title,
      'Secret route',
      'unchanged',
    );

    // The share list is the author's: listed with her collections, and replaced on update.
    const listed = await app.rest('GET', '/api/map/collections', { token: owner.token });
    assert.is(listed.body.data.data.find((item: any) => item.uuid === collection.uuid).sharedUsers.length, 2);
    const narrowed = await app.rest('PUT', `/api/map/collection/${collection.uuid}`, {
      token: owner.token,
      body: { sharedUsers: [other.username] },
    });
    assert.equal(narrowed.body.data.sharedUsers, [other.username]);
    assert.is(
      (await app.rest('GET', `/api/map/collection/${collection.uuid}`, { token: friend.token })).status,
      404,
      'unshared: gone for the friend',
    );
    assert.is((await app.rest('GET', `/api/map/point/${point.uuid}`, { token: friend.token })).status, 404);
    const untouched = await app.trpc(owner.token).map.update.mutate({ uuid: collection.uuid, title: 'Renamed' });
    assert.equal(untouched.sharedUsers, [other.username], 'sharedUsers left out: shares unchanged');
    const cleared = await app.trpc(owner.token).map.update.mutate({ uuid: collection.uuid, sharedUsers: [] });
    assert.equal(cleared.sharedUsers, []);
    assert.is((await app.rest('GET', `/api/map/collection/${collection.uuid}`, { token: other.token })).status, 404);

    // Deleting the collection deletes its shares and its points.
    await app.trpc(owner.token).map.update.mutate({ uuid: collection.uuid, sharedUsers: [friend.id] });
    await app.trpc(owner.token).map.delete.mutate({ uuid: collection.uuid });
    const left = await app.database.db
      .select({ n: count() })
      .from(mapCollectionShares)
      .where(eq(mapCollectionShares.collectionId, collection.uuid))
      .get();
    assert.is(left?.n, 0);
    assert.is((await app.rest('GET', `/api/map/point/${point.uuid}`, { token: owner.token })).status, 404);
  },
);

Sharing(
  'sharedUsers input: unknown users, the author, too many, wrong types are a 400 naming the entry; nothing written',
  async ({ app, owner, friend }) => {
    const cases: [unknown, RegExp][] = [
      [['nobody-here'], /sharedUsers\[0\]: no user "nobody-here"/],
      [[friend.username, '00000000-0000-4000-8000-000000000000'], /sharedUsers\[1\]: no user/],
      [[owner.username], /sharedUsers\[0\]: is the author/],
      [[owner.id], /sharedUsers\[0\]: is the author/],
      [[''], /sharedUsers\[0\]: must not be empty/],
      [['x'.repeat(65)], /sharedUsers\[0\]: must be at most 64/],
      [Array.from({ length: 51 }, (_, i) => `u${i}`), /sharedUsers: at most 50 users/],
      ['bob', /sharedUsers/],
      [[42], /sharedUsers\[0\]/],
    ];
    for (const [sharedUsers, message] of cases) {
      const response = await app.rest('POST', '/api/map/collection', {
        token: owner.token,
        body: { title: 'refused', public: 0, sharedUsers },
      });
      assert.is(response.status, 400, JSON.stringify(sharedUsers));
      assert.match(response.body.message, message);
    }
    assert.equal(
      (await app.trpc(owner.token).map.listOwn.query()).data.filter((item) => item.title === 'refused'),
      [],
      'nothing written',
    );
    const viaTrpc = await trpcError(
      app.trpc(owner.token).map.create.mutate({ title: 'refused', sharedUsers: ['nobody-here'] }),
    );
    assert.is(viaTrpc.status, 400);
    assert.match(viaTrpc.message, /sharedUsers\[0\]/);
    const fifty = await app.signUp();
    assert.is(
      (await app.trpc(owner.token).map.create.mutate({ title: 'fine', sharedUsers: [fifty.username] })).sharedUsers
        .length,
      1,
    );
  },
);

Sharing('ten share updates in one tRPC batch: the shares are exactly one of the lists sent', async ({ app, owner }) => {
  const users = await Promise.all(Array.from({ length: 4 }, () => app.signUp()));
  const collection = await app.trpc(owner.token).map.create.mutate({ title: 'Batch', isPublic: false });
  const batch = createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${app.url}/trpc`,
        transformer: superjson,
        maxItems: 10,
        headers: () => ({ authorization: `Bearer ${owner.token}` }),
      }),
    ],
  });
  const lists = Array.from({ length: 10 }, (_, i) =>
    users.filter((_, j) => (i + j) % 2 === 0).map((user) => user.username),
  );
  const answers = await Promise.all(
    lists.map((sharedUsers) => batch.map.update.mutate({ uuid: collection.uuid, sharedUsers })),
  );
  const final = (await app.trpc(owner.token).map.get.query({ uuid: collection.uuid })).sharedUsers;
  assert.ok(
    answers.some((answer) => JSON.stringify(answer.sharedUsers) === JSON.stringify(final)),
    'one call wrote them all',
  );
  const rows = await app.database.db
    .select({ n: count() })
    .from(mapCollectionShares)
    .where(eq(mapCollectionShares.collectionId, collection.uuid))
    .get();
  assert.is(rows?.n, final.length, 'no share rows of two calls mixed');
});

Sharing.run();
