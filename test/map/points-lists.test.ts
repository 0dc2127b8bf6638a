// Map points (issue 19): the caller's points and orphans (GET map/user/points, map/user/orphan-points) and a
// collection's points (GET map/collections/{uuid}/points): pages, order and access, over HTTP on both surfaces.
import * as assert from 'uvu/assert';
import { trpcError } from '../support/http-clients';
import { ok, pointsSuite, UNKNOWN } from './fixtures';

const Points = pointsSuite('map points: lists');

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

Points.run();
