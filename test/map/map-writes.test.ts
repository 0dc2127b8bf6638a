import { count, eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { mapCollections, mapPoints } from '../../db/schema';
import { COLLECTION_UPDATABLE_FIELDS, ZUpdateCollection } from '../../server/domains/map/schemas';
import { createCollection, updateCollection } from '../../server/domains/map/service';
import { trpcError } from '../support/http-clients';
import { collectionsSuite, createVia, POINTS } from './fixtures';

const Collections = collectionsSuite('map collections: bad input, updates, deletes, half-done writes');

Collections('invalid points are a 400 naming the field, and nothing is written', async ({ app, alice }) => {
  const before = await app.database.db.select({ n: count() }).from(mapCollections).get();
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ title: 'p', latitude: 90.0001, longitude: 0 }, /points\[0\]\.latitude: must be between -90 and 90/],
    [{ title: 'p', latitude: -91, longitude: 0 }, /points\[0\]\.latitude/],
    [{ title: 'p', latitude: 0, longitude: 180.5 }, /points\[0\]\.longitude: must be between -180 and 180/],
    [{ title: 'p', latitude: 0, longitude: -181 }, /points\[0\]\.longitude/],
    [{ title: 'p', latitude: '12', longitude: 0 }, /points\[0\]\.latitude/],
    [{ title: '', latitude: 0, longitude: 0 }, /points\[0\]\.title/],
    [{ title: 'x'.repeat(101), latitude: 0, longitude: 0 }, /points\[0\]\.title: must be at most 100/],
    [{ latitude: 0, longitude: 0 }, /points\[0\]\.title/],
    [{ title: 'p', latitude: 0, longitude: 0, tags: ['x'.repeat(25)] }, /points\[0\]\.tags\[0\]/],
    [{ title: 'p', latitude: 0, longitude: 0, uuid: 'nope' }, /points\[0\]\.uuid/],
  ];
  for (const [point, message] of cases) {
    const response = await app.rest('POST', '/api/map/collection', {
      token: alice.token,
      body: { title: 'bad', points: [point] },
    });
    assert.is(response.status, 400, JSON.stringify(point));
    assert.match(response.body.message, message);
    assert.ok(response.body.data.issues.length >= 1);
  }
  const tooMany = Array.from({ length: 1001 }, (_, index) => ({ title: `p${index}`, latitude: 0, longitude: 0 }));
  const many = await app.rest('POST', '/api/map/collection', {
    token: alice.token,
    body: { title: 'many', points: tooMany },
  });
  assert.is(many.status, 400);
  assert.match(many.body.message, /points: at most 1000 points/);
  const dup = await app.rest('POST', '/api/map/collection', {
    token: alice.token,
    body: { title: 'dup', points: [POINTS[1], { ...POINTS[1], title: 'again' }] },
  });
  assert.is(dup.status, 400);
  assert.match(dup.body.message, /points\[1\]\.uuid: duplicates points\[0\]\.uuid/);
  const noTitle = await app.rest('POST', '/api/map/collection', { token: alice.token, body: { points: [] } });
  assert.is(noTitle.status, 400);
  assert.match(noTitle.body.message, /title/);
  const viaTrpc = await trpcError(
    app.trpc(alice.token).map.create.mutate({ title: 't', points: [{ title: 'p', latitude: 100, longitude: 0 }] }),
  );
  assert.is(viaTrpc.status, 400);
  assert.match(viaTrpc.message, /points\[0\]\.latitude/);
  const after = await app.database.db.select({ n: count() }).from(mapCollections).get();
  assert.is(after?.n, before?.n);
});

Collections('exactly 1,000 points is accepted', async ({ app, alice }) => {
  const points = Array.from({ length: 1000 }, (_, index) => ({
    title: `p${index}`,
    latitude: (index % 180) - 89.5,
    longitude: (index % 360) - 180,
  }));
  const created = await createVia(app, alice.token, { title: 'thousand', points });
  assert.is(created.pointCount, 1000);
  assert.is(created.points[999].title, 'p999');
  assert.is(created.points[999].latitude, (999 % 180) - 89.5);
});

Collections('PUT by the author: fields change, points replace the set', async ({ app, alice }) => {
  const created = await createVia(app, alice.token, { title: 'Before', description: 'd', points: POINTS });
  app.clock.advance(5000);
  const kept = created.points[0];
  const response = await app.rest('PUT', `/api/map/collection/${created.uuid}`, {
    token: alice.token,
    body: {
      title: 'After',
      points: [
        { ...kept, title: 'Renamed' },
        { title: 'New', latitude: 1.5, longitude: 2.5 },
      ],
    },
  });
  assert.is(response.status, 200, response.text);
  const updated = response.body.data;
  assert.is(updated.title, 'After');
  assert.is(updated.description, 'd', 'untouched fields stay');
  assert.is(updated.pointCount, 2);
  assert.equal(
    updated.points.map((point: any) => point.title),
    ['Renamed', 'New'],
  );
  assert.is(updated.points[0].uuid, kept.uuid, 'a given uuid is kept');
  assert.ok(!updated.points.some((point: any) => point.uuid === POINTS[1]!.uuid), 'points left out are gone');
  assert.is(Date.parse(updated.updatedAt) - Date.parse(created.updatedAt) >= 5000, true);

  const onlyFlag = await app
    .trpc(alice.token)
    .map.update.mutate({ uuid: created.uuid, isPublic: false, description: null });
  assert.is(onlyFlag.public, 0);
  assert.is(onlyFlag.description, null, 'null clears the description');
  assert.is(onlyFlag.points.length, 2, 'points stay when not given');

  const cleared = await app.rest('PUT', `/api/map/collection/${created.uuid}`, {
    token: alice.token,
    body: { points: [] },
  });
  assert.is(cleared.body.data.pointCount, 0);
  const rows = await app.database.db
    .select({ n: count() })
    .from(mapPoints)
    .where(eq(mapPoints.collectionId, created.uuid))
    .get();
  assert.is(rows?.n, 0);

  const empty = await app.rest('PUT', `/api/map/collection/${created.uuid}`, { token: alice.token, body: {} });
  assert.is(empty.status, 400);
  // The 400 names every field the update accepts (all but its uuid), on both surfaces: the list is read from the schema.
  const viaTrpc = await trpcError(app.trpc(alice.token).map.update.mutate({ uuid: created.uuid }));
  for (const message of [empty.body.message, viaTrpc.message]) {
    assert.ok(message.includes(`give at least one of ${COLLECTION_UPDATABLE_FIELDS}`), message);
    for (const field of Object.keys(ZUpdateCollection.in.shape).filter((key) => key !== 'uuid'))
      assert.ok(message.includes(field), `${field} is named: ${message}`);
  }
  const badPoint = await app.rest('PUT', `/api/map/collection/${created.uuid}`, {
    token: alice.token,
    body: { points: [{ title: 'x', latitude: 0, longitude: 999 }] },
  });
  assert.is(badPoint.status, 400);
  assert.match(badPoint.body.message, /points\[0\]\.longitude/);
});

Collections(
  'PUT and DELETE by others: 403 on a public collection, 404 on a non-public one, 401 without a token',
  async ({ app, alice, bob }) => {
    const open = await createVia(app, alice.token, { title: 'Open', points: POINTS });
    const hidden = await createVia(app, alice.token, { title: 'Hidden', isPublic: false });
    const put = (uuid: string, token?: string) =>
      app.rest('PUT', `/api/map/collection/${uuid}`, { token, body: { title: 'hijacked' } });
    const del = (uuid: string, token?: string) => app.rest('DELETE', `/api/map/collection/${uuid}`, { token });

    const forbidden = await put(open.uuid, bob.token);
    assert.is(forbidden.status, 403);
    assert.is(forbidden.body.message, 'Only the author may edit this collection');
    assert.is((await del(open.uuid, bob.token)).status, 403);
    assert.is((await put(hidden.uuid, bob.token)).status, 404);
    assert.is((await del(hidden.uuid, bob.token)).status, 404);
    assert.is((await put(open.uuid)).status, 401);
    assert.is((await del(open.uuid)).status, 401);
    assert.is((await put('6f1c1b8e-9a55-4a55-8a3b-000000000000', alice.token)).status, 404);

    const bobClient = app.trpc(bob.token);
    assert.is((await trpcError(bobClient.map.update.mutate({ uuid: open.uuid, title: 'x' }))).status, 403);
    assert.is((await trpcError(bobClient.map.delete.mutate({ uuid: open.uuid }))).status, 403);
    assert.is((await trpcError(bobClient.map.update.mutate({ uuid: hidden.uuid, title: 'x' }))).status, 404);
    assert.is((await trpcError(bobClient.map.delete.mutate({ uuid: hidden.uuid }))).status, 404);
    assert.is((await trpcError(app.trpc().map.delete.mutate({ uuid: open.uuid }))).status, 401);

    const still = await app.rest('GET', `/api/map/collection/${open.uuid}`);
    assert.is(still.body.data.title, 'Open', 'nothing changed');
    assert.is(still.body.data.pointCount, 2);
  },
);

Collections('DELETE by the author removes the collection and its points', async ({ app, alice }) => {
  const one = await createVia(app, alice.token, { title: 'Doomed', points: POINTS });
  const response = await app.rest('DELETE', `/api/map/collection/${one.uuid}`, { token: alice.token });
  assert.is(response.status, 200);
  assert.equal(response.body.data, { uuid: one.uuid, deleted: true });
  assert.is((await app.rest('GET', `/api/map/collection/${one.uuid}`, { token: alice.token })).status, 404);
  assert.is((await app.rest('DELETE', `/api/map/collection/${one.uuid}`, { token: alice.token })).status, 404);
  const points = await app.database.db
    .select({ n: count() })
    .from(mapPoints)
    .where(eq(mapPoints.collectionId, one.uuid))
    .get();
  assert.is(points?.n, 0);

  const two = await createVia(app, alice.token, { title: 'Doomed too', isPublic: false });
  assert.equal(await app.trpc(alice.token).map.delete.mutate({ uuid: two.uuid }), { uuid: two.uuid, deleted: true });
  assert.is((await trpcError(app.trpc(alice.token).map.get.query({ uuid: two.uuid }))).status, 404);
});

Collections('a failure half-way through a create leaves nothing written', async ({ app, alice }) => {
  const { db } = app.database;
  // Called below the API's validation: point 150 breaks the table's CHECK after 100 points were inserted.
  const points = Array.from({ length: 160 }, (_, index) => ({
    title: `halfway${index}`,
    latitude: index === 150 ? 95 : 10,
    longitude: 20,
  }));
  let failed = false;
  try {
    await createCollection(
      { db, now: app.clock.now },
      { authorId: alice.id, collection: { title: 'half-way create', points } },
    );
  } catch (error) {
    failed = true;
    // libSQL's error arrives wrapped by drizzle, the constraint named in its cause.
    assert.match(`${error} ${(error as Error).cause ?? ''}`, /CHECK constraint failed/);
  }
  assert.ok(failed, 'the store refused the impossible latitude');
  const collections = await db
    .select({ n: count() })
    .from(mapCollections)
    .where(eq(mapCollections.title, 'half-way create'))
    .get();
  assert.is(collections?.n, 0, 'no collection row');
  const orphans = await db.select({ n: count() }).from(mapPoints).where(eq(mapPoints.title, 'halfway0')).get();
  assert.is(orphans?.n, 0, 'no points of the first chunk');
});

Collections('a failure half-way through an update keeps the old title and points', async ({ app, alice }) => {
  const { db } = app.database;
  const created = await createVia(app, alice.token, { title: 'Intact', points: POINTS });
  const points = Array.from({ length: 140 }, (_, index) => ({
    title: `n${index}`,
    latitude: 0,
    longitude: index === 130 ? -200 : 0,
  }));
  let failed = false;
  try {
    await updateCollection(
      { db, now: app.clock.now },
      { uuid: created.uuid, userId: alice.id, patch: { title: 'Broken', points } },
    );
  } catch {
    failed = true;
  }
  assert.ok(failed);
  const after = await app.rest('GET', `/api/map/collection/${created.uuid}`);
  assert.is(after.body.data.title, 'Intact');
  assert.is(after.body.data.pointCount, 2);
  assert.equal(after.body.data.points, created.points);
});

Collections('the OpenAPI document lists the map paths with their methods', async ({ app }) => {
  const document = (await app.rest('GET', '/api/openapi.json')).body as any;
  assert.ok(document.paths['/map/collections'].get);
  assert.ok(document.paths['/map/collection'].post);
  for (const method of ['get', 'put', 'delete']) assert.ok(document.paths['/map/collection/{uuid}'][method], method);
  assert.is(document.paths['/map/collection/{uuid}'].get.security, undefined, 'the read is public');
});

Collections.run();
