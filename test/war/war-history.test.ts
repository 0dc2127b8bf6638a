// State of war, history (HTTP, both surfaces): the 1h, 1d and 7d ranges' buckets over the bucketing fixture of
// y2s4 (hand-computed expectations), the current season by default, and bad ranges and unknown seasons.
// The set-up loads the reference data, the live season's two snapshots and the bucketing fixture.
import * as assert from 'uvu/assert';
import { trpcError } from '../support/http-clients';
import { warSuite } from './fixtures';

const War = warSuite('state of war: history', 'snapshots');

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

War.run();
