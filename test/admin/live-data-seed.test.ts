// The demo seed's live data on the community data set (issue 34): its real seasons (keyed by the data
// set's ids, their alternativeName the season's id), its regions as the war's zones, the factions they
// name as its companies, a week of snapshots for the current season and the one before, each season's
// calendar of its events, and the codex; on a server started with SEED_DEMO, and in process on a
// clock inside a season.
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { directorySuite } from '../support/directory-suite';
import { openDatabase } from '../../db/client';
import { nameFromKey } from '../../server/domains/war/seasons';
import { readCommunityData } from '../../server/infra/packaged-files';
import { DEMO_SNAPSHOTS_PER_SEASON, demoWar, seedLiveData } from '../../server/seed/live-data';
import { startTestServer, TEST_DRIVER, type TTestServer } from '../support/helpers';
import { suite } from '../support/suite';

const MINUTE = 60_000;
const DAY = 86_400_000;
const DATA = readCommunityData();
const SEASONS = DATA['seasons.json'] as Record<
  string,
  { id: string; alternativeName: string; startDate: string; endDate: string }
>;
const WAR = demoWar(DATA);

/** The season the demo takes as current at `nowMs` (the latest started one still running, else the last ended), and the one before it. */
function currentAndPrevious(nowMs: number) {
  const spans = Object.values(SEASONS)
    .map((season) => ({
      ...season,
      startsAt: Date.parse(`${season.startDate}T00:00:00Z`),
      endsAt: Date.parse(`${season.endDate}T00:00:00Z`) + DAY,
    }))
    .sort((a, b) => a.startsAt - b.startsAt);
  const started = spans.filter((season) => season.startsAt <= nowMs);
  const current = started.filter((season) => season.endsAt > nowMs).at(-1) ?? started.at(-1)!;
  return { current, previous: spans[spans.indexOf(current) - 1]! };
}

const Seed = suite<{ app: TTestServer; startedMs: number }>('live data demo seed, on the community data set');

Seed.before(async (context) => {
  context.startedMs = Date.now();
  context.app = await startTestServer({ SEED_DEMO: true });
});
Seed.after(async (context) => {
  await context.app.stop();
});

Seed(
  'every season of the data set; the current one and the one before with a week of snapshots',
  async ({ app, startedMs }) => {
    assert.is(DEMO_SNAPSHOTS_PER_SEASON, 2016);
    const seasons = (await app.rest('GET', '/api/stateOfWar/seasons')).body.data;
    assert.equal(
      seasons.items.map((item: any) => [item.key, item.id]),
      Object.values(SEASONS).map((season) => [season.id, season.alternativeName.toLowerCase()]),
      'keyed by the data set id, its alternativeName the season id',
    );
    const { current, previous } = currentAndPrevious(startedMs);
    assert.is(seasons.currentSeasonId, current.alternativeName);
    const withSnapshots = seasons.items.filter((item: any) => item.snapshotCount > 0);
    assert.equal(
      withSnapshots.map((item: any) => [item.key, item.snapshotCount]),
      [
        [previous.id, 2016],
        [current.id, 2016],
      ],
    );
    const [before, now] = withSnapshots;
    assert.is(
      Date.parse(before.lastSnapshotAt),
      Date.parse(before.endsAt) - 5 * MINUTE,
      'the past season ends with its last snapshot',
    );
    const lastMs = Date.parse(now.lastSnapshotAt);
    assert.is(lastMs % (5 * MINUTE), 0);
    assert.ok(lastMs <= app.clock.now().getTime(), 'no snapshot from the future');
    // Running: its last snapshot is from the five minutes before the start; ended: the last of the season.
    if (now.status === 'active') assert.ok(startedMs - lastMs < 5 * MINUTE);
    else assert.is(lastMs, Date.parse(now.endsAt) - 5 * MINUTE);
    assert.is(lastMs - Date.parse(now.firstSnapshotAt), 2015 * 5 * MINUTE);
  },
);

Seed("the war's zones are the data set's regions, its companies the factions they name", async ({ app }) => {
  const latest = (await app.rest('GET', '/api/stateOfWar/latest')).body.data;
  assert.equal(latest.zones.map((zone: any) => zone.id).sort(), Object.keys(DATA['regions.json'] as object).sort());
  assert.equal(
    latest.companies.map((company: any) => company.id).sort(),
    WAR.companies.map((company) => company.id).sort(),
  );
  assert.equal(
    latest.companies.map((company: any) => company.rank),
    WAR.companies.map((_, index) => index + 1),
  );
  const regions = DATA['regions.json'] as Record<string, { factions: string[] }>;
  for (const zone of latest.zones) {
    assert.equal(
      zone.scores.map((score: any) => score.companyId).sort(),
      [...regions[zone.id]!.factions].sort(),
      `${zone.id} is contested by its own region's factions`,
    );
    assert.is(zone.name, nameFromKey(zone.id));
  }
  const history = await app.trpc().war.getHistory.query({ range: '7d' });
  assert.is(history.buckets.length, 168);
  assert.ok(history.buckets.slice(0, 167).every((bucket) => bucket.snapshotCount === 12));
});

Seed("each season's calendar holds the data set's events of that season, inside it", async ({ app }) => {
  const events = DATA['events.json'] as Record<string, { seasons: string[] }>;
  for (const season of Object.values(SEASONS)) {
    const expected = Object.keys(events).filter((id) => events[id]!.seasons.includes(season.id));
    for (const ref of [season.id, season.alternativeName]) {
      const calendar = await app.rest('GET', `/api/calendar/data?season=${ref}`);
      assert.is(calendar.status, 200, calendar.text);
      const listed = Object.values(calendar.body.data.events) as any[];
      assert.equal(listed.map((event) => event.id).sort(), [...expected].sort(), `${ref}'s events`);
      for (const event of listed) {
        assert.ok(
          Date.parse(event.startsAt) >= Date.parse(calendar.body.data.season.startsAt),
          `${event.id} starts in ${ref}`,
        );
        assert.ok(
          Date.parse(event.endsAt) <= Date.parse(calendar.body.data.season.endsAt),
          `${event.id} ends in ${ref}`,
        );
        assert.is(event.occurrences.length, 1);
      }
    }
  }
  const total = async (status: string) =>
    (await app.rest('GET', `/api/drop/history?status=${status}`)).body.data.pagination.total;
  assert.equal([await total('active'), await total('upcoming'), await total('ended')], [2, 2, 3]);
});

Seed('the codex is there: comment and like targets of every kind', async ({ app }) => {
  for (const [type, id] of [
    ['ship', 'dhow'],
    ['item', 'culverin1'],
    ['item', 'torpedoes'],
    ['cosmetic', 'crownedPrince'],
    ['npc', 'smugglersNetwork'],
  ]) {
    const count = await app.rest('GET', `/api/likes/count?targetType=${type}&targetId=${id}`);
    assert.is(count.status, 200, `${type} ${id}: ${count.text}`);
  }
});

Seed.run();

const InSeason = directorySuite('live data demo seed on a clock inside a season', 'seed');

InSeason('the running season ends its week of snapshots at the clock, the one before at its end', async ({ dir }) => {
  const database = openDatabase(`file:${join(dir, 'seed.db')}`, { driver: TEST_DRIVER });
  try {
    await database.migrate();
    const nowMs = Date.parse('2026-05-01T12:03:00Z');
    const stats = await seedLiveData({ db: database.db, now: () => new Date(nowMs) });
    assert.equal([stats.seasons, stats.snapshots], [10, 2 * 2016]);
    assert.ok(stats.codexEntries > 5000, `${stats.codexEntries} codex entries`);
    const { current, previous } = currentAndPrevious(nowMs);
    assert.equal([current.id, previous.id], ['eyeOfTheBeast', 'gutsAndGlory']);
    const last = await database.db.all<{ season: string; last: number }>(
      sql`select season_id as season, max(captured_at) as last from war_snapshots group by season_id order by season_id`,
    );
    assert.equal(
      last.map((row) => [row.season, new Date(Number(row.last)).toISOString()]),
      [
        ['y2s4', '2026-02-10T23:55:00.000Z'],
        ['y3s1', '2026-05-01T12:00:00.000Z'],
      ],
    );
  } finally {
    database.close();
  }
});

InSeason.run();
