import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO_COMPANIES, seedLiveData } from '../db/seed/live-data';
import { splitRequestTarget } from '../server/rest/url';
import { recordSnapshots, upsertWarReference } from '../server/services/war';
import { startTestServer, type TTestServer } from './helpers';

const MINUTE = 60_000;

const Url = suite('request target split (fast path of the REST adapter)');

Url('gives exactly what WHATWG URL parsing gives, fast path or not', () => {
  const targets = [
    '/', '/api/assembly/list', '/api/assembly/list?page=2&keyword=a%20b+c', '/api/../x', '/api/./x', '/api/x/..', '//evil/x',
    '/api/x/', '/api/%41', '/api/x#frag', '/api/x?q=1#f', '/api/openapi.json', '/a\\b', '/api/x..y', '/.hidden', "/api/a'b",
    '/api/a|b', '/api/a{b}', '/api/[x]', '/api/a;b=c:d@e', '', 'http://other.example/api/x?y=1', '/api/é', '/api/x?a=%zz&a=2',
  ];
  for (const target of targets) {
    const url = new URL(target, 'http://localhost');
    const split = splitRequestTarget(target);
    assert.is(split.pathname, url.pathname, target);
    assert.equal([...new URLSearchParams(split.search)], [...url.searchParams], target);
  }
});

Url('plain targets keep their raw query string', () => {
  assert.equal(splitRequestTarget('/api/drop/12?refresh=1&x=a+b'), { pathname: '/api/drop/12', search: 'refresh=1&x=a+b' });
  assert.equal(splitRequestTarget('/api/health'), { pathname: '/api/health', search: '' });
});

Url.run();

const Memo = suite<{ app: TTestServer }>('war history memo: never stale');

Memo.before.each(async (context) => {
  context.app = await startTestServer();
  await seedLiveData(context.app.database.db, context.app.clock.now());
});
Memo.after.each(async ({ app }) => {
  await app.stop();
});

Memo('a snapshot backfilled inside the window shows at once, on both surfaces', async ({ app }) => {
  const before = (await app.rest('GET', '/api/stateOfWar/history?range=1d')).body.data;
  assert.is(before.buckets.length, 96);
  const bucket = before.buckets[50];
  // The demo seed writes a snapshot every 5 minutes: three per 15-minute bucket.
  assert.is(bucket.snapshotCount, 3);
  const crimson = bucket.companies.find((company: { id: string }) => company.id === 'crimson-reef');
  // Served twice from the memo: identical.
  assert.equal((await app.rest('GET', '/api/stateOfWar/history?range=1d')).body.data, before);

  const backfilled = Date.parse(bucket.start) + MINUTE;
  await recordSnapshots(
    app.database.db,
    [{ season: before.season.id, capturedAt: new Date(backfilled).toISOString(), companies: DEMO_COMPANIES.map((company) => ({ companyId: company.id, score: 0 })), zones: [], hotspots: [] }],
    app.clock.now(),
  );
  const after = (await app.rest('GET', '/api/stateOfWar/history?range=1d')).body.data;
  const changed = after.buckets[50];
  assert.is(changed.snapshotCount, 4);
  // Three snapshots averaging A plus one scoring 0: the new mean is 3A/4 (2 decimals); the minimum is 0.
  const next = changed.companies.find((company: { id: string }) => company.id === 'crimson-reef');
  assert.is(next.average, Math.round(((crimson.average * 3) / 4) * 100) / 100);
  assert.is(next.min, 0);
  assert.is(changed.lastSnapshotAt, bucket.lastSnapshotAt, 'the backfilled snapshot is not the last of its bucket');
  assert.equal(after.buckets[49], before.buckets[49]);
  const viaTrpc = await app.trpc().war.getHistory.query({ range: '1d' });
  assert.is(viaTrpc.buckets[50]!.snapshotCount, 4);
});

Memo('a renamed company shows at once', async ({ app }) => {
  const before = (await app.rest('GET', '/api/stateOfWar/history?range=7d')).body.data;
  assert.is(before.buckets.at(-1).companies.find((company: { id: string }) => company.id === 'sable-tide').name, 'Sable Tide Trading');
  await upsertWarReference(app.database.db, { seasons: [], zones: [], companies: [{ id: 'sable-tide', name: 'Sable Tide Renamed', color: '#000000' }] });
  const after = (await app.rest('GET', '/api/stateOfWar/history?range=7d')).body.data;
  const sable = after.buckets.at(-1).companies.find((company: { id: string }) => company.id === 'sable-tide');
  assert.equal([sable.name, sable.color], ['Sable Tide Renamed', '#000000']);
});

Memo.run();
