// State of war, snapshots (HTTP, both surfaces): invalid ones are a 400 naming the problem, /latest (the current
// season's newest, names resolved, a 404 while it has none), a season by id, key or number, and the war GETs'
// answer 304 to a matching If-None-Match. The set-up loads the reference data (war.test.ts covers loading it).
import { count } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { warSnapshots } from '../../db/schema';
import type { TSnapshotInput } from '../../server/domains/war/schemas';
import { recordSnapshots } from '../../server/domains/war/snapshots';
import { trpcError } from '../support/http-clients';
import { at, bucketingFixture, DAY, iso, liveSnapshot, MINUTE, snapshotAt, warSuite } from './fixtures';

const War = warSuite('state of war: snapshots', 'reference');

War('latest is a 404 while the current season has no snapshot', async ({ app }) => {
  const response = await app.rest('GET', '/api/stateOfWar/latest');
  assert.is(response.status, 404);
  assert.match(response.body.message, /y9s1/);
  assert.is((await trpcError(app.trpc().war.getLatest.query({}))).status, 404);
});

War('invalid snapshots are a 400 naming the problem and write nothing', async ({ app, admin }) => {
  const good = snapshotAt(at('2025-11-17T11:00:00Z'));
  const cases: [string, TSnapshotInput | Record<string, unknown>, RegExp][] = [
    [
      'unknown zone',
      { ...good, zones: [{ zoneId: 'atlantis', controlledBy: null, scores: {} }] },
      /zones\[0\]\.zoneId: unknown zone "atlantis"/,
    ],
    [
      'unknown company',
      { ...good, companies: [{ companyId: 'nobody', score: 1 }] },
      /companies\[0\]\.companyId: unknown company "nobody"/,
    ],
    [
      'unknown controller',
      { ...good, zones: [{ zoneId: 'red-isle', controlledBy: 'nobody', scores: {} }] },
      /zones\[0\]\.controlledBy/,
    ],
    [
      'unknown zone-score company',
      { ...good, zones: [{ zoneId: 'red-isle', controlledBy: null, scores: { ghost: 3 } }] },
      /zones\[0\]\.scores\.ghost/,
    ],
    [
      'negative score',
      { ...good, companies: [{ companyId: 'crimson', score: -1 }] },
      /companies\[0\]\.score: must not be negative/,
    ],
    ['score not a number', { ...good, companies: [{ companyId: 'crimson', score: 'lots' }] }, /companies\[0\]\.score/],
    [
      'duplicate company',
      {
        ...good,
        companies: [
          { companyId: 'crimson', score: 1 },
          { companyId: 'crimson', score: 2 },
        ],
      },
      /companies\[1\]\.companyId/,
    ],
    ['unknown season', { ...good, season: 'y7s7' }, /season: unknown season "y7s7"/],
    ['outside the season', { ...good, capturedAt: '2024-01-01T00:00:00Z' }, /capturedAt: is outside season y2s4/],
    [
      'in the future',
      { ...good, season: 'y9s1', capturedAt: iso(app.clock.now().getTime() + DAY) },
      /capturedAt: is in the future/,
    ],
    ['bad timestamp', { ...good, capturedAt: 'noon' }, /capturedAt/],
    [
      'hotspot ends before capture',
      { ...good, hotspots: [{ zoneId: 'red-isle', name: 'Raid', kind: 'raid', endsAt: '2025-10-31T00:00:00Z' }] },
      /hotspots\[0\]\.endsAt/,
    ],
  ];
  for (const [name, body, message] of cases) {
    const response = await app.rest('POST', '/api/admin/war/snapshots', { token: admin, body });
    assert.is(response.status, 400, name);
    assert.match(response.body.message, message, `${name}: ${response.body.message}`);
    assert.ok(response.body.data.issues.length > 0, `${name} lists issues`);
  }
  assert.is((await app.database.db.select({ n: count() }).from(warSnapshots).get())!.n, 0);

  const recorded = await app.rest('POST', '/api/admin/war/snapshots', { token: admin, body: good });
  assert.is(recorded.status, 200);
  assert.equal(recorded.body.data, { id: 1, seasonId: 'y2s4', capturedAt: '2025-11-17T11:00:00.000Z' });
  const duplicate = await trpcError(
    app.trpc(admin).admin.war.recordSnapshot.mutate({ ...good, season: 7, capturedAt: '2025-11-17T12:00:00+01:00' }),
  );
  assert.is(duplicate.status, 400);
  assert.match(duplicate.message, /capturedAt: a snapshot of season y2s4 at 2025-11-17T11:00:00.000Z already exists/);
  assert.is((await app.database.db.select({ n: count() }).from(warSnapshots).get())!.n, 1);
  await app.database.db.delete(warSnapshots).run();
});

War('latest: newest snapshot of the current season with names resolved', async ({ app, admin }) => {
  const now = Math.floor(app.clock.now().getTime() / MINUTE) * MINUTE;
  await app.trpc(admin).admin.war.recordSnapshot.mutate({ ...snapshotAt(now - 10 * MINUTE, 'y9s1') });
  await app.rest('POST', '/api/admin/war/snapshots', { token: admin, body: liveSnapshot(now) });
  const response = await app.rest('GET', '/api/stateOfWar/latest');
  assert.is(response.status, 200);
  assert.is(response.headers.get('cache-control'), 'public, max-age=60');
  const state = response.body.data;
  assert.is(state.season.id, 'y9s1');
  assert.is(state.capturedAt, iso(now - 5 * MINUTE));
  assert.equal(state.companies, [
    { id: 'sable', name: 'Sable Tide', color: '#34495e', score: 1500.5, zonesControlled: 2, rank: 1 },
    { id: 'crimson', name: 'Crimson Reef', color: '#c0392b', score: 1200, zonesControlled: 0, rank: 2 },
  ]);
  assert.equal(state.zones, [
    {
      id: 'open-ocean',
      name: 'Open Ocean',
      controller: { id: 'sable', name: 'Sable Tide', color: '#34495e' },
      scores: [{ companyId: 'sable', name: 'Sable Tide', score: 7 }],
    },
    {
      id: 'red-isle',
      name: 'Red Isle',
      controller: { id: 'sable', name: 'Sable Tide', color: '#34495e' },
      scores: [
        { companyId: 'sable', name: 'Sable Tide', score: 30 },
        { companyId: 'crimson', name: 'Crimson Reef', score: 10 },
      ],
    },
  ]);
  assert.equal(state.hotspots, [
    {
      zoneId: 'open-ocean',
      zoneName: 'Open Ocean',
      name: 'Treasure Convoy',
      kind: 'convoy',
      endsAt: iso(now + 60 * MINUTE),
    },
  ]);
  assert.equal(await app.trpc().war.getLatest.query({}), state);
});

War('season by id, key or number; unknown is a 404; a season without snapshots has none', async ({ app }) => {
  await recordSnapshots({ db: app.database.db, now: app.clock.now }, { snapshots: bucketingFixture() });
  for (const ref of ['y2s4', 'Y2S4', 'gutsAndGlory', '7']) {
    const response = await app.rest('GET', `/api/stateOfWar/season/${ref}`);
    assert.is(response.status, 200, ref);
    assert.is(response.body.data.season.id, 'y2s4');
    assert.is(response.body.data.capturedAt, '2025-11-17T10:07:30.000Z');
    assert.is(response.headers.get('cache-control'), 'public, max-age=3600', 'an ended season is cached longer');
  }
  assert.is(
    (await app.trpc().war.getSeason.query({ season: 7 })).companies.find((company) => company.id === 'crimson')!.score,
    607.5,
  );
  const empty = await app.rest('GET', '/api/stateOfWar/season/y1s1');
  assert.is(empty.status, 200);
  assert.equal([empty.body.data.capturedAt, empty.body.data.companies, empty.body.data.zones], [null, [], []]);
  const unknown = await app.rest('GET', '/api/stateOfWar/season/y5s5');
  assert.is(unknown.status, 404);
  assert.match(unknown.body.message, /y5s5/);
  assert.is((await trpcError(app.trpc().war.getSeason.query({ season: 404 }))).status, 404);
});

War('war GETs answer 304 to a matching If-None-Match', async ({ app }) => {
  for (const path of [
    '/api/stateOfWar/latest',
    '/api/stateOfWar/seasons',
    '/api/stateOfWar/season/y2s4',
    '/api/stateOfWar/history?range=7d&season=y2s4',
  ]) {
    const first = await app.rest('GET', path);
    const etag = first.headers.get('etag');
    assert.ok(etag);
    const second = await fetch(`${app.url}${path}`, { headers: { 'if-none-match': etag! } });
    assert.is(second.status, 304, path);
  }
});

War.run();
