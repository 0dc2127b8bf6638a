// Map points (issue 19): moving points in and out of collections (POST/DELETE map/collection/{uuid}/points,
// orphans), and the global uuid rule of the contract's embedded points; over HTTP on both surfaces.
import { count, eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { mapCollections, mapPoints } from '../../db/schema';
import { trpcError } from '../support/http-clients';
import { ok, pointsSuite, UNKNOWN } from './fixtures';

const Points = pointsSuite('map points: moves between collections');

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

Points.run();
