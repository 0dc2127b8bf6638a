// Client replay: the community web client's map-point and sharing calls (GlowProw/website,
// src/assets/sripts/api/map_service.ts), sent over real HTTP as the client sends them (client-request.ts)
// against a server with the demo data, asserting every field the views read (src/views/map/View.vue,
// src/views/user/account/maps.vue; types src/assets/types/Map.ts). The views read a list as
// `result.data.points` (the body's top level): a paged list is `data: {data: [...], pagination}` and the
// nearby search `data: {points: [...]}`, and since issue 34 the body also carries `points` beside the
// envelope, as the views read it (docs/compatibility.md, "Map points", "Fields beside the envelope").
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { send, signIn } from './client-request';

interface TCtx {
  app: TTestServer;
  deckhand: string;
  captain: string;
}

const Client = suite<TCtx>('web client: map points and sharing');

Client.before(async (context) => {
  context.app = await startTestServer({ SEED_DEMO: true });
  context.deckhand = await signIn(context.app, 'deckhand');
  context.captain = await signIn(context.app, 'captain');
});
Client.after(async ({ app }) => app.stop());

/** The fields of a `MapPoint` the views read. */
function assertClientPoint(point: any): void {
  assert.type(point.id, 'string'); // View.vue:1090 (the feature's id)
  assert.is(point.uuid, point.id); // maps.vue:554, 661 (selection by uuid)
  assert.type(point.title, 'string'); // maps.vue:562, 669; View.vue:474 (the nearby list)
  assert.ok(point.description === null || typeof point.description === 'string'); // maps.vue:564, 671 (`|| '无描述'`); View.vue:453-458
  assert.type(point.latitude, 'number'); // maps.vue:571, 678; View.vue:1089 (fromLonLat([longitude, latitude]))
  assert.type(point.longitude, 'number'); // maps.vue:583, 690
  assert.ok(point.collectionId === null || typeof point.collectionId === 'string');
  assert.ok(point.public === 0 || point.public === 1);
  assert.ok(Array.isArray(point.tags));
}

async function collections(app: TTestServer, token: string): Promise<Record<string, any>> {
  const list = await send(app, 'GET', 'map/collections', { token });
  return Object.fromEntries(list.body.data.data.map((collection: any) => [collection.title, collection]));
}

Client(
  'View.vue: double-click creates a marker in the selected collection; its points are drawn; nearby lists its neighbours',
  async ({ app, deckhand }) => {
    const hubs = (await collections(app, deckhand))['Trade hubs of the Indian Ocean'];
    // View.vue:1130-1140 `api.createPoint({...newMarkerData})`: the dialog's form, coordinates from toLonLat.
    const created = await send(app, 'POST', 'map/point', {
      token: deckhand,
      data: {
        collectionUuid: hubs.uuid,
        title: 'Smugglers jetty',
        description: 'Night trades',
        latitude: -12.36,
        longitude: 49.3,
        address: '',
        tags: ['den'],
        public: false,
        sharedUsers: [],
      },
    });
    assert.is(created.status, 200, created.text);
    assertClientPoint(created.body.data);
    assert.is(created.body.data.collectionId, hubs.uuid);

    // View.vue:1043-1046 `api.getCollectionPoints(uuid)` then `d.points`: the body's top level, the page's `data.data`.
    const points = await send(app, 'GET', `map/collections/${hubs.uuid}/points`, { token: deckhand });
    assert.is(points.status, 200, points.text);
    assert.equal(points.body.points, points.body.data.data, 'View.vue:1046 d.points');
    points.body.data.data.forEach(assertClientPoint);
    assert.equal(
      points.body.data.data.map((point: any) => point.title),
      ['Sainte-Anne', 'Telok Penjarum', 'Saint-Denis', 'Mombasa', 'Smugglers jetty'],
    );
    assert.equal(points.body.data.pagination, { page: 1, pageSize: 50, total: 5, totalPages: 1 });

    // View.vue:1220-1232 `api.getNearbyPoints({latitude, longitude, radius: 10, limit: 10})`, `d.points`: the body's top level, `data.points`.
    const nearby = await send(app, 'GET', 'map/point/nearby', {
      token: deckhand,
      params: { latitude: -12.35, longitude: 49.29, radius: 10, limit: 10 },
    });
    assert.is(nearby.status, 200, nearby.text);
    assert.equal(nearby.body.points, nearby.body.data.points, 'View.vue:1232 d.points');
    nearby.body.data.points.forEach(assertClientPoint);
    assert.equal(
      nearby.body.data.points.map((point: any) => point.title),
      ['Sainte-Anne', 'Smugglers jetty', 'Wreck off Sainte-Anne'],
    );
    // Without a token (the view only asks signed in, View.vue:710): public points only, the same here.
    assert.equal(
      (await send(app, 'GET', 'map/point/nearby', { params: { latitude: -11.7, longitude: 43.25 } })).body.data.points,
      [],
      'the private leads stay hidden',
    );
  },
);

Client('maps.vue point manager: collection points, orphans, move in and out, delete', async ({ app, deckhand }) => {
  const leads = (await collections(app, deckhand))['My treasure leads'];
  // maps.vue:98-105 `api.getUserPoints({collectionUuid, page: 1, pageSize: 20})`, `d.points`: the body's top level, `data.data`.
  const inside = await send(app, 'GET', 'map/user/points', {
    token: deckhand,
    params: { collectionUuid: leads.uuid, page: 1, pageSize: 20 },
  });
  assert.is(inside.status, 200, inside.text);
  assert.equal(inside.body.points, inside.body.data.data, 'maps.vue:105 d.points');
  inside.body.data.data.forEach(assertClientPoint);
  assert.equal(
    inside.body.data.data.map((point: any) => point.title),
    ['Buried chest near the reef'],
  );
  // maps.vue:121-124 `api.getOrphanPoints({page: 1, pageSize: 20})`.
  const orphans = await send(app, 'GET', 'map/user/orphan-points', {
    token: deckhand,
    params: { page: 1, pageSize: 20 },
  });
  assert.is(orphans.status, 200, orphans.text);
  assert.equal(orphans.body.points, orphans.body.data.data, 'maps.vue:127 d.points');
  orphans.body.data.data.forEach(assertClientPoint);
  const wreck = orphans.body.data.data.find((point: any) => point.title === 'Wreck off Sainte-Anne');
  assert.ok(wreck, 'the demo orphan');
  assert.is(wreck.collectionId, null);
  // maps.vue:148-151 the search box: `api.getUserPoints({page, pageSize})` without a collection.
  assert.ok(
    (await send(app, 'GET', 'map/user/points', { token: deckhand, params: { page: 1, pageSize: 20 } })).body.data.data
      .length >= 6,
  );

  // maps.vue:210 `api.addPointsToCollection(uuid, selectedPoints)`: `http.post(..., {data: {pointUuids}})`.
  const added = await send(app, 'POST', `map/collection/${leads.uuid}/points`, {
    token: deckhand,
    data: { pointUuids: [wreck.uuid] },
  });
  assert.is(added.status, 200, added.text);
  assert.equal(added.body.data.pointUuids, [wreck.uuid]);
  assert.equal(
    (
      await send(app, 'GET', 'map/user/orphan-points', { token: deckhand, params: { page: 1, pageSize: 20 } })
    ).body.data.data.filter((p: any) => p.uuid === wreck.uuid),
    [],
  );
  // maps.vue:239 `api.removePointsFromCollection(uuid, selectedPoints)`: `http.del(..., {data: {pointUuids}})`, a DELETE with a body.
  const removed = await send(app, 'DELETE', `map/collection/${leads.uuid}/points`, {
    token: deckhand,
    data: { pointUuids: [wreck.uuid] },
  });
  assert.is(removed.status, 200, removed.text);
  assert.equal(removed.body.data.pointUuids, [wreck.uuid]);
  assert.is(
    (await send(app, 'GET', `map/point/${wreck.uuid}`, { token: deckhand })).body.data.collectionId,
    null,
    'an orphan again',
  );

  // map_service.ts getPointDetail / updatePoint (UpdatePointData; the edit of maps.vue:410-419 is commented out).
  const detail = await send(app, 'GET', `map/point/${wreck.uuid}`);
  assert.is(detail.status, 200, 'a public orphan: anyone reads it');
  assertClientPoint(detail.body.data);
  const updated = await send(app, 'PUT', `map/point/${wreck.uuid}`, {
    token: deckhand,
    data: {
      title: 'Wreck (looted)',
      description: '',
      latitude: -12.4,
      longitude: 49.35,
      address: 'Sainte-Anne reef',
      tags: ['wreck'],
      public: false,
      sharedUsers: [],
    },
  });
  assert.is(updated.status, 200, updated.text);
  assert.is(updated.body.data.public, 0);
  assert.is((await send(app, 'GET', `map/point/${wreck.uuid}`)).status, 404, 'private now');
  // maps.vue:276-278 deletes the selection one by one: `api.deletePoint(id)`, no body.
  assert.is((await send(app, 'DELETE', `map/point/${wreck.uuid}`, { token: deckhand })).status, 200);
  assert.is((await send(app, 'GET', `map/point/${wreck.uuid}`, { token: deckhand })).status, 404);
});

Client(
  'maps.vue collection form: sharedUsers names users who may then read it; the edit form sends them back',
  async ({ app, deckhand, captain }) => {
    const leads = (await collections(app, deckhand))['My treasure leads'];
    // The demo shares it with captain: captain reads it and its points, others do not.
    assert.is((await send(app, 'GET', `map/collection/${leads.uuid}`, { token: captain })).status, 200);
    assert.is(
      (await send(app, 'GET', `map/collections/${leads.uuid}/points`, { token: captain })).body.data.data.length,
      1,
    );
    assert.is((await send(app, 'GET', `map/collection/${leads.uuid}`)).status, 404);
    // maps.vue:323-328 `api.createCollection({title, description, public, sharedUsers})`: names typed in the combobox.
    const created = await send(app, 'POST', 'map/collection', {
      token: deckhand,
      data: { title: 'For the captain', description: '', public: 0, sharedUsers: ['Captain'] },
    });
    assert.is(created.status, 200, created.text);
    assert.equal(created.body.data.sharedUsers, ['captain']);
    const listed = (await collections(app, deckhand))['For the captain'];
    assert.equal(listed.sharedUsers, ['captain'], 'maps.vue:375 fills the form from the list');
    // maps.vue:315-320: the edit form sends every field back, sharedUsers included: unchanged shares.
    const form = {
      title: listed.title,
      description: listed.description || '',
      public: listed.public,
      sharedUsers: listed.sharedUsers || [],
    };
    const again = await send(app, 'PUT', `map/collection/${listed.uuid}`, { token: deckhand, data: form });
    assert.is(again.status, 200, again.text);
    assert.equal(again.body.data.sharedUsers, ['captain']);
    assert.is((await send(app, 'GET', `map/collection/${listed.uuid}`, { token: captain })).status, 200);
    // Captain reads, does not edit (the client offers shared users no edit).
    assert.is((await send(app, 'PUT', `map/collection/${listed.uuid}`, { token: captain, data: form })).status, 403);
    const unknown = await send(app, 'POST', 'map/collection', {
      token: deckhand,
      data: { title: 'x', public: 0, sharedUsers: ['nobody-at-all'] },
    });
    assert.is(unknown.status, 400);
    assert.match(unknown.body.message, /sharedUsers\[0\]: no user "nobody-at-all"/);
  },
);

Client.run();
