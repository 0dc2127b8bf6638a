/** The cache scopes (server/infra/cache/index.ts), the war memos: never stale after a write, on any surface or process, or a season boundary. */
import * as assert from 'uvu/assert';
import { openDatabase } from '../../db/client';
import { readCommunityData } from '../../server/infra/packaged-files';
import { demoWar, seedLiveData } from '../../server/seed/live-data';
import { upsertWarReference } from '../../server/domains/war/reference';
import { recordSnapshots } from '../../server/domains/war/snapshots';
import { TEST_DRIVER } from '../support/helpers';
import { serverSuite } from '../support/server-suite';

const MINUTE = 60_000;
/** The demo war's trading companies: the factions of the data set's regions. */
const DEMO_COMPANIES = demoWar(readCommunityData()).companies;
const FIRST_COMPANY = DEMO_COMPANIES[0]!.id;

/**
 * A suite on a test server with the demo war seeded (the data set's seasons and zones, snapshots every 5 minutes),
 * its clock inside the data set's last season, so that the current season is running.
 */
function warServerSuite(name: string) {
  return serverSuite(name, {
    setUp: async ({ app }) => {
      app.clock.advance(Date.parse('2026-08-01T12:00:00Z') - app.clock.now().getTime());
      await seedLiveData({ db: app.database.db, now: app.clock.now });
    },
  });
}

// One server for both tests (seeding the war takes a while on libSQL); each changes a different bucket or name.
const Memo = warServerSuite('war history memo: never stale');

Memo('a snapshot backfilled inside the window shows at once, on both surfaces', async ({ app }) => {
  const before = (await app.rest('GET', '/api/stateOfWar/history?range=1d')).body.data;
  assert.is(before.buckets.length, 96);
  const bucket = before.buckets[50];
  // The demo seed writes a snapshot every 5 minutes: three per 15-minute bucket.
  assert.is(bucket.snapshotCount, 3);
  const crimson = bucket.companies.find((company: { id: string }) => company.id === FIRST_COMPANY);
  // Served twice from the memo: identical.
  assert.equal((await app.rest('GET', '/api/stateOfWar/history?range=1d')).body.data, before);

  const backfilled = Date.parse(bucket.start) + MINUTE;
  await recordSnapshots(
    { db: app.database.db, now: app.clock.now },
    {
      snapshots: [
        {
          season: before.season.id,
          capturedAt: new Date(backfilled).toISOString(),
          companies: DEMO_COMPANIES.map((company) => ({ companyId: company.id, score: 0 })),
          zones: [],
          hotspots: [],
        },
      ],
    },
  );
  const after = (await app.rest('GET', '/api/stateOfWar/history?range=1d')).body.data;
  const changed = after.buckets[50];
  assert.is(changed.snapshotCount, 4);
  // Three snapshots averaging A plus one scoring 0: the new mean is 3A/4 (2 decimals); the minimum is 0.
  const next = changed.companies.find((company: { id: string }) => company.id === FIRST_COMPANY);
  assert.is(next.average, Math.round(((crimson.average * 3) / 4) * 100) / 100);
  assert.is(next.min, 0);
  assert.is(changed.lastSnapshotAt, bucket.lastSnapshotAt, 'the backfilled snapshot is not the last of its bucket');
  assert.equal(after.buckets[49], before.buckets[49]);
  const viaTrpc = await app.trpc().war.getHistory.query({ range: '1d' });
  assert.is(viaTrpc.buckets[50]!.snapshotCount, 4);
});

Memo('a renamed company shows at once', async ({ app }) => {
  const { id, name } = DEMO_COMPANIES[1]!;
  const before = (await app.rest('GET', '/api/stateOfWar/history?range=7d')).body.data;
  assert.is(before.buckets.at(-1).companies.find((company: { id: string }) => company.id === id).name, name);
  await upsertWarReference(
    { db: app.database.db },
    { seasons: [], zones: [], companies: [{ id, name: `${name} Renamed`, color: '#000000' }] },
  );
  const after = (await app.rest('GET', '/api/stateOfWar/history?range=7d')).body.data;
  const renamed = after.buckets.at(-1).companies.find((company: { id: string }) => company.id === id);
  assert.equal([renamed.name, renamed.color], [`${name} Renamed`, '#000000']);
});

Memo.run();

// One server for both tests (seeding the war takes a while on libSQL): the write test runs first, the clock test moves time last.
const WarMemo = warServerSuite('war memo: a write by any process, or a season boundary, shows at once');

WarMemo(
  'a snapshot written through another connection (the CLI, another instance) is the latest at once',
  async ({ app }) => {
    const before = (await app.rest('GET', '/api/stateOfWar/latest')).body.data;
    assert.equal((await app.rest('GET', '/api/stateOfWar/latest')).body.data, before, 'served again unchanged');
    // A second connection to the same database: the file, or the same libSQL server (TEST_DATABASE=sqld).
    const other = openDatabase(app.database.remote ? app.database.file : `file:${app.database.file}`, {
      driver: TEST_DRIVER,
    });
    try {
      const capturedAt = new Date(Date.parse(before.capturedAt) + MINUTE).toISOString();
      await recordSnapshots(
        { db: other.db, now: app.clock.now },
        {
          snapshots: [
            {
              season: before.season.id,
              capturedAt,
              companies: DEMO_COMPANIES.map((company, index) => ({ companyId: company.id, score: 1000 - index })),
              zones: [],
              hotspots: [],
            },
          ],
        },
      );
      const after = (await app.rest('GET', '/api/stateOfWar/latest')).body.data;
      assert.is(after.capturedAt, capturedAt);
      assert.equal(
        after.companies.map((company: { score: number }) => company.score),
        DEMO_COMPANIES.map((_, index) => 1000 - index),
      );
      assert.is((await app.trpc().war.getLatest.query({})).capturedAt, capturedAt);
      const history = (await app.rest('GET', '/api/stateOfWar/history?range=1h')).body.data;
      assert.is(history.lastSnapshotAt, capturedAt, 'the history memo too');
    } finally {
      other.close();
    }
  },
);

WarMemo('crossing the end of the season changes its status without any write', async ({ app }) => {
  const before = (await app.rest('GET', '/api/stateOfWar/latest')).body.data;
  assert.is(before.season.status, 'active');
  app.clock.advance(Date.parse(before.season.endsAt) - app.clock.now().getTime() - 5_000);
  assert.is((await app.rest('GET', '/api/stateOfWar/latest')).body.data.season.status, 'active');
  app.clock.advance(6_000);
  const after = (await app.rest('GET', '/api/stateOfWar/latest')).body.data;
  assert.is(after.season.id, before.season.id);
  assert.is(after.season.status, 'ended');
});

WarMemo.run();
