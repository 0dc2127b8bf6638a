// Map points (issue 19): the limits under concurrency (points per user, points per collection) and concurrent
// moves of the same points, through one tRPC batch and concurrent REST calls.
import { count, eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { mapPoints } from '../../db/schema';
import { MAX_POINTS_PER_USER } from '../../server/domains/map/schemas';
import { batchClient, trpcError } from '../support/http-clients';
import { point, pointsSuite } from './fixtures';

const Points = pointsSuite('map points: limits and moves under concurrency');

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
