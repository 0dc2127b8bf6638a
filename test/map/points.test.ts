// Map points as their own resource (issue 19): POST/GET/PUT/DELETE /map/point by the owner, and its errors
// (400 naming the field, 401, 404 unknown, 403/404 for others), over HTTP on both surfaces. The lists:
// points-lists.test.ts; moving points in and out of collections and the contract's embedded points:
// points-moves.test.ts; the limits and moves under concurrency: points-concurrency.test.ts.
import * as assert from 'uvu/assert';
import { trpcError } from '../support/http-clients';
import { ok, point, pointsSuite, UNKNOWN } from './fixtures';

const Points = pointsSuite('map points');

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

Points.run();
