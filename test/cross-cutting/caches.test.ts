/**
 * The cache scopes (server/infra/cache/index.ts), the read cache's stored REST answers: never stale after a
 * write, bounded in bytes, admitted on a second offer. The war memos, on any surface or process: caches-war.test.ts.
 */
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { seedDemoCatalog } from '../../server/seed/assemblies';
import { demoCampaigns } from '../../server/seed/live-data';
import { upsertCampaigns } from '../../server/domains/drop/ingestion';
import { setRole } from '../../server/domains/user/account';
import { MemoryReadCache } from '../../server/infra/cache/read-cache';
import { startTestServer, type TTestServer } from '../support/helpers';

const MINUTE = 60_000;

const Stored = suite<{ app: TTestServer; owner: { token: string } }>(
  'REST response cache: anonymous reads of cached routes, never stale after a write',
);

const HULK = {
  name: 'Stored hulk',
  shipId: 'hulk',
  weapons: [
    { slot: 'leftSideWeapon', itemId: 'demicannon1' },
    { slot: 'rightSideWeapon', itemId: 'demicannon1' },
  ],
};

Stored.before.each(async (context) => {
  context.app = await startTestServer();
  const now = context.app.clock.now();
  await seedDemoCatalog(context.app.database.db, now);
  // Campaigns only: the war snapshots of the full live-data seed are not needed here.
  await upsertCampaigns({ db: context.app.database.db, now: () => now }, { campaigns: demoCampaigns(now) });
  context.owner = await context.app.signUp();
});
Stored.after.each(async ({ app }) => {
  await app.stop();
});

Stored('a list page is stored bytes-for-bytes; a publish drops it at once; Age counts up', async ({ app, owner }) => {
  const first = await app.rest('GET', '/api/assembly/list?pageSize=5');
  assert.is(first.status, 200);
  assert.is(first.headers.get('age'), null, 'built by the procedure');
  // The read cache stores a value on its second offer (its doorkeeper): a one-off read stores nothing.
  assert.is(
    (await app.rest('GET', '/api/assembly/list?pageSize=5')).headers.get('age'),
    null,
    'built again, and stored',
  );
  app.clock.advance(2_000);
  const second = await app.rest('GET', '/api/assembly/list?pageSize=5');
  assert.is(second.text, first.text);
  assert.is(second.headers.get('age'), '2');
  assert.is(second.headers.get('etag'), first.headers.get('etag'));
  assert.is(second.headers.get('cache-control'), 'no-cache');
  assert.is(second.headers.get('x-content-type-options'), 'nosniff', 'security headers on stored answers too');
  assert.is(
    (
      await app.rest('GET', '/api/assembly/list?pageSize=5', {
        headers: { 'if-none-match': first.headers.get('etag')! },
      })
    ).status,
    304,
  );

  const published = await app.rest('POST', '/api/assembly/publish', { token: owner.token, body: HULK });
  assert.is(published.status, 200, published.text);
  const after = await app.rest('GET', '/api/assembly/list?pageSize=5');
  assert.is(after.headers.get('age'), null);
  assert.is(after.body.data.data[0].uuid, published.body.data.uuid);
  assert.is(after.body.data.pagination.total, first.body.data.pagination.total + 1);
  const trpcList = await app.trpc().assembly.list.query({ pageSize: 5 });
  assert.is(trpcList.data[0]!.uuid, published.body.data.uuid);
});

Stored(
  'a request with a token neither reads nor fills the store; the TTL bounds what no write announces',
  async ({ app, owner }) => {
    await app.rest('GET', '/api/assembly/list');
    await app.rest('GET', '/api/assembly/list');
    const withToken = await app.rest('GET', '/api/assembly/list', { token: owner.token });
    assert.is(withToken.headers.get('age'), null);
    assert.is(withToken.headers.get('cache-control'), 'private, no-cache');
    const viaHeader = await app.rest('GET', '/api/assembly/list', { headers: { 'x-access-token': owner.token } });
    assert.is(viaHeader.headers.get('age'), null);
    assert.is((await app.rest('GET', '/api/assembly/list')).headers.get('age'), '0');
    app.clock.advance(31_000);
    assert.is((await app.rest('GET', '/api/assembly/list')).headers.get('age'), null, 'past the 30 s read-cache TTL');
    assert.is(
      (await app.rest('GET', '/api/assembly/list')).headers.get('age'),
      null,
      'stored again on its second offer',
    );
    const head = await app.rest('HEAD', '/api/assembly/list');
    assert.is(head.status, 200);
    assert.is(head.headers.get('age'), '0');
    assert.is(head.text, '');
  },
);

Stored(
  'drop current: only a hit is replayed, refresh=1 bypasses, and the answer never outlives its max-age',
  async ({ app }) => {
    const miss = await app.rest('GET', '/api/drop/current');
    assert.is(miss.body.data.cache, 'miss');
    const hit = await app.rest('GET', '/api/drop/current');
    assert.is(hit.body.data.cache, 'hit');
    assert.is(hit.headers.get('age'), null, 'the miss was not stored');
    assert.is((await app.rest('GET', '/api/drop/current')).headers.get('age'), null, 'the second hit is stored');
    const replayed = await app.rest('GET', '/api/drop/current');
    assert.is(replayed.text, hit.text);
    assert.is(replayed.headers.get('age'), '0');
    const refreshed = await app.rest('GET', '/api/drop/current?refresh=1');
    assert.is(refreshed.body.data.cache, 'refresh');
    assert.is(refreshed.headers.get('age'), null);
    assert.is(
      (await app.rest('GET', '/api/drop/current?refresh=1')).status,
      429,
      'the refresh throttle is never skipped',
    );
    const maxAge = Number(/max-age=(\d+)/.exec(hit.headers.get('cache-control') ?? '')?.[1]);
    assert.ok(maxAge > 0);
    app.clock.advance(maxAge * 1000);
    const later = await app.rest('GET', '/api/drop/current');
    assert.is(later.headers.get('age'), null, 'expired with its max-age');
  },
);

Stored('an admin campaign upsert drops the stored drop answer at once', async ({ app }) => {
  const admin = await app.signUp();
  await setRole({ db: app.database.db }, { username: admin.username, role: 'admin' });
  // A miss, then two hits: the second is stored (the read cache keeps what is offered twice).
  for (let read = 0; read < 3; read++) await app.rest('GET', '/api/drop/current');
  assert.is((await app.rest('GET', '/api/drop/current')).headers.get('age'), '0');
  const now = app.clock.now().getTime();
  const upserted = await app.rest('POST', '/api/admin/drop/campaigns', {
    token: admin.token,
    body: {
      campaigns: [
        {
          campaignId: 'stored-new',
          name: 'Fresh Campaign',
          game: 'Skull and Bones',
          startsAt: new Date(now - MINUTE).toISOString(),
          endsAt: new Date(now + 60 * MINUTE).toISOString(),
          rewards: [{ name: 'Fresh Sail', requiredMinutes: 15 }],
          channels: [],
        },
      ],
    },
  });
  assert.is(upserted.status, 200, upserted.text);
  const after = await app.rest('GET', '/api/drop/current');
  assert.is(after.headers.get('age'), null);
  assert.ok(after.body.data.items.some((item: { campaignId: string }) => item.campaignId === 'stored-new'));
});

Stored.run();

const Budget = suite('read cache byte budget (stored REST answers)');

Budget('entries that declare their size stay within maxBytes, least recently used out first', async () => {
  const cache = new MemoryReadCache({ maxEntries: 100, maxBytes: 1000, ttlMs: 60_000 });
  cache.set('a', 'A', { bytes: 400 });
  cache.set('b', 'B', { bytes: 400 });
  cache.set('plain', { sizeless: true });
  assert.is(cache.byteSize, 800);
  assert.is(cache.get('a'), 'A', 'a is now the most recently used');
  cache.set('c', 'C', { bytes: 400 });
  assert.is(cache.get('b'), undefined, 'b, now the least recently used, made room');
  assert.is(cache.byteSize, 800);
  assert.is(cache.get('a'), 'A');
  assert.is(cache.get('c'), 'C');
  cache.set('huge', 'H', { bytes: 1001 });
  assert.is(cache.get('huge'), undefined, 'larger than the whole budget: not stored');
  cache.set('plain', 'too big now', { bytes: 1001 });
  assert.is(cache.get('plain'), undefined, 'an oversized value still supersedes the old one');
  cache.set('c', 'C2', { bytes: 100 });
  assert.is(cache.byteSize, 500, 'a replaced entry gives its bytes back');
  await cache.invalidatePrefix('a');
  assert.is(cache.byteSize, 100);
  cache.clear();
  assert.is(cache.byteSize, 0);
  assert.is(cache.size, 0);
});

Budget.run();

const Admission = suite('read cache admission (its doorkeeper)');

Admission(
  'a value is stored on its second offer while its key is remembered; a stored key takes a new value at once',
  () => {
    const cache = new MemoryReadCache({ maxEntries: 4, ttlMs: 60_000, admitOnSecondOffer: true });
    cache.set('a', 'A1');
    assert.is(cache.get('a'), undefined, 'a one-off value is not stored');
    cache.set('a', 'A2');
    assert.is(cache.get('a'), 'A2', 'offered again: stored');
    cache.set('a', 'A3');
    assert.is(cache.get('a'), 'A3', 'a key that holds a value is replaced without waiting');
    // The doorkeeper remembers between maxEntries / 2 and maxEntries refused keys.
    cache.set('b', 'B');
    for (const key of ['c', 'd', 'e', 'f']) cache.set(key, key);
    cache.set('b', 'B');
    assert.is(cache.get('b'), undefined, 'forgotten after four other refusals: refused again');
    cache.set('b', 'B');
    assert.is(cache.get('b'), 'B');
  },
);

Admission(
  'the race rule still holds: a value built before an invalidation is refused, whatever its offers',
  async () => {
    const cache = new MemoryReadCache({ maxEntries: 10, ttlMs: 60_000, admitOnSecondOffer: true });
    cache.set('k', 'first offer');
    assert.is(cache.get('k'), undefined);
    await cache.invalidate('k');
    cache.set('k', 'built before the invalidation');
    assert.is(cache.get('k'), undefined);
    cache.set('k', 'built after it');
    assert.is(cache.get('k'), 'built after it');
  },
);

Admission.run();
