// Client replay: the community web client's map-collection and calendar calls (GlowProw/website),
// sent over real HTTP exactly as the client sends them (its axios wrapper: `http.post(url, {data})`
// sends `data` as the JSON body, GET `params` are the query string, the token goes in
// `x-access-token`), against a server with the demo data. Each test names the client's call and the
// view that reads the answer, and asserts every field that view reads. `handleResponse`
// (src/assets/sripts/api/api-util.ts:20-37) hands the whole body on as `result.data`, so a view's
// `result.data.x` is the body's `x` and `result.data.data.x` is the envelope's `data.x`.
// docs/compatibility.md ("Map collections", "Calendar") lists the same fields.
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { send, signIn } from './client-request';

interface TCtx {
  app: TTestServer;
  /** `deckhand`'s token: the demo owns two collections of theirs (one public, one private). */
  deckhand: string;
  captain: string;
}

const Client = suite<TCtx>('web client: map collections and calendar');

Client.before(async (context) => {
  context.app = await startTestServer({ SEED_DEMO: true });
  context.deckhand = await signIn(context.app, 'deckhand');
  context.captain = await signIn(context.app, 'captain');
});
Client.after(async ({ app }) => {
  await app.stop();
});

/** The fields of one collection that src/views/user/account/maps.vue and src/views/map/View.vue read. */
function assertClientCollection(collection: any): void {
  assert.type(collection.id, 'string'); // maps.vue:370 (editCollection copies it into the form)
  assert.type(collection.uuid, 'string'); // maps.vue:87, 371, 444, 489; View.vue:85, 211, 1024
  assert.type(collection.title, 'string'); // maps.vue:372, 485; View.vue:84, 210 (item-title)
  assert.ok(collection.description === null || typeof collection.description === 'string'); // maps.vue:373, 489
  assert.ok(collection.public === 0 || collection.public === 1, `public is 0 or 1: ${collection.public}`); // maps.vue:374, sent back on update
  assert.ok(
    Array.isArray(collection.sharedUsers) && collection.sharedUsers.every((name: unknown) => typeof name === 'string'),
  ); // maps.vue:375, sent back on update (usernames; test/web-client/map-points.test.ts)
}

Client(
  'GET map/collections: maps.vue and View.vue read the page; data stays an object (the contract)',
  async ({ app, deckhand }) => {
    // src/assets/sripts/api/map_service.ts:20 `http.get('map/collections', {params: {...pagination}})`,
    // called by src/views/user/account/maps.vue:67 with {page: 1, pageSize: 10}; the view keeps `result.data`
    // (the body) and renders `userCollections.data` (maps.vue:480-489) and `userCollections.pagination`
    // (maps.vue:511-513). The live service answers the array as the envelope's `data` with `pagination`
    // beside it; the interface contract fixes `data` as an object, so Tidewatch answers the page as every paged
    // list does, `data: {data: [...], pagination}`, and the client reads it with one change, maps.vue:68
    // `d = result.data.data` (docs/compatibility.md, "Map collections").
    const page = await send(app, 'GET', 'map/collections', { token: deckhand, params: { page: 1, pageSize: 10 } });
    assert.is(page.status, 200, page.text);
    assert.ok(Array.isArray(page.body.data.data), 'data.data is the array');
    assert.equal(page.body.data.pagination, { page: 1, pageSize: 10, total: 2, totalPages: 1 });
    assert.equal(page.body.data.data.map((collection: any) => collection.title).sort(), [
      'My treasure leads',
      'Trade hubs of the Indian Ocean',
    ]);
    page.body.data.data.forEach(assertClientCollection);
    const byTitle = Object.fromEntries(page.body.data.data.map((collection: any) => [collection.title, collection]));
    assert.is(byTitle['Trade hubs of the Indian Ocean'].public, 1);
    assert.is(byTitle['My treasure leads'].public, 0);
    assert.equal(byTitle['My treasure leads'].sharedUsers, ['captain'], 'the demo shares it with captain');
    assert.equal(byTitle['Trade hubs of the Indian Ocean'].sharedUsers, []);
    assert.is(byTitle['Trade hubs of the Indian Ocean'].id, byTitle['Trade hubs of the Indian Ocean'].uuid);

    // src/views/map/View.vue:1017-1024 calls getCollections() without params and reads `result.data.data`
    // (the envelope's data) as the list, then `[0].uuid`: with the page object, `result.data.data.data`.
    const all = await send(app, 'GET', 'map/collections', { token: deckhand });
    assert.is(all.status, 200);
    assert.is(all.body.data.data.length, 2);
    assert.type(all.body.data.data[0].uuid, 'string');
  },
);

Client('POST map/collection with public: 0 is private: an anonymous read is a 404', async ({ app, deckhand }) => {
  // src/assets/sripts/api/map_service.ts:35 `http.post('map/collection', {data})`, called by
  // src/views/user/account/maps.vue:323-328 with the form: {title, description, public (0 or 1, the
  // select of maps.vue:752-758), sharedUsers (the combobox, [] by default)}. The view reads nothing of
  // the answer: it reloads the list (maps.vue:332).
  const created = await send(app, 'POST', 'map/collection', {
    token: deckhand,
    data: { title: 'Smugglers coves', description: '', public: 0, sharedUsers: [] },
  });
  assert.is(created.status, 200, created.text);
  assert.is(created.body.data.public, 0);
  const uuid = created.body.data.uuid;
  // src/assets/sripts/api/map_service.ts:85 `http.get(\`map/collection/${uuid}\`)`, without a token.
  assert.is((await send(app, 'GET', `map/collection/${uuid}`)).status, 404, 'private means private');
  const own = await send(app, 'GET', `map/collection/${uuid}`, { token: deckhand });
  assert.is(own.status, 200);
  assertClientCollection(own.body.data);
  // The reload of maps.vue:332 lists it, with the value the edit form sends back.
  const list = await send(app, 'GET', 'map/collections', { token: deckhand, params: { page: 1, pageSize: 10 } });
  const listed = list.body.data.data.find((collection: any) => collection.uuid === uuid);
  assert.is(listed.public, 0);
  assert.is(listed.description, '');

  // The form's default is public: 1 (maps.vue:390).
  const open = await send(app, 'POST', 'map/collection', {
    token: deckhand,
    data: { title: 'Open waters', description: 'for all', public: 1, sharedUsers: [] },
  });
  assert.is(open.status, 200, open.text);
  assert.is((await send(app, 'GET', `map/collection/${open.body.data.uuid}`)).status, 200);
  // CreateCollectionData (src/assets/types/Map.ts:39-44) types public as boolean: false is private too.
  const typed = await send(app, 'POST', 'map/collection', { token: deckhand, data: { title: 'Typed', public: false } });
  assert.is(typed.status, 200, typed.text);
  assert.is((await send(app, 'GET', `map/collection/${typed.body.data.uuid}`)).status, 404);
});

Client(
  'PUT map/collection/{uuid}: the edit form sends every field back; public 0 hides it',
  async ({ app, deckhand, captain }) => {
    const list = await send(app, 'GET', 'map/collections', { token: deckhand, params: { page: 1, pageSize: 10 } });
    const collection = list.body.data.data.find((entry: any) => entry.title === 'Trade hubs of the Indian Ocean');
    // src/views/user/account/maps.vue:368-376 fills the form from the listed collection, then
    // maps.vue:315-320 calls src/assets/sripts/api/map_service.ts:52
    // `http.put(\`map/collection/${uuid}\`, {data})` with {title, description, public, sharedUsers}.
    const form = {
      title: collection.title,
      description: collection.description || '',
      public: collection.public,
      sharedUsers: collection.sharedUsers || [],
    };
    const unchanged = await send(app, 'PUT', `map/collection/${collection.uuid}`, { token: deckhand, data: form });
    assert.is(unchanged.status, 200, unchanged.text);
    assert.is(unchanged.body.data.public, 1);
    assert.is(unchanged.body.data.pointCount, 4, 'points are kept when not sent');
    const hidden = await send(app, 'PUT', `map/collection/${collection.uuid}`, {
      token: deckhand,
      data: { ...form, public: 0 },
    });
    assert.is(hidden.status, 200, hidden.text);
    assert.is((await send(app, 'GET', `map/collection/${collection.uuid}`)).status, 404);
    const again = await send(app, 'PUT', `map/collection/${collection.uuid}`, {
      token: deckhand,
      data: { ...form, public: 1 },
    });
    assert.is(again.status, 200);
    assert.is((await send(app, 'GET', `map/collection/${collection.uuid}`)).status, 200);
    // Someone else's public collection: 403, as before.
    assert.is(
      (await send(app, 'PUT', `map/collection/${collection.uuid}`, { token: captain, data: form })).status,
      403,
    );
  },
);

Client('DELETE map/collection/{uuid}: the collection is gone from the list', async ({ app, deckhand }) => {
  const created = await send(app, 'POST', 'map/collection', {
    token: deckhand,
    data: { title: 'Doomed', description: '', public: 1, sharedUsers: [] },
  });
  const uuid = created.body.data.uuid;
  // src/assets/sripts/api/map_service.ts:70 `http.del(\`map/collection/${uuid}\`)`, no body, called by
  // src/views/user/account/maps.vue:444, which then reloads the list (maps.vue:445).
  const deleted = await send(app, 'DELETE', `map/collection/${uuid}`, { token: deckhand });
  assert.is(deleted.status, 200, deleted.text);
  const list = await send(app, 'GET', 'map/collections', { token: deckhand, params: { page: 1, pageSize: 10 } });
  assert.not.ok(list.body.data.data.some((collection: any) => collection.uuid === uuid));
});

Client(
  'GET calendar/data?season=: History.vue reads data.events{} with occurrences, duration, name',
  async ({ app }) => {
    // src/assets/sripts/api/calendar_service.ts:17 `http.get('calendar/data', {params: {season: seasonId}})`,
    // called by src/views/calendar/History.vue:189 with the season's id from glow-prow-data (its key,
    // e.g. `shatteredSeas`; the demo's seasons are the data set's, issue 34); the view keeps
    // `result.data.data` (the envelope's data, History.vue:191-192).
    const response = await send(app, 'GET', 'calendar/data', { params: { season: 'shatteredSeas' } });
    assert.is(response.status, 200, response.text);
    const data = response.body.data;
    // History.vue:94, 104, 143: `Object.values(calendarData.events)`.
    assert.type(data.events, 'object');
    assert.not.ok(Array.isArray(data.events));
    const events = Object.entries(data.events) as [string, any][];
    // The data set's events of that season (events.json), which the demo places inside it.
    assert.equal(
      events.map(([key]) => key),
      ['gloryAdorned', 'theHonorless', 'moonshineLarceny'],
    );
    for (const [key, event] of events) {
      assert.is(event.id, key, 'keyed by event id'); // History.vue:165, 255, 414; calendarEventSLotWidget.vue:55 (i18n key)
      assert.type(event.name, 'string'); // History.vue:166
      assert.type(event.description, 'string'); // History.vue:167
      assert.ok(Number.isInteger(event.duration) && event.duration >= 1, `${key}: duration`); // History.vue:157, 168
      assert.equal(event.droppeds, {}); // History.vue:169; calendarEventSLotWidget.vue:20 `Object.keys(props.data.droppeds)`
      assert.ok(event.occurrences.length >= 1); // History.vue:105, 144
      for (const occurrence of event.occurrences) {
        // History.vue:106-111 (new Date(year, month, 0): month is 1-12), 145, 151-152, 171-173.
        assert.ok(Number.isInteger(occurrence.year) && occurrence.year >= 2000);
        assert.ok(Number.isInteger(occurrence.month) && occurrence.month >= 1 && occurrence.month <= 12);
        assert.ok(Number.isInteger(occurrence.day) && occurrence.day >= 1 && occurrence.day <= 31);
        const start = new Date(event.startsAt);
        assert.equal(
          [occurrence.year, occurrence.month, occurrence.day],
          [start.getUTCFullYear(), start.getUTCMonth() + 1, start.getUTCDate()],
        );
      }
    }
    // Its alternativeName (y3s2) and number name it too; the lookup's errors stay as they were.
    assert.equal((await send(app, 'GET', 'calendar/data', { params: { season: 'y3s2' } })).body.data, data);
    assert.equal((await send(app, 'GET', 'calendar/data', { params: { season: 9 } })).body.data, data);
    assert.is((await send(app, 'GET', 'calendar/data', { params: { season: 'y9s9' } })).status, 404);
    assert.is((await send(app, 'GET', 'calendar/data')).status, 400);
  },
);

Client(
  'window.open calendar/events.ics and calendar/event.ics: History.vue subscribes to the season or one event',
  async ({ app }) => {
    // src/views/calendar/History.vue:230-251 `openICSFile`: `window.open(\`${http.location}calendar/${url}?${params}\`)`
    // with `new URLSearchParams({language: 'zh_CN', season, eventId: eventId || ''})`; a browser
    // navigation (no axios, no token), handed to the phone's calendar: the answer is text/calendar.
    const open = (url: string, season: string, eventId?: string) =>
      app.rest(
        'GET',
        `/api/calendar/${url}?${new URLSearchParams({ language: 'zh_CN', season, eventId: eventId || '' })}`,
      );
    const events = Object.keys(
      (await send(app, 'GET', 'calendar/data', { params: { season: 'shatteredSeas' } })).body.data.events,
    );
    const season = await open('events.ics', 'shatteredSeas');
    assert.is(season.status, 200, season.text);
    assert.is(season.headers.get('content-type'), 'text/calendar; charset=utf-8');
    assert.ok(season.text.startsWith('BEGIN:VCALENDAR\r\n'));
    const uids = [...season.text.matchAll(/^UID:(.*)\r$/gm)].map((match) => match[1]);
    assert.equal(
      uids,
      events.map((id) => `${id}@y3s2.tidewatch`),
      'one VEVENT per event, in order of start',
    );
    const one = await open('event.ics', 'shatteredSeas', events[0]);
    assert.is(one.status, 200, one.text);
    assert.equal(
      [...one.text.matchAll(/^UID:(.*)\r$/gm)].map((match) => match[1]),
      [`${events[0]}@y3s2.tidewatch`],
    );
    assert.is((await open('event.ics', 'shatteredSeas', 'no-such-event')).status, 404);
  },
);

Client.run();
