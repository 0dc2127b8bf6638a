import { readFileSync } from 'node:fs';
import { count, eq } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { warSnapshots, warZones } from '../../db/schema';
import { setRole } from '../../server/domains/user/account';
import { seasonsFromCommunityFormat } from '../../server/domains/war/seasons';
import type { TSnapshotInput } from '../../server/domains/war/schemas';
import { recordSnapshots } from '../../server/domains/war/snapshots';
import { JOBS } from '../../server/jobs';
import { startTestServer, trpcError, type TTestServer } from '../support/helpers';
import { at, COMPANIES, DAY, iso, MINUTE, ZONES } from './fixtures';

interface TCtx {
  app: TTestServer;
  admin: string;
  user: string;
}

const War = suite<TCtx>('state of war');

/** Test data for y2s4 (gutsAndGlory, 2025-10-21..2026-02-10): crimson's score is the minute of the day (x.5 on :30 s). */
function snapshotAt(ms: number, season = 'y2s4'): TSnapshotInput {
  const minuteOfDay = (ms - at('2025-11-17T00:00:00Z')) / MINUTE;
  return {
    season,
    capturedAt: iso(ms),
    companies: [
      { companyId: 'crimson', score: minuteOfDay },
      { companyId: 'sable', score: 1000 },
    ],
    zones: [
      { zoneId: 'red-isle', controlledBy: 'crimson', scores: { crimson: 10, sable: 5 } },
      { zoneId: 'open-ocean', controlledBy: null, scores: {} },
    ],
    hotspots: [],
  };
}

/**
 * The bucketing fixture (hand-computed expectations below):
 * - sparse: every 30 min from 2025-11-09T00:00Z to 2025-11-17T10:00Z (405 snapshots);
 * - dense: every minute at :30 s from 08:30:30 to 10:07:30 on 2025-11-17, except 09:45:30 (97).
 * Last snapshot: 2025-11-17T10:07:30Z.
 */
function fixture(): TSnapshotInput[] {
  const times: number[] = [];
  for (let t = at('2025-11-09T00:00:00Z'); t <= at('2025-11-17T10:00:00Z'); t += 30 * MINUTE) times.push(t);
  for (let t = at('2025-11-17T08:30:30Z'); t <= at('2025-11-17T10:07:30Z'); t += MINUTE) {
    if (t !== at('2025-11-17T09:45:30Z')) times.push(t);
  }
  return times.map((t) => snapshotAt(t));
}

War.before(async (context) => {
  context.app = await startTestServer();
  const admin = await context.app.signUp();
  await setRole({ db: context.app.database.db }, { username: admin.username, role: 'admin' });
  context.admin = admin.token;
  context.user = (await context.app.signUp()).token;
});
War.after(async (context) => {
  await context.app.stop();
});

const communitySeasons = () =>
  seasonsFromCommunityFormat(JSON.parse(readFileSync(new URL('../fixtures/seasons.json', import.meta.url), 'utf8')));

/** A season running now, so /latest has a current season. */
function liveSeason(now: number) {
  const day = (offset: number) => iso(Math.floor(now / DAY) * DAY + offset * DAY).slice(0, 10);
  return { id: 'y9s1', key: 'liveWaters', name: 'Live Waters', number: 90, startDate: day(-10), endDate: day(10) };
}

War('reference data is admin-only: 401 without a token, 403 for a user, on both surfaces', async ({ app, user }) => {
  const body = { zones: ZONES };
  assert.is((await app.rest('POST', '/api/admin/war/reference', { body })).status, 401);
  assert.is((await app.rest('POST', '/api/admin/war/reference', { body, token: user })).status, 403);
  assert.is((await trpcError(app.trpc(user).admin.war.upsertReference.mutate(body))).status, 403);
  assert.is(
    (await trpcError(app.trpc(user).admin.war.recordSnapshot.mutate(snapshotAt(at('2025-11-01T00:00:00Z'))))).status,
    403,
  );
  assert.is(
    (await app.rest('POST', '/api/admin/war/snapshots', { body: snapshotAt(at('2025-11-01T00:00:00Z')) })).status,
    401,
  );
  assert.is((await app.database.db.select({ n: count() }).from(warZones).get())!.n, 0);
});

War('an admin loads seasons (community format), zones and companies; clashes are a 400', async ({ app, admin }) => {
  const seasons = communitySeasons();
  assert.is(seasons.length, 10);
  assert.equal(seasons[7], {
    id: 'y2s4',
    key: 'gutsAndGlory',
    name: 'Guts and Glory',
    number: 7,
    startDate: '2025-10-21',
    endDate: '2026-02-10',
  });
  const loaded = await app.rest('POST', '/api/admin/war/reference', {
    token: admin,
    body: { seasons: [...seasons, liveSeason(app.clock.now().getTime())], zones: ZONES, companies: COMPANIES },
  });
  assert.is(loaded.status, 200);
  assert.equal(loaded.body.data, { seasons: 11, zones: 2, companies: 2 });
  const clash = await app.rest('POST', '/api/admin/war/reference', {
    token: admin,
    body: { seasons: [{ id: 'y9s9', number: 7, startDate: '2030-01-01', endDate: '2030-02-01' }] },
  });
  assert.is(clash.status, 400);
  assert.equal(clash.body.data.issues, [{ path: 'seasons[0].number', message: 'is already used by season y2s4' }]);
  const backwards = await trpcError(
    app.trpc(admin).admin.war.upsertReference.mutate({
      seasons: [{ id: 'y9s9', number: 99, startDate: '2030-02-01', endDate: '2030-01-01' }],
    }),
  );
  assert.is(backwards.status, 400);
  assert.match(backwards.message, /seasons\[0\]\.endDate/);
  const badDay = await app.rest('POST', '/api/admin/war/reference', {
    token: admin,
    body: { seasons: [{ id: 'y9s9', number: 99, startDate: '2030-02-30', endDate: '2030-03-01' }] },
  });
  assert.is(badDay.status, 400);
  assert.match(badDay.body.message, /startDate/);
  assert.is((await app.rest('POST', '/api/admin/war/reference', { token: admin, body: {} })).status, 400);
});

War('seasons list their spans, status and snapshot coverage', async ({ app }) => {
  const response = await app.rest('GET', '/api/stateOfWar/seasons');
  assert.is(response.status, 200);
  assert.is(response.headers.get('cache-control'), 'public, max-age=300');
  const items = response.body.data.items;
  assert.is(items.length, 11);
  const guts = items.find((item: any) => item.id === 'y2s4');
  assert.equal(guts, {
    id: 'y2s4',
    key: 'gutsAndGlory',
    name: 'Guts and Glory',
    number: 7,
    startDate: '2025-10-21',
    endDate: '2026-02-10',
    startsAt: '2025-10-21T00:00:00.000Z',
    endsAt: '2026-02-11T00:00:00.000Z',
    status: 'ended',
    snapshotCount: 0,
    firstSnapshotAt: null,
    lastSnapshotAt: null,
    current: false,
  });
  assert.is(response.body.data.currentSeasonId, 'y9s1');
  assert.is(items.find((item: any) => item.id === 'y9s1').status, 'active');
  const viaTrpc = await app.trpc().war.listSeasons.query({});
  assert.equal(
    viaTrpc.items.map((item) => item.id),
    items.map((item: any) => item.id),
  );
});

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
  await app.rest('POST', '/api/admin/war/snapshots', {
    token: admin,
    body: {
      season: 'liveWaters',
      capturedAt: iso(now - 5 * MINUTE),
      companies: [
        { companyId: 'crimson', score: 1200 },
        { companyId: 'sable', score: 1500.5 },
      ],
      zones: [
        { zoneId: 'red-isle', controlledBy: 'sable', scores: { crimson: 10, sable: 30 } },
        { zoneId: 'open-ocean', controlledBy: 'sable', scores: { sable: 7 } },
      ],
      hotspots: [{ zoneId: 'open-ocean', name: 'Treasure Convoy', kind: 'convoy', endsAt: iso(now + 60 * MINUTE) }],
    },
  });
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
  await recordSnapshots({ db: app.database.db, now: app.clock.now }, { snapshots: fixture() });
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

War('history 1h: 60 minute buckets ending with the one holding the last snapshot', async ({ app }) => {
  const response = await app.rest('GET', '/api/stateOfWar/history?range=1h&season=y2s4');
  assert.is(response.status, 200);
  const history = response.body.data;
  assert.is(history.bucketSeconds, 60);
  assert.is(history.buckets.length, 60);
  assert.is(history.from, '2025-11-17T09:08:00.000Z');
  assert.is(history.to, '2025-11-17T10:08:00.000Z');
  assert.is(history.lastSnapshotAt, '2025-11-17T10:07:30.000Z');
  assert.equal(history.buckets[0].start, '2025-11-17T09:08:00.000Z');
  assert.equal(history.buckets[59].start, '2025-11-17T10:07:00.000Z');
  assert.equal(history.buckets[59].end, '2025-11-17T10:08:00.000Z');
  const counts = history.buckets.map((bucket: any) => bucket.snapshotCount);
  assert.is(
    counts.reduce((a: number, b: number) => a + b, 0),
    61,
  );
  const byStart = (text: string) => history.buckets.find((bucket: any) => bucket.start === text);
  assert.is(byStart('2025-11-17T09:45:00.000Z').snapshotCount, 0);
  assert.equal(byStart('2025-11-17T09:45:00.000Z').companies, []);
  const half = byStart('2025-11-17T09:30:00.000Z');
  assert.is(half.snapshotCount, 2);
  assert.is(half.lastSnapshotAt, '2025-11-17T09:30:30.000Z');
  assert.equal(half.companies, [
    {
      id: 'sable',
      name: 'Sable Tide',
      color: '#34495e',
      score: 1000,
      average: 1000,
      min: 1000,
      max: 1000,
      zonesControlled: 0,
    },
    {
      id: 'crimson',
      name: 'Crimson Reef',
      color: '#c0392b',
      score: 570.5,
      average: 570.25,
      min: 570,
      max: 570.5,
      zonesControlled: 1,
    },
  ]);
  assert.is(byStart('2025-11-17T09:31:00.000Z').snapshotCount, 1);
});

War('history 1d (the default): 96 quarter-hour buckets', async ({ app }) => {
  const history = await app.trpc().war.getHistory.query({ season: 'y2s4' });
  assert.is(history.range, '1d');
  assert.is(history.bucketSeconds, 900);
  assert.is(history.buckets.length, 96);
  assert.is(history.from, '2025-11-16T10:15:00.000Z');
  assert.is(history.to, '2025-11-17T10:15:00.000Z');
  const counts = history.buckets.map((bucket) => bucket.snapshotCount);
  assert.is(
    counts.reduce((a, b) => a + b, 0),
    145,
  );
  assert.equal(counts.slice(-7), [16, 15, 16, 15, 16, 14, 9]);
  assert.equal(counts.slice(0, 4), [0, 1, 0, 1], '10:15 and 10:45 hold no half-hourly snapshot');
  const last = history.buckets[95]!;
  assert.equal(
    [last.start, last.end, last.lastSnapshotAt],
    ['2025-11-17T10:00:00.000Z', '2025-11-17T10:15:00.000Z', '2025-11-17T10:07:30.000Z'],
  );
  // 10:00:00 (600) and dense 10:00:30..10:07:30 (600.5..607.5): mean (600 + 8 * 604) / 9.
  assert.equal(
    last.companies.find((company) => company.id === 'crimson'),
    {
      id: 'crimson',
      name: 'Crimson Reef',
      color: '#c0392b',
      score: 607.5,
      average: 603.56,
      min: 600,
      max: 607.5,
      zonesControlled: 1,
    },
  );
  const rest = await app.rest('GET', '/api/stateOfWar/history?season=7');
  assert.equal(
    rest.body.data.buckets.map((bucket: any) => bucket.snapshotCount),
    counts,
  );
});

War('history 7d: 168 hourly buckets', async ({ app }) => {
  const response = await app.rest('GET', '/api/stateOfWar/history?range=7d&season=gutsAndGlory');
  const history = response.body.data;
  assert.is(history.bucketSeconds, 3600);
  assert.is(history.buckets.length, 168);
  assert.is(history.from, '2025-11-10T11:00:00.000Z');
  assert.is(history.to, '2025-11-17T11:00:00.000Z');
  const counts = history.buckets.map((bucket: any) => bucket.snapshotCount);
  assert.is(
    counts.reduce((a: number, b: number) => a + b, 0),
    432,
  );
  assert.equal(counts.slice(-3), [32, 61, 9]);
  assert.ok(counts.slice(0, 165).every((n: number) => n === 2));
  assert.is(history.buckets[0].lastSnapshotAt, '2025-11-10T11:30:00.000Z');
});

War(
  'history: bad range is a 400, unknown season a 404, the current season by default, empty seasons have no buckets',
  async ({ app }) => {
    const bad = await app.rest('GET', '/api/stateOfWar/history?range=2d');
    assert.is(bad.status, 400);
    assert.match(bad.body.message, /range/);
    assert.is((await trpcError(app.trpc().war.getHistory.query({ range: '30d' as never }))).status, 400);
    assert.is((await app.rest('GET', '/api/stateOfWar/history?season=nowhere')).status, 404);
    assert.is((await trpcError(app.trpc().war.getHistory.query({ season: 'y0s9' }))).status, 404);
    const current = await app.rest('GET', '/api/stateOfWar/history?range=1h');
    assert.is(current.body.data.season.id, 'y9s1');
    assert.is(current.headers.get('cache-control'), 'public, max-age=60');
    assert.is(
      current.body.data.buckets.reduce((sum: number, bucket: any) => sum + bucket.snapshotCount, 0),
      2,
    );
    const empty = await app.rest('GET', '/api/stateOfWar/history?season=y1s1');
    assert.equal([empty.body.data.from, empty.body.data.buckets], [null, []]);
  },
);

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

War(
  'retention thins old snapshots to one per hour, keeps recent ones, and is idempotent',
  async ({ app, admin, user }) => {
    const warThinJob = JOBS.find((job) => job.name === 'war-snapshot-thinning');
    assert.ok(warThinJob, 'the thinning job runs with the server');
    assert.is((await app.rest('POST', '/api/admin/war/thin', { token: user, body: {} })).status, 403);
    // The fixture spans 2025-11-09T00 to 2025-11-17T10: 203 hours, one snapshot kept in each.
    const thinned = await app.rest('POST', '/api/admin/war/thin', { token: admin, body: { olderThanDays: 30 } });
    assert.is(thinned.status, 200);
    assert.is(thinned.body.data.deleted, 502 - 203);
    const history = await app.trpc().war.getHistory.query({ range: '7d', season: 'y2s4' });
    assert.is(history.lastSnapshotAt, '2025-11-17T10:00:00.000Z', 'the first snapshot of the last hour is kept');
    assert.ok(
      history.buckets.every((bucket) => bucket.snapshotCount === 1),
      'the 7d range stays complete',
    );
    assert.is((await app.trpc().war.getLatest.query({})).companies.length, 2, 'recent snapshots are untouched');
    const again = await warThinJob!.run(app.database.db, app.app.deps);
    assert.equal((again as { deleted: number }).deleted, 0);
    const current = await app.database.db
      .select({ n: count() })
      .from(warSnapshots)
      .where(eq(warSnapshots.seasonId, 'y9s1'))
      .get();
    assert.is(current!.n, 2);
  },
);

War.run();
