// Map points as their own resource (issue 19): POST/GET/PUT/DELETE /map/point, the caller's points and
// orphans, a collection's points, moving points in and out of collections, the global uuid rule of the
// contract's embedded points, and the limits under concurrency; over HTTP on both surfaces.
import { count, eq } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { mapCollections, mapPoints } from '../../db/schema';
import { MAX_POINTS_PER_USER } from '../../server/domains/map/schemas';
import { batchClient, startTestServer, trpcError, type TTestServer } from '../support/helpers';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
const Points = suite<{ app: TTestServer; alice: TUser; bob: TUser }>('map points');
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

Points.before(async (context) => {
  context.app = await startTestServer({ TRPC_MAX_BATCH_SIZE: 20 });
  context.alice = await context.app.signUp();
  context.bob = await context.app.signUp();
});
Points.after(async ({ app }) => app.stop());

async function ok(response: { status: number; text: string; body: any }) {
  assert.is(response.status, 200, response.text);
  return response.body.data;
}

const point = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  description: '',
  latitude: 0.62,
  longitude: -0.66,
  address: '',
  tags: [],
  public: false,
  sharedUsers: [],
  ...extra,
});

Points(
  'POST map/point as the web client sends it: into a collection or as an orphan; GET, PUT, DELETE by the owner',
  async ({ app, alice }) => {
    const collection = await ok(
      await app.rest('POST', '/api/map/collection', {
        token: alice.token,
        body: { title: 'Markers', public: 0, sharedUsers: [] },
      }),
    );
    const created = await ok(
      await app.rest('POST', '/api/map/point', {
        token: alice.token,
        body: point('Hidden cove', { collectionUuid: collection.uuid, address: 'North shore', tags: ['cove'] }),
      }),
    );
    assert.is(created.id, created.uuid);
    assert.is(created.userId, alice.id);
    assert.is(created.collectionId, collection.uuid);
    assert.equal(
      [created.title, created.description, created.address, created.tags, created.public, created.sharedUsers],
      ['Hidden cove', '', 'North shore', ['cove'], 0, []],
    );
    assert.equal([created.latitude, created.longitude], [0.62, -0.66]);
    const detail = await app.rest('GET', `/api/map/collection/${collection.uuid}`, { token: alice.token });
    assert.is(detail.body.data.pointCount, 1);
    assert.equal(
      detail.body.data.points.map((p: any) => p.uuid),
      [created.uuid],
      'the contract read lists it',
    );

    for (const collectionUuid of ['', null, undefined]) {
      const orphan = await ok(
        await app.rest('POST', '/api/map/point', { token: alice.token, body: point('Loose', { collectionUuid }) }),
      );
      assert.is(orphan.collectionId, null, `collectionUuid ${JSON.stringify(collectionUuid)}: an orphan`);
    }

    const read = await app.rest('GET', `/api/map/point/${created.uuid}`, { token: alice.token });
    assert.equal(await ok(read), created);
    app.clock.advance(1000);
    const edited = await ok(
      await app.rest('PUT', `/api/map/point/${created.uuid}`, {
        token: alice.token,
        body: { title: 'Cove', latitude: 1, address: null, public: 1 },
      }),
    );
    assert.equal(
      [edited.title, edited.latitude, edited.longitude, edited.address, edited.public],
      ['Cove', 1, -0.66, null, 1],
    );
    assert.ok(edited.updatedAt > created.updatedAt);
    const viaTrpc = await app
      .trpc(alice.token)
      .map.points.update.mutate({ uuid: created.uuid, tags: ['a', 'b'], isPublic: false });
    assert.equal([viaTrpc.tags, viaTrpc.public], [['a', 'b'], 0]);
    assert.equal(await app.trpc(alice.token).map.points.get.query({ uuid: created.uuid }), viaTrpc);

    const deleted = await app.rest('DELETE', `/api/map/point/${created.uuid}`, { token: alice.token });
    assert.equal(await ok(deleted), { uuid: created.uuid, deleted: true });
    assert.is((await app.rest('GET', `/api/map/point/${created.uuid}`, { token: alice.token })).status, 404);
    assert.is(
      (await app.rest('GET', `/api/map/collection/${collection.uuid}`, { token: alice.token })).body.data.pointCount,
      0,
      'the count follows',
    );
    const second = await app
      .trpc(alice.token)
      .map.points.create.mutate({ title: 'tRPC point', latitude: -5, longitude: 5 });
    assert.equal(await app.trpc(alice.token).map.points.delete.mutate({ uuid: second.uuid }), {
      uuid: second.uuid,
      deleted: true,
    });
  },
);

Points(
  'errors: 400 naming the field, 401 without a token, 404 unknown, 403/404 for others, on both surfaces',
  async ({ app, alice, bob }) => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [point('x', { latitude: 91 }), /latitude: must be between -90 and 90/],
      [point('x', { longitude: '12' }), /longitude/],
      [point(''), /title/],
      [point('x', { tags: ['y'.repeat(25)] }), /tags\[0\]/],
      [point('x', { address: 'a'.repeat(201) }), /address: must be at most 200/],
      [point('x', { sharedUsers: ['bob'] }), /sharedUsers: a point is shared through its collection/],
      [point('x', { collectionUuid: 'nope' }), /collectionUuid/],
      [point('x', { public: 1, isPublic: false }), /public: disagrees with isPublic/],
      [point('x', { colour: 'red' }), /Unrecognized key: "colour"/],
    ];
    for (const [body, message] of cases) {
      const response = await app.rest('POST', '/api/map/point', { token: alice.token, body });
      assert.is(response.status, 400, JSON.stringify(body));
      assert.match(response.body.message, message);
    }
    assert.is(
      (await trpcError(app.trpc(alice.token).map.points.create.mutate({ title: 'x', latitude: 100, longitude: 0 })))
        .status,
      400,
    );
    const empty = await app.rest('PUT', `/api/map/point/${UNKNOWN}`, { token: alice.token, body: {} });
    assert.is(empty.status, 400);
    assert.match(empty.body.message, /give at least one of/);
    assert.is((await app.rest('GET', '/api/map/point/not-a-uuid')).status, 400);

    assert.is((await app.rest('POST', '/api/map/point', { body: point('x') })).status, 401);
    assert.is(
      (await trpcError(app.trpc().map.points.create.mutate({ title: 'x', latitude: 0, longitude: 0 }))).status,
      401,
    );
    for (const [method, body] of [
      ['PUT', { title: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      assert.is((await app.rest(method, `/api/map/point/${UNKNOWN}`, { body })).status, 401);
      assert.is((await app.rest(method, `/api/map/point/${UNKNOWN}`, { token: alice.token, body })).status, 404);
    }
    assert.is((await app.rest('GET', `/api/map/point/${UNKNOWN}`)).status, 404);

    const open = await ok(
      await app.rest('POST', '/api/map/collection', { token: alice.token, body: { title: 'Open' } }),
    );
    const closed = await ok(
      await app.rest('POST', '/api/map/collection', { token: alice.token, body: { title: 'Closed', public: 0 } }),
    );
    const visible = await app
      .trpc(alice.token)
      .map.points.create.mutate({ collectionUuid: open.uuid, title: 'Visible', latitude: 0, longitude: 0 });
    const hidden = await app
      .trpc(alice.token)
      .map.points.create.mutate({ collectionUuid: closed.uuid, title: 'Hidden', latitude: 0, longitude: 0 });
    const privateOrphan = await app
      .trpc(alice.token)
      .map.points.create.mutate({ title: 'Private orphan', latitude: 0, longitude: 0 });
    const publicOrphan = await app
      .trpc(alice.token)
      .map.points.create.mutate({ title: 'Public orphan', latitude: 0, longitude: 0, public: true });

    // Reads: a point is as visible as its collection; an orphan by its own flag.
    for (const [target, readable] of [
      [visible, true],
      [hidden, false],
      [privateOrphan, false],
      [publicOrphan, true],
    ] as const) {
      for (const token of [undefined, bob.token]) {
        const response = await app.rest('GET', `/api/map/point/${target.uuid}`, { token });
        assert.is(response.status, readable ? 200 : 404, `${target.title} for ${token ? 'bob' : 'anonymous'}`);
        if (!readable) assert.is(response.body.message, 'Map point not found');
        const twin = app.trpc(token).map.points.get.query({ uuid: target.uuid });
        if (readable) assert.is((await twin).uuid, target.uuid);
        else assert.is((await trpcError(twin)).status, 404);
      }
      // Writes by someone else: 403 where they can read it, 404 where they cannot.
      const put = await app.rest('PUT', `/api/map/point/${target.uuid}`, { token: bob.token, body: { title: 'mine' } });
      assert.is(put.status, readable ? 403 : 404, `PUT ${target.title}`);
      if (readable) assert.is(put.body.message, 'Only its owner may edit this point');
      assert.is(
        (await app.rest('DELETE', `/api/map/point/${target.uuid}`, { token: bob.token })).status,
        readable ? 403 : 404,
      );
      assert.is(
        (await trpcError(app.trpc(bob.token).map.points.update.mutate({ uuid: target.uuid, title: 'x' }))).status,
        readable ? 403 : 404,
      );
      assert.is(
        (await trpcError(app.trpc(bob.token).map.points.delete.mutate({ uuid: target.uuid }))).status,
        readable ? 403 : 404,
      );
    }
    assert.is(
      (await app.trpc(alice.token).map.points.get.query({ uuid: privateOrphan.uuid })).title,
      'Private orphan',
      'the owner reads her own',
    );

    // Someone else's collection: 403 if readable, 404 if not.
    assert.is(
      (await app.rest('POST', '/api/map/point', { token: bob.token, body: point('x', { collectionUuid: open.uuid }) }))
        .status,
      403,
    );
    assert.is(
      (
        await app.rest('POST', '/api/map/point', {
          token: bob.token,
          body: point('x', { collectionUuid: closed.uuid }),
        })
      ).status,
      404,
    );
    assert.is(
      (await app.rest('POST', '/api/map/point', { token: bob.token, body: point('x', { collectionUuid: UNKNOWN }) }))
        .status,
      404,
    );
    assert.is(
      (
        await trpcError(
          app
            .trpc(bob.token)
            .map.points.create.mutate({ collectionUuid: open.uuid, title: 'x', latitude: 0, longitude: 0 }),
        )
      ).status,
      403,
    );
    assert.is((await app.rest('GET', `/api/map/point/${visible.uuid}`)).body.data.title, 'Visible', 'nothing changed');
  },
);

Points(
  'GET map/user/points, map/user/orphan-points and map/collections/{uuid}/points: pages, order, access',
  async ({ app, bob }) => {
    const carol = await app.signUp();
    const trpc = app.trpc(carol.token);
    const collection = await trpc.map.create.mutate({
      title: 'Route',
      isPublic: false,
      points: [
        { title: 'first', latitude: 0, longitude: 0 },
        { title: 'second', latitude: 1, longitude: 1 },
      ],
    });
    app.clock.advance(1000);
    await trpc.map.points.create.mutate({ collectionUuid: collection.uuid, title: 'third', latitude: 2, longitude: 2 });
    app.clock.advance(1000);
    await trpc.map.points.create.mutate({ title: 'orphan A', latitude: 3, longitude: 3 });
    app.clock.advance(1000);
    await trpc.map.points.create.mutate({ title: 'orphan B', latitude: 4, longitude: 4 });
    await app.trpc(bob.token).map.points.create.mutate({ title: "bob's", latitude: 4, longitude: 4, public: true });

    const mine = await app.rest('GET', '/api/map/user/points?page=1&pageSize=2', { token: carol.token });
    assert.equal(
      (await ok(mine)).data.map((p: any) => p.title),
      ['orphan B', 'orphan A'],
      'newest change first',
    );
    assert.equal(mine.body.data.pagination, { page: 1, pageSize: 2, total: 5, totalPages: 3 });
    const inCollection = await ok(
      await app.rest('GET', `/api/map/user/points?collectionUuid=${collection.uuid}`, { token: carol.token }),
    );
    assert.equal(
      inCollection.data.map((p: any) => p.title),
      ['first', 'second', 'third'],
      "the collection's order",
    );
    assert.ok(inCollection.data.every((p: any) => p.collectionId === collection.uuid));
    const orphans = await trpc.map.points.listOrphans.query({ pageSize: 10 });
    assert.equal(
      orphans.data.map((p) => p.title),
      ['orphan B', 'orphan A'],
    );
    assert.equal(
      (await app.trpc(bob.token).map.points.listOrphans.query()).data.map((p) => p.title),
      ["bob's"],
      "only the caller's",
    );
    const last = (await trpc.map.points.listOwn.query({ page: 3, pageSize: 2 })).data.map((p) => p.title);
    assert.is(last.length, 1);
    assert.ok(['first', 'second'].includes(last[0]!), 'the two written together come last (ties by uuid)');

    const page = await app.rest('GET', `/api/map/collections/${collection.uuid}/points?pageSize=2&page=2`, {
      token: carol.token,
    });
    assert.equal(
      (await ok(page)).data.map((p: any) => p.title),
      ['third'],
    );
    assert.equal(page.body.data.pagination, { page: 2, pageSize: 2, total: 3, totalPages: 2 });
    assert.is((await trpc.map.points.listInCollection.query({ uuid: collection.uuid })).data.length, 3);
    // A non-public collection's points: 404 for others, on both surfaces; public: anyone.
    assert.is((await app.rest('GET', `/api/map/collections/${collection.uuid}/points`)).status, 404);
    assert.is(
      (await app.rest('GET', `/api/map/collections/${collection.uuid}/points`, { token: bob.token })).status,
      404,
    );
    assert.is(
      (await trpcError(app.trpc(bob.token).map.points.listInCollection.query({ uuid: collection.uuid }))).status,
      404,
    );
    assert.is(
      (await app.rest('GET', `/api/map/user/points?collectionUuid=${collection.uuid}`, { token: bob.token })).status,
      404,
    );
    await trpc.map.update.mutate({ uuid: collection.uuid, isPublic: true });
    assert.is((await ok(await app.rest('GET', `/api/map/collections/${collection.uuid}/points`))).data.length, 3);
    assert.equal(
      (await ok(await app.rest('GET', `/api/map/user/points?collectionUuid=${collection.uuid}`, { token: bob.token })))
        .data,
      [],
      "bob has no points in carol's",
    );

    for (const path of ['/api/map/user/points', '/api/map/user/orphan-points']) {
      assert.is((await app.rest('GET', path)).status, 401);
      const big = await app.rest('GET', `${path}?pageSize=101`, { token: carol.token });
      assert.is(big.status, 400);
      assert.match(big.body.message, /pageSize/);
      assert.match(
        (await app.rest('GET', `${path}?sort=x`, { token: carol.token })).body.message,
        /Unrecognized key: "sort"/,
      );
    }
    assert.is((await trpcError(app.trpc().map.points.listOwn.query({}))).status, 401);
    assert.is((await trpcError(app.trpc().map.points.listOrphans.query({}))).status, 401);
    assert.is((await app.rest('GET', `/api/map/collections/${UNKNOWN}/points`)).status, 404);
    assert.is((await app.rest('GET', '/api/map/user/points?collectionUuid=nope', { token: carol.token })).status, 400);
  },
);

Points(
  'orphan lifecycle: removed from a collection a point is an orphan; added back it leaves the orphans',
  async ({ app, bob }) => {
    const dave = await app.signUp();
    const trpc = app.trpc(dave.token);
    const a = await trpc.map.create.mutate({
      title: 'A',
      points: [
        { title: 'p1', latitude: 0, longitude: 0 },
        { title: 'p2', latitude: 0, longitude: 0 },
      ],
    });
    const b = await trpc.map.create.mutate({ title: 'B', isPublic: false });
    const [p1, p2] = a.points.map((p) => p.uuid);

    const removed = await app.rest('DELETE', `/api/map/collection/${a.uuid}/points`, {
      token: dave.token,
      body: { pointUuids: [p1] },
    });
    assert.equal((await ok(removed)).pointUuids, [p1]);
    assert.is(removed.body.data.collection.pointCount, 1);
    assert.equal(
      (await trpc.map.points.listOrphans.query()).data.map((p) => p.uuid),
      [p1],
    );
    assert.is((await trpc.map.points.get.query({ uuid: p1! })).collectionId, null);
    assert.is(
      (await app.rest('GET', `/api/map/point/${p1}`)).status,
      404,
      'an orphan is private unless its own flag says public',
    );
    assert.equal(
      (
        await ok(
          await app.rest('DELETE', `/api/map/collection/${a.uuid}/points`, {
            token: dave.token,
            body: { pointUuids: [p1] },
          }),
        )
      ).pointUuids,
      [],
      'again: nothing to do',
    );

    const added = await app.rest('POST', `/api/map/collection/${b.uuid}/points`, {
      token: dave.token,
      body: { pointUuids: [p1, p2, p1] },
    });
    assert.equal((await ok(added)).pointUuids, [p1, p2], 'each once, in the order given');
    assert.is(added.body.data.collection.pointCount, 2);
    assert.equal(
      (await trpc.map.get.query({ uuid: b.uuid })).points.map((p) => p.uuid),
      [p1, p2],
    );
    assert.equal((await trpc.map.get.query({ uuid: a.uuid })).pointCount, 0, 'p2 left A');
    assert.equal((await trpc.map.points.listOrphans.query()).data, []);
    const back = await trpc.map.points.addToCollection.mutate({ uuid: a.uuid, pointUuids: [p2!] });
    assert.equal([back.pointUuids, back.collection.pointCount], [[p2], 1]);
    const out = await trpc.map.points.removeFromCollection.mutate({ uuid: b.uuid, pointUuids: [p1!] });
    assert.equal([out.pointUuids, out.collection.pointCount], [[p1], 0]);

    // Errors: 401, 404/403 for others' collections and points, 400 input, 409 past 1,000.
    assert.is(
      (await app.rest('POST', `/api/map/collection/${a.uuid}/points`, { body: { pointUuids: [p1] } })).status,
      401,
    );
    assert.is(
      (await app.rest('DELETE', `/api/map/collection/${a.uuid}/points`, { body: { pointUuids: [p1] } })).status,
      401,
    );
    assert.is(
      (await app.rest('POST', `/api/map/collection/${a.uuid}/points`, { token: bob.token, body: { pointUuids: [p1] } }))
        .status,
      403,
      'public collection',
    );
    assert.is(
      (
        await app.rest('DELETE', `/api/map/collection/${b.uuid}/points`, {
          token: bob.token,
          body: { pointUuids: [p1] },
        })
      ).status,
      404,
      'private one',
    );
    assert.is(
      (await trpcError(app.trpc(bob.token).map.points.addToCollection.mutate({ uuid: b.uuid, pointUuids: [p1!] })))
        .status,
      404,
    );
    const bobsOwn = await app.trpc(bob.token).map.create.mutate({ title: "Bob's" });
    const foreign = await app.rest('POST', `/api/map/collection/${bobsOwn.uuid}/points`, {
      token: bob.token,
      body: { pointUuids: [UNKNOWN] },
    });
    assert.is(foreign.status, 404);
    assert.match(foreign.body.message, /pointUuids\[0\]: Map point not found/);
    const visible = await app.rest('POST', `/api/map/collection/${bobsOwn.uuid}/points`, {
      token: bob.token,
      body: { pointUuids: [p2] },
    });
    assert.is(visible.status, 403, "dave's point in a public collection: bob sees it, cannot move it");
    assert.match(visible.body.message, /pointUuids\[0\]: only its owner may move this point/);
    assert.is(
      (
        await app.rest('POST', `/api/map/collection/${bobsOwn.uuid}/points`, {
          token: bob.token,
          body: { pointUuids: [p1] },
        })
      ).status,
      404,
      'a private orphan',
    );
    for (const body of [{}, { pointUuids: [] }, { pointUuids: ['nope'] }, { pointUuids: [p1], extra: 1 }]) {
      assert.is(
        (await app.rest('POST', `/api/map/collection/${a.uuid}/points`, { token: dave.token, body })).status,
        400,
        JSON.stringify(body),
      );
      assert.is(
        (await app.rest('DELETE', `/api/map/collection/${a.uuid}/points`, { token: dave.token, body })).status,
        400,
        JSON.stringify(body),
      );
    }
    assert.equal(
      (await trpc.map.get.query({ uuid: a.uuid })).points.map((p) => p.uuid),
      [p2],
      'nothing moved by the refused calls',
    );
  },
);

Points(
  "the contract's embedded points: an own uuid moves that point; another user's uuid is a 409; nothing of theirs changes",
  async ({ app, alice, bob }) => {
    const first = await app
      .trpc(alice.token)
      .map.create.mutate({ title: 'First', points: [{ title: 'shared idea', latitude: 1, longitude: 1 }] });
    const uuid = first.points[0]!.uuid;
    const orphan = await app
      .trpc(alice.token)
      .map.points.create.mutate({ title: 'orphan', latitude: 0, longitude: 0, address: 'kept', public: true });
    // Alice's own points given by uuid in another collection: moved and updated (address, own flag and creation kept).
    const second = await app.rest('POST', '/api/map/collection', {
      token: alice.token,
      body: {
        title: 'Second',
        points: [
          { uuid: orphan.uuid, title: 'adopted', latitude: 2, longitude: 2 },
          { uuid, title: 'moved', latitude: 3, longitude: 3 },
        ],
      },
    });
    assert.equal(
      (await ok(second)).points.map((p: any) => [p.uuid, p.title]),
      [
        [orphan.uuid, 'adopted'],
        [uuid, 'moved'],
      ],
    );
    assert.is(
      (await app.trpc(alice.token).map.get.query({ uuid: first.uuid })).pointCount,
      0,
      'it left the first collection',
    );
    const adopted = await app.trpc(alice.token).map.points.get.query({ uuid: orphan.uuid });
    assert.equal(
      [adopted.collectionId, adopted.address, adopted.public, adopted.createdAt],
      [second.body.data.uuid, 'kept', 1, orphan.createdAt],
    );

    // Bob sends alice's uuid (he can read it: the collection is public): 409 on create and on PUT, on both surfaces.
    const before = await app.database.db.select().from(mapPoints).where(eq(mapPoints.id, uuid)).get();
    const stolen = await app.rest('POST', '/api/map/collection', {
      token: bob.token,
      body: {
        title: 'Mine',
        points: [
          { title: 'ok', latitude: 0, longitude: 0 },
          { uuid, title: 'mine now', latitude: 0, longitude: 0 },
        ],
      },
    });
    assert.is(stolen.status, 409);
    assert.match(stolen.body.message, /points\[1\]\.uuid: is another user's point/);
    assert.is(stolen.body.data.key, 'request.conflict');
    const bobs = await app
      .trpc(bob.token)
      .map.create.mutate({ title: "Bob's", points: [{ title: 'his', latitude: 0, longitude: 0 }] });
    const put = await trpcError(
      app
        .trpc(bob.token)
        .map.update.mutate({ uuid: bobs.uuid, points: [{ uuid, title: 'x', latitude: 0, longitude: 0 }] }),
    );
    assert.is(put.status, 409);
    assert.equal(
      await app.database.db.select().from(mapPoints).where(eq(mapPoints.id, uuid)).get(),
      before,
      "alice's point is untouched",
    );
    assert.equal(
      (await app.trpc(bob.token).map.get.query({ uuid: bobs.uuid })).points.map((p) => p.title),
      ['his'],
      "bob's collection too (all or nothing)",
    );
    assert.is(
      (await app.database.db.select({ n: count() }).from(mapCollections).where(eq(mapCollections.title, 'Mine')).get())
        ?.n,
      0,
    );
    // Left out, the same content makes a new point of bob's.
    const copy = await app
      .trpc(bob.token)
      .map.create.mutate({ title: 'Copy', points: [{ title: 'moved', latitude: 3, longitude: 3 }] });
    assert.is.not(copy.points[0]!.uuid, uuid);
  },
);

Points(
  'limits under concurrency: 20 creates in one tRPC batch against N free places → exactly N; 1,000 per collection',
  async ({ app }) => {
    const erin = await app.signUp();
    const free = 7;
    const now = new Date();
    const filler = Array.from({ length: MAX_POINTS_PER_USER - free }, (_, index) => ({
      id: `${index.toString(16).padStart(8, '0')}-0000-4000-8000-${erin.id.slice(-12)}`,
      ownerId: erin.id,
      title: `filler ${index}`,
      latitude: 10,
      longitude: 10,
      tags: [],
      createdAt: now,
      updatedAt: now,
    }));
    for (let start = 0; start < filler.length; start += 500)
      await app.database.db.insert(mapPoints).values(filler.slice(start, start + 500));
    const { client: batch, sent } = batchClient(app.url, { token: erin.token, maxItems: 20 });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) =>
        batch.map.points.create.mutate({ title: `race ${index}`, latitude: 0, longitude: 0 }),
      ),
    );
    assert.is(sent.requests, 1, 'the twenty creates went out as one batch');
    assert.is(results.filter((result) => result.status === 'fulfilled').length, free);
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    assert.ok(
      refused.every(
        (result) => result.reason.data?.httpStatus === 409 && /at most 10000 map points/.test(result.reason.message),
      ),
      String(refused[0]?.reason),
    );
    const owned = await app.database.db
      .select({ n: count() })
      .from(mapPoints)
      .where(eq(mapPoints.ownerId, erin.id))
      .get();
    assert.is(owned?.n, MAX_POINTS_PER_USER);
    // Concurrent REST calls: none gets past the limit either, nor does a collection with embedded points.
    const rest = await Promise.all(
      Array.from({ length: 5 }, () => app.rest('POST', '/api/map/point', { token: erin.token, body: point('late') })),
    );
    assert.equal(
      rest.map((response) => response.status),
      [409, 409, 409, 409, 409],
    );
    const withPoints = await app.rest('POST', '/api/map/collection', {
      token: erin.token,
      body: { title: 'over', points: [{ title: 'x', latitude: 0, longitude: 0 }] },
    });
    assert.is(withPoints.status, 409);

    // 1,000 points per collection: adding past it is a 409, and so is creating into a full one.
    const frank = await app.signUp();
    const full = await app.trpc(frank.token).map.create.mutate({
      title: 'Full',
      points: Array.from({ length: 1000 }, (_, i) => ({ title: `p${i}`, latitude: 0, longitude: 0 })),
    });
    const extra = await app.trpc(frank.token).map.points.create.mutate({ title: 'extra', latitude: 0, longitude: 0 });
    assert.is(
      (
        await trpcError(
          app.trpc(frank.token).map.points.addToCollection.mutate({ uuid: full.uuid, pointUuids: [extra.uuid] }),
        )
      ).status,
      409,
    );
    const into = await app.rest('POST', '/api/map/point', {
      token: frank.token,
      body: point('x', { collectionUuid: full.uuid }),
    });
    assert.is(into.status, 409);
    assert.match(into.body.message, /at most 1000 points/);
  },
);

Points('concurrent moves of the same points leave each in exactly one place, with exact counts', async ({ app }) => {
  const gil = await app.signUp();
  const trpc = app.trpc(gil.token);
  const a = await trpc.map.create.mutate({
    title: 'A',
    points: Array.from({ length: 6 }, (_, i) => ({ title: `p${i}`, latitude: 0, longitude: 0 })),
  });
  const b = await trpc.map.create.mutate({ title: 'B' });
  const c = await trpc.map.create.mutate({ title: 'C' });
  const ids = a.points.map((p) => p.uuid);
  const { client: batch } = batchClient(app.url, { token: gil.token, maxItems: 20 });
  const calls = [
    batch.map.points.addToCollection.mutate({ uuid: b.uuid, pointUuids: ids }),
    batch.map.points.removeFromCollection.mutate({ uuid: a.uuid, pointUuids: ids }),
    batch.map.points.addToCollection.mutate({ uuid: c.uuid, pointUuids: ids.slice(0, 3) }),
    batch.map.points.removeFromCollection.mutate({ uuid: b.uuid, pointUuids: ids.slice(2) }),
    batch.map.points.addToCollection.mutate({ uuid: a.uuid, pointUuids: ids.slice(4) }),
  ];
  const restCalls = [
    app.rest('POST', `/api/map/collection/${c.uuid}/points`, {
      token: gil.token,
      body: { pointUuids: ids.slice(1, 5) },
    }),
    app.rest('DELETE', `/api/map/collection/${c.uuid}/points`, { token: gil.token, body: { pointUuids: ids } }),
  ];
  await Promise.all(calls);
  assert.ok((await Promise.all(restCalls)).every((response) => response.status === 200));
  const rows = await app.database.db
    .select({ id: mapPoints.id, collectionId: mapPoints.collectionId })
    .from(mapPoints)
    .where(eq(mapPoints.ownerId, gil.id))
    .all();
  assert.is(rows.length, 6, 'no point lost or duplicated');
  const orphanIds = (await trpc.map.points.listOrphans.query()).data.map((p) => p.uuid).sort();
  const placed: string[] = [];
  for (const collection of [a, b, c]) {
    const read = await trpc.map.get.query({ uuid: collection.uuid });
    assert.is(read.pointCount, read.points.length, `${collection.title}: count matches its rows`);
    placed.push(...read.points.map((p) => p.uuid));
  }
  assert.equal([...placed, ...orphanIds].sort(), [...ids].sort(), 'each point in exactly one place');
});

Points.run();
