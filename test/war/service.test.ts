// War service logic called in process (no HTTP): season boundaries of snapshots and of the current
// season, history ranges and their windows, and the messages of invalid import files.
// test/war/war*.test.ts cover the routes on both surfaces (status codes, headers, access rules).
import { count, eq } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { warSnapshots, warZones } from '../../db/schema';
import { importWarFile } from '../../server/domains/war/import';
import type { TSnapshotInput } from '../../server/domains/war/schemas';
import { recordSnapshots } from '../../server/domains/war/snapshots';
import { startInProcess, type TCaller, type TInProcessApp } from '../support/caller';
import { at, COMPANIES, DAY, iso, MINUTE, ZONES } from './fixtures';

const day = (ms: number) => iso(ms).slice(0, 10);

const PAST_SEASONS = [
  { id: 'y2s3', key: 'oathsOfWar', number: 6, startDate: '2025-07-15', endDate: '2025-10-20' },
  { id: 'y2s4', key: 'gutsAndGlory', number: 7, startDate: '2025-10-21', endDate: '2026-02-10' },
];

function snapshot(season: string, ms: number, crimson = 100): TSnapshotInput {
  return {
    season,
    capturedAt: iso(ms),
    companies: [
      { companyId: 'crimson', score: crimson },
      { companyId: 'sable', score: 50 },
    ],
    zones: [{ zoneId: 'red-isle', controlledBy: 'crimson', scores: { crimson: 10, sable: 5 } }],
    hotspots: [],
  };
}

interface TCtx {
  app: TInProcessApp;
  admin: TCaller;
}

const War = suite<TCtx>('war services (in process)');

War.before(async (context) => {
  context.app = await startInProcess();
  context.admin = (await context.app.signUp({ role: 'admin' })).caller;
  await context.admin.admin.war.upsertReference({ seasons: PAST_SEASONS, zones: ZONES, companies: COMPANIES });
});
War.after(({ app }) => {
  app.close();
});

const deps = (app: TInProcessApp) => ({ db: app.database.db, now: app.clock.now });
const errorOf = async (call: Promise<unknown>) => {
  try {
    await call;
  } catch (error) {
    return error as Error & { code?: string; issues?: { path: string; message: string }[] };
  }
  throw new Error('expected the call to fail');
};

War(
  'a snapshot belongs to its season from the first midnight to the midnight after the last day',
  async ({ app, admin }) => {
    const first = await admin.admin.war.recordSnapshot(snapshot('y2s4', at('2025-10-21T00:00:00Z')));
    assert.is(first.seasonId, 'y2s4');
    await admin.admin.war.recordSnapshot(snapshot('gutsAndGlory', at('2026-02-10T23:59:59Z')));
    const after = await errorOf(admin.admin.war.recordSnapshot(snapshot('7', at('2026-02-11T00:00:00Z'))));
    assert.is(after.code, 'BAD_REQUEST');
    assert.is(after.message, 'Invalid snapshot: capturedAt: is outside season y2s4 (2025-10-21 to 2026-02-10)');
    const before = await errorOf(
      recordSnapshots(deps(app), { snapshots: [snapshot('y2s4', at('2025-10-20T23:59:59Z'))] }),
    );
    assert.equal(before.issues, [
      { path: 'snapshots[0].capturedAt', message: 'is outside season y2s4 (2025-10-21 to 2026-02-10)' },
    ]);
  },
);

War('every problem of a batch is listed, and nothing of it is written', async ({ app }) => {
  const stored = async () => (await app.database.db.select({ n: count() }).from(warSnapshots).get())!.n;
  const n = await stored();
  const error = await errorOf(
    recordSnapshots(deps(app), {
      snapshots: [
        snapshot('y2s3', at('2025-08-01T10:00:00Z')),
        {
          ...snapshot('y2s3', at('2025-08-01T10:05:00Z')),
          zones: [{ zoneId: 'atlantis', controlledBy: 'kraken', scores: {} }],
        },
        snapshot('y2s3', at('2025-08-01T10:00:00Z')),
        snapshot('y5s5', at('2025-08-01T10:10:00Z')),
        snapshot('y2s3', app.clock.now().getTime() + 10 * MINUTE),
      ],
    }),
  );
  assert.equal(error.issues, [
    { path: 'snapshots[1].zones[0].zoneId', message: 'unknown zone "atlantis"' },
    { path: 'snapshots[1].zones[0].controlledBy', message: 'unknown company "kraken"' },
    { path: 'snapshots[2].capturedAt', message: 'duplicates the snapshot at snapshots[0]' },
    { path: 'snapshots[3].season', message: 'unknown season "y5s5"' },
    { path: 'snapshots[4].capturedAt', message: `is outside season y2s3 (2025-07-15 to 2025-10-20)` },
    { path: 'snapshots[4].capturedAt', message: 'is in the future' },
  ]);
  assert.is(error.message, 'Invalid snapshot: snapshots[1].zones[0].zoneId: unknown zone "atlantis" (and 5 more)');
  assert.is(await stored(), n);
});

War(
  'history ranges: fixed bucket counts and sizes, the window ending with the bucket of the last snapshot',
  async ({ app, admin }) => {
    // Every 10 minutes from 2025-08-02T00:00Z to 12:00Z (73 snapshots); crimson scores the minute of the day.
    const snapshots: TSnapshotInput[] = [];
    for (let ms = at('2025-08-02T00:00:00Z'); ms <= at('2025-08-02T12:00:00Z'); ms += 10 * MINUTE) {
      snapshots.push(snapshot('y2s3', ms, (ms - at('2025-08-02T00:00:00Z')) / MINUTE));
    }
    await recordSnapshots(deps(app), { snapshots });
    const expected = {
      '1h': {
        bucketSeconds: 60,
        buckets: 60,
        from: '2025-08-02T11:01:00.000Z',
        to: '2025-08-02T12:01:00.000Z',
        counted: 6,
      },
      '1d': {
        bucketSeconds: 900,
        buckets: 96,
        from: '2025-08-01T12:15:00.000Z',
        to: '2025-08-02T12:15:00.000Z',
        counted: 73,
      },
      '7d': {
        bucketSeconds: 3600,
        buckets: 168,
        from: '2025-07-26T13:00:00.000Z',
        to: '2025-08-02T13:00:00.000Z',
        counted: 73,
      },
    } as const;
    for (const [range, want] of Object.entries(expected) as [
      keyof typeof expected,
      (typeof expected)[keyof typeof expected],
    ][]) {
      const history = await admin.war.getHistory({ range, season: 'y2s3' });
      assert.is(history.range, range);
      assert.is(history.bucketSeconds, want.bucketSeconds, range);
      assert.is(history.buckets.length, want.buckets, range);
      assert.is(history.from, want.from, range);
      assert.is(history.to, want.to, range);
      assert.is(history.lastSnapshotAt, '2025-08-02T12:00:00.000Z');
      // The batch of the previous test was refused: y2s3 holds this test's 73 snapshots only.
      const counted = history.buckets.reduce((sum, bucket) => sum + bucket.snapshotCount, 0);
      assert.is(counted, want.counted, range);
      assert.is(history.buckets.at(-1)!.start, iso(Date.parse(want.to) - want.bucketSeconds * 1000));
    }
    const hour = await admin.war.getHistory({ range: '1h', season: 'y2s3' });
    const last = hour.buckets.at(-1)!;
    assert.equal(
      last.companies.map((company) => [company.id, company.score, company.zonesControlled]),
      [
        ['crimson', 720, 1],
        ['sable', 50, 0],
      ],
    );
    assert.is(
      hour.buckets.filter((bucket) => bucket.snapshotCount === 1).length,
      6,
      'one bucket per snapshot, the others empty',
    );
    const quarter = (await admin.war.getHistory({ range: '1d', season: 'y2s3' })).buckets.find(
      (bucket) => bucket.start === '2025-08-02T11:45:00.000Z',
    )!;
    // 11:50 and 12:00 fall in different buckets: 11:45 holds 11:50 only (score 710).
    assert.is(quarter.snapshotCount, 1);
    assert.equal(quarter.companies[0], {
      id: 'crimson',
      name: 'Crimson Reef',
      color: '#c0392b',
      score: 710,
      average: 710,
      min: 710,
      max: 710,
      zonesControlled: 1,
    });
  },
);

War(
  'an import file: issues listed one per line, and a bad snapshot leaves the whole file unwritten',
  async ({ app }) => {
    const misspelt = await errorOf(importWarFile(deps(app), { data: { zone: [] } }));
    assert.is(misspelt.message, 'Invalid data (1 problem):\n  (root): Unrecognized key: "zone"');
    const duplicates = await errorOf(importWarFile(deps(app), { data: { zones: [ZONES[0], ZONES[0]] } }));
    assert.is(duplicates.message, 'Invalid data (1 problem):\n  zones[1].id: duplicates [0]');

    const file = {
      zones: [{ id: 'new-zone', name: 'New Zone' }],
      snapshots: [
        snapshot('y2s4', at('2025-11-17T11:00:00Z')),
        { ...snapshot('y2s4', at('2025-11-17T11:05:00Z')), zones: [{ zoneId: 'atlantis', controlledBy: null }] },
      ],
    };
    const stored = async () => (await app.database.db.select({ n: count() }).from(warSnapshots).get())!.n;
    const n = await stored();
    const bad = await errorOf(importWarFile(deps(app), { data: file }));
    assert.is(bad.message, 'Invalid data (1 problem):\n  snapshots[1].zones[0].zoneId: unknown zone "atlantis"');
    assert.is(await stored(), n);
    assert.is(await app.database.db.select().from(warZones).where(eq(warZones.id, 'new-zone')).get(), undefined);

    const good = await importWarFile(deps(app), { data: { ...file, snapshots: file.snapshots.slice(0, 1) } });
    assert.equal(good, { seasons: 0, zones: 1, companies: 0, snapshots: 1 });
  },
);

War.run();

const Current = suite<{ app: TInProcessApp; admin: TCaller; today: number }>(
  'war services (in process): the current season follows the clock',
);

Current.before(async (context) => {
  context.app = await startInProcess();
  context.admin = (await context.app.signUp({ role: 'admin' })).caller;
  context.today = Math.floor(context.app.clock.now().getTime() / DAY) * DAY;
  const { today } = context;
  await context.admin.admin.war.upsertReference({
    seasons: [
      { id: 'y8s1', number: 80, startDate: day(today - 10 * DAY), endDate: day(today + DAY) },
      { id: 'y8s2', number: 81, startDate: day(today + 2 * DAY), endDate: day(today + 30 * DAY) },
    ],
    zones: ZONES,
    companies: COMPANIES,
  });
});
Current.after(({ app }) => {
  app.close();
});

Current(
  'latest and the default history switch season at the midnight a season starts',
  async ({ app, admin, today }) => {
    await recordSnapshots(
      { db: app.database.db, now: app.clock.now },
      { snapshots: [snapshot('y8s1', today - DAY), snapshot('y8s1', today)] },
    );
    const latest = await admin.war.getLatest();
    assert.is(latest.season.id, 'y8s1');
    assert.is(latest.season.status, 'active');
    assert.is(latest.capturedAt, iso(today));
    assert.is((await admin.war.getHistory({ range: '1h' })).season.id, 'y8s1');
    const seasons = await admin.war.listSeasons();
    assert.is(seasons.currentSeasonId, 'y8s1');
    assert.equal(
      seasons.items.map((season) => [season.id, season.status, season.snapshotCount]),
      [
        ['y8s1', 'active', 2],
        ['y8s2', 'upcoming', 0],
      ],
    );

    // Past the midnight y8s2 starts: the memo of the answers above must not outlive the boundary.
    app.clock.advance(today + 2 * DAY - app.clock.now().getTime() + MINUTE);
    const history = await admin.war.getHistory({ range: '1h' });
    assert.is(history.season.id, 'y8s2');
    assert.equal([history.from, history.buckets], [null, []], 'a season without snapshots has no buckets');
    const error = await errorOf(admin.war.getLatest());
    assert.is(error.code, 'NOT_FOUND');
    assert.is(error.message, 'No war snapshot recorded yet for the current season y8s2');
    const ended = await admin.war.getSeason({ season: 'y8s1' });
    assert.is(ended.season.status, 'ended');
    assert.is(ended.capturedAt, iso(today));
  },
);

Current.run();
