import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { DEMO_SNAPSHOTS_PER_SEASON } from '../../server/seed/live-data';
import { startTestServer, type TTestServer } from '../support/helpers';

const MINUTE = 60_000;

const Seed = suite<{ app: TTestServer; startedMs: number }>('live data demo seed');

Seed.before(async (context) => {
  context.startedMs = Date.now();
  context.app = await startTestServer({ SEED_DEMO: true });
});
Seed.after(async (context) => {
  await context.app.stop();
});

Seed(
  'two seasons, the current one running, with seven days of snapshots every five minutes',
  async ({ app, startedMs }) => {
    assert.is(DEMO_SNAPSHOTS_PER_SEASON, 2016);
    const seasons = (await app.rest('GET', '/api/stateOfWar/seasons')).body.data;
    assert.is(seasons.currentSeasonId, 'y3s4');
    assert.equal(
      seasons.items.map((item: any) => [item.id, item.status, item.snapshotCount]),
      [
        ['y3s3', 'ended', 2016],
        ['y3s4', 'active', 2016],
      ],
    );
    const current = seasons.items[1];
    const lastMs = Date.parse(current.lastSnapshotAt);
    assert.is(lastMs % (5 * MINUTE), 0);
    // Seeded during start-up: within five minutes of it (a slow start may cross a five-minute boundary).
    assert.ok(lastMs <= app.clock.now().getTime(), 'no snapshot from the future');
    assert.ok(startedMs - lastMs < 5 * MINUTE, 'the last snapshot is from the last five minutes before the start');
    assert.is(lastMs - Date.parse(current.firstSnapshotAt), 2015 * 5 * MINUTE);
    const previous = seasons.items[0];
    assert.is(
      Date.parse(previous.lastSnapshotAt),
      Date.parse(previous.endsAt) - 5 * MINUTE,
      'the past season ends with its last snapshot',
    );
  },
);

Seed('latest and history show live-looking data', async ({ app }) => {
  const latest = (await app.rest('GET', '/api/stateOfWar/latest')).body.data;
  assert.is(latest.companies.length, 4);
  assert.is(latest.zones.length, 6);
  assert.equal(
    latest.companies.map((company: any) => company.rank),
    [1, 2, 3, 4],
  );
  const history1d = await app.trpc().war.getHistory.query({});
  const lastMs = Date.parse(history1d.lastSnapshotAt!);
  const inLastQuarter = Math.floor((lastMs % (15 * MINUTE)) / (5 * MINUTE)) + 1;
  assert.is(history1d.buckets.length, 96);
  assert.ok(history1d.buckets.slice(0, 95).every((bucket) => bucket.snapshotCount === 3));
  assert.is(history1d.buckets[95]!.snapshotCount, inLastQuarter);
  const history7d = await app.trpc().war.getHistory.query({ range: '7d' });
  const inLastHour = Math.floor((lastMs % (60 * MINUTE)) / (5 * MINUTE)) + 1;
  assert.ok(history7d.buckets.slice(0, 167).every((bucket) => bucket.snapshotCount === 12));
  assert.is(history7d.buckets[167]!.snapshotCount, inLastHour);
  const history1h = await app.trpc().war.getHistory.query({ range: '1h' });
  assert.is(history1h.buckets.filter((bucket) => bucket.snapshotCount === 1).length, 12);
});

Seed('campaigns in each status and calendars for both seasons', async ({ app }) => {
  const total = async (status: string) =>
    (await app.rest('GET', `/api/drop/history?status=${status}`)).body.data.pagination.total;
  assert.equal([await total('active'), await total('upcoming'), await total('ended')], [2, 2, 3]);
  assert.is((await app.rest('GET', '/api/drop/current')).body.data.items.length, 2);
  for (const season of ['y3s3', 'y3s4']) {
    const calendar = (await app.rest('GET', `/api/calendar/data?season=${season}`)).body.data;
    const events = Object.values(calendar.events) as { occurrences: unknown[]; duration: number }[];
    assert.ok(events.length >= 8, `${season} has a calendar`);
    assert.ok(
      events.every((event) => event.occurrences.length === 1 && event.duration >= 1),
      `${season}: each event has its start day and duration`,
    );
  }
});

Seed.run();
