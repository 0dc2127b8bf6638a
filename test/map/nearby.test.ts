// GET /map/point/nearby: only points the caller may read, within radius (km, great-circle), nearest
// first, bounded (limit ≤ 100, radius ≤ 500 km); across the antimeridian and near a pole. Over HTTP on
// both surfaces. What a search costs (its plan, its candidates, `truncated`): nearby-cost.test.ts.
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { boundingBox } from '../../server/domains/map/nearby';
import { startTestServer, type TTestServer } from '../support/helpers';
import { trpcError } from '../support/http-clients';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
const Nearby = suite<{ app: TTestServer; owner: TUser; friend: TUser; stranger: TUser; shared: string }>(
  'map points nearby',
);

/** Haversine distance in km, computed independently of the server's SQL. */
function km(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (b[0] - a[0]) * rad;
  const dLon = (b[1] - a[1]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

Nearby.before(async (context) => {
  const app = await startTestServer();
  context.app = app;
  context.owner = await app.signUp();
  context.friend = await app.signUp();
  context.stranger = await app.signUp();
  const trpc = app.trpc(context.owner.token);
  // Around (0.6, -0.6), the web client's map centre, at 0.01° steps (about 1.1 km).
  await trpc.map.create.mutate({
    title: 'Open',
    points: [1, 2, 3].map((n) => ({ title: `open ${n}`, latitude: 0.6 + n * 0.01, longitude: -0.6 })),
  });
  const shared = await trpc.map.create.mutate({
    title: 'Shared',
    isPublic: false,
    sharedUsers: [context.friend.username],
    points: [{ title: 'shared 1', latitude: 0.6, longitude: -0.615 }],
  });
  context.shared = shared.uuid;
  await trpc.map.create.mutate({
    title: 'Closed',
    isPublic: false,
    points: [{ title: 'closed 1', latitude: 0.6, longitude: -0.605 }],
  });
  await trpc.map.points.create.mutate({ title: 'public orphan', latitude: 0.6, longitude: -0.625, public: true });
  await trpc.map.points.create.mutate({ title: 'private orphan', latitude: 0.6, longitude: -0.6 });
  await trpc.map.points.create.mutate({ title: 'far away', latitude: 10, longitude: 10, public: true });
  // Across the antimeridian and at the pole.
  await trpc.map.points.create.mutate({ title: 'east of 180', latitude: 0, longitude: 179.99, public: true });
  await trpc.map.points.create.mutate({ title: 'west of -180', latitude: 0, longitude: -179.99, public: true });
  await trpc.map.points.create.mutate({ title: 'pole', latitude: 89.99, longitude: 100, public: true });
});
Nearby.after(async ({ app }) => app.stop());

const CENTRE = { latitude: 0.6, longitude: -0.6 };
const titles = (body: any) => body.points.map((point: any) => point.title);

Nearby(
  'each caller sees the points they may read, nearest first, with exact distances',
  async ({ app, owner, friend, stranger }) => {
    const query = `latitude=${CENTRE.latitude}&longitude=${CENTRE.longitude}&radius=10&limit=10`;
    const asOwner = await app.rest('GET', `/api/map/point/nearby?${query}`, { token: owner.token });
    assert.is(asOwner.status, 200, asOwner.text);
    assert.equal(titles(asOwner.body.data), [
      'private orphan',
      'closed 1',
      'open 1',
      'shared 1',
      'open 2',
      'public orphan',
      'open 3',
    ]);
    assert.equal([asOwner.body.data.radius, asOwner.body.data.limit, asOwner.body.data.truncated], [10, 10, false]);
    for (const point of asOwner.body.data.points) {
      assert.ok(
        Math.abs(point.distance - km([CENTRE.latitude, CENTRE.longitude], [point.latitude, point.longitude])) < 1e-6,
        point.title,
      );
    }
    const distances = asOwner.body.data.points.map((point: any) => point.distance);
    assert.equal(
      distances,
      [...distances].sort((a: number, b: number) => a - b),
      'sorted by distance',
    );

    assert.equal(
      titles((await app.rest('GET', `/api/map/point/nearby?${query}`, { token: friend.token })).body.data),
      ['open 1', 'shared 1', 'open 2', 'public orphan', 'open 3'],
      'shared with the friend',
    );
    const strangers = ['open 1', 'open 2', 'public orphan', 'open 3'];
    assert.equal(
      titles((await app.rest('GET', `/api/map/point/nearby?${query}`, { token: stranger.token })).body.data),
      strangers,
    );
    assert.equal(
      titles((await app.rest('GET', `/api/map/point/nearby?${query}`)).body.data),
      strangers,
      'anonymous: public only',
    );
    assert.equal(
      titles(await app.trpc(stranger.token).map.points.nearby.query({ ...CENTRE, radius: 10, limit: 10 })),
      strangers,
      'tRPC alike',
    );
    assert.equal(
      titles(await app.trpc().map.points.nearby.query(CENTRE)),
      strangers,
      'defaults: radius 10 km, limit 10',
    );

    // Radius and limit bound the answer.
    assert.equal(
      titles((await app.rest('GET', `/api/map/point/nearby?${query.replace('radius=10', 'radius=1.2')}`)).body.data),
      ['open 1'],
    );
    assert.equal(
      titles((await app.rest('GET', `/api/map/point/nearby?${query.replace('limit=10', 'limit=2')}`)).body.data),
      ['open 1', 'open 2'],
    );
    assert.is(
      (await app.rest('GET', `/api/map/point/nearby?${query.replace('radius=10', 'radius=500')}`)).body.data.points
        .length,
      4,
      'far away is beyond 500 km',
    );
  },
);

Nearby('across the antimeridian and near a pole', async ({ app }) => {
  assert.equal(titles(await app.trpc().map.points.nearby.query({ latitude: 0, longitude: 179.996, radius: 5 })), [
    'east of 180',
    'west of -180',
  ]);
  assert.equal(titles(await app.trpc().map.points.nearby.query({ latitude: 0, longitude: -179.995, radius: 5 })), [
    'west of -180',
    'east of 180',
  ]);
  assert.equal(titles(await app.trpc().map.points.nearby.query({ latitude: 90, longitude: 0, radius: 5 })), ['pole']);
  assert.equal(boundingBox(89.99, 0, 5).longitude, [[-180, 180]]);
  assert.equal(boundingBox(0, 179.99, 5).longitude.length, 2);
});

Nearby('bounded input: 400 naming the field on both surfaces', async ({ app }) => {
  for (const [query, field] of [
    ['latitude=0.6', /longitude/],
    ['latitude=91&longitude=0', /latitude: must be between -90 and 90/],
    ['latitude=0&longitude=-181', /longitude/],
    ['latitude=0&longitude=0&radius=501', /radius: must be between 0 and 500/],
    ['latitude=0&longitude=0&radius=-1', /radius/],
    ['latitude=0&longitude=0&limit=101', /limit/],
    ['latitude=0&longitude=0&limit=0', /limit/],
    ['latitude=north&longitude=0', /latitude: must be a number/],
    ['latitude=0&longitude=0&owner=me', /Unrecognized key: "owner"/],
  ] as const) {
    const response = await app.rest('GET', `/api/map/point/nearby?${query}`);
    assert.is(response.status, 400, query);
    assert.match(response.body.message, field);
  }
  assert.is(
    (await trpcError(app.trpc().map.points.nearby.query({ latitude: 0, longitude: 0, limit: 1000 }))).status,
    400,
  );
  assert.is(
    (await app.rest('GET', '/api/map/point/nearby?latitude=0&longitude=0&limit=100&radius=500')).status,
    200,
    'the bounds themselves are accepted',
  );
});

Nearby.run();
