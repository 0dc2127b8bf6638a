// Reading one assembly: the item cache, ETags, private assemblies, bad and unknown uuids; the read cache
// module and the demo data. Views and their batched writes are in item-views.test.ts.
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { assemblies } from '../../db/schema';
import { weakEtag } from '../../server/etag';
import { MemoryReadCache } from '../../server/infra/cache/read-cache';
import { startTestServer } from '../support/helpers';
import { HULK } from '../support/community-sample';
import { trpcError } from '../support/http-clients';
import { suite } from '../support/suite';
import { ownerAndOtherSuite, publish } from './fixtures';

const Item = ownerAndOtherSuite('item: cache, private rules, ETag');

Item('the read cache serves stale rows until force=true; writes invalidate it', async ({ app, owner }) => {
  const created = await publish(app, owner.token, HULK);
  const url = `/api/assembly/item?uuid=${created.uuid}`;
  // The read cache keeps a value offered twice (its doorkeeper): two reads cache the view.
  assert.is((await app.rest('GET', url)).body.data.name, 'Hulk brawler');
  assert.is((await app.rest('GET', url)).body.data.name, 'Hulk brawler');
  // Written behind the service's back: only a cache bypass can see it.
  await app.database.db.update(assemblies).set({ name: 'Renamed in SQL' }).where(eq(assemblies.uuid, created.uuid));
  assert.is((await app.rest('GET', url)).body.data.name, 'Hulk brawler');
  assert.is((await app.rest('GET', `${url}&force=1`)).body.data.name, 'Renamed in SQL');
  assert.is((await app.rest('GET', `${url}&force=nope`)).status, 400);
  // An edit through the API invalidates: the next plain read is fresh.
  await app.rest('POST', '/api/assembly/edit', {
    token: owner.token,
    body: { uuid: created.uuid, data: { name: 'Edited' } },
  });
  assert.is((await app.rest('GET', url)).body.data.name, 'Edited');
});

Item(
  'the ETag is of the answer without views and isOwner, even when its texts spell those keys',
  async ({ app, owner, other }) => {
    const tricky = { ...HULK, name: 'x"views":1,', description: '"isOwner":true, "views":2,' };
    const created = await publish(app, owner.token, tricky);
    const url = `/api/assembly/item?uuid=${created.uuid}`;
    const anonymous = await app.rest('GET', url);
    const { views: _views, isOwner: _isOwner, ...stable } = anonymous.body.data;
    assert.is(anonymous.headers.get('etag'), weakEtag(JSON.stringify(stable)));
    assert.is(anonymous.body.data.name, tricky.name);
    // The creator (isOwner: true, no view counted) and another reader get the same tag.
    assert.is((await app.rest('GET', url, { token: owner.token })).headers.get('etag'), anonymous.headers.get('etag'));
    assert.is((await app.rest('GET', url, { token: other.token })).headers.get('etag'), anonymous.headers.get('etag'));
    // And an edit guarded by it goes through.
    const edited = await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      headers: { 'if-match': anonymous.headers.get('etag')! },
      body: { uuid: created.uuid, data: { description: 'plain' } },
    });
    assert.is(edited.status, 200, edited.text);
  },
);

Item('ETag on the item and 304 for a matching If-None-Match, even though views move', async ({ app, owner }) => {
  const created = await publish(app, owner.token, HULK);
  const url = `/api/assembly/item?uuid=${created.uuid}`;
  const first = await app.rest('GET', url);
  const etag = first.headers.get('etag');
  assert.ok(etag?.startsWith('W/"'));
  const second = await app.rest('GET', url, { headers: { 'if-none-match': etag! } });
  assert.is(second.status, 304);
  assert.is(second.text, '');
  await app.rest('POST', '/api/assembly/edit', {
    token: owner.token,
    body: { uuid: created.uuid, data: { description: 'changed' } },
  });
  const third = await app.rest('GET', url, { headers: { 'if-none-match': etag! } });
  assert.is(third.status, 200);
  assert.is(third.body.data.description, 'changed');
  assert.is.not(third.headers.get('etag'), etag);
  const list = await app.rest('GET', '/api/assembly/list');
  const listAgain = await app.rest('GET', '/api/assembly/list', {
    headers: { 'if-none-match': list.headers.get('etag')! },
  });
  assert.is(listAgain.status, 304);
});

Item(
  'private: the locked 200 without the password, 403 with a wrong one, 200 with it, the creator always passes',
  async ({ app, owner, other }) => {
    const locked = await publish(app, owner.token, { ...HULK, isPublic: false, password: 'open-sesame' });
    const closed = await publish(app, owner.token, { ...HULK, isPublic: false });
    const url = `/api/assembly/item?uuid=${locked.uuid}`;
    // Without the password: a 200 without content (the web client shows its password prompt), never shared by caches.
    const lockedAnswer = { uuid: locked.uuid, isVisibility: false, isPassword: true, isOwner: false };
    const without = await app.rest('GET', url);
    assert.is(without.status, 200);
    assert.equal(without.body.data, lockedAnswer);
    assert.is(without.headers.get('cache-control'), 'private, no-cache');
    assert.equal(
      (await app.rest('GET', url, { token: other.token })).body.data,
      lockedAnswer,
      'signed in but not the creator',
    );
    assert.equal(await app.trpc(other.token).assembly.getItem.query({ uuid: locked.uuid }), lockedAnswer, 'tRPC');
    const wrong = await app.rest('GET', `${url}&password=guess`, { token: other.token });
    assert.is(wrong.status, 403);
    assert.match(wrong.body.message, /Wrong password/);
    const right = await app.rest('GET', `${url}&password=open-sesame`);
    assert.is(right.status, 200);
    assert.equal(
      [
        right.body.data.isVisibility,
        right.body.data.isPassword,
        right.body.data.isOwner,
        right.body.data.assembly.visibility,
      ],
      [true, false, false, 'private'],
    );
    assert.is(
      (await app.rest('GET', `/api/assembly/attr?uuid=${locked.uuid}&password=open-sesame`)).body.data.data.password,
      true,
      'it has a password',
    );
    assert.is(right.headers.get('cache-control'), 'private, no-cache');
    const own = await app.rest('GET', url, { token: owner.token });
    assert.equal(
      [own.status, own.body.data.isVisibility, own.body.data.isOwner],
      [200, true, true],
      'the creator reads it without the password',
    );
    // A private assembly without a password is the creator's alone.
    assert.is((await app.rest('GET', `/api/assembly/item?uuid=${closed.uuid}&password=anything`)).status, 403);
    assert.is((await app.rest('GET', `/api/assembly/item?uuid=${closed.uuid}`, { token: owner.token })).status, 200);
    assert.is(
      (await trpcError(app.trpc(other.token).assembly.getItem.query({ uuid: locked.uuid, password: 'guess' }))).status,
      403,
    );
    assert.is(
      (await app.trpc(other.token).assembly.getItem.query({ uuid: locked.uuid, password: 'open-sesame' })).uuid,
      locked.uuid,
    );
    assert.is((await app.trpc(owner.token).assembly.getItem.query({ uuid: closed.uuid })).uuid, closed.uuid);
    // Cached or not, the check is made on every read.
    assert.equal((await app.rest('GET', url)).body.data, lockedAnswer);
    assert.is((await app.rest('GET', `${url}&password=guess`)).status, 403);
  },
);

Item('400 for a uuid that is not 36 characters, 404 for unknown and trashed ones', async ({ app, owner }) => {
  const short = await app.rest('GET', '/api/assembly/item?uuid=abc');
  assert.is(short.status, 400);
  assert.match(short.body.message, /uuid: must be 36 characters/);
  assert.is((await app.rest('GET', '/api/assembly/item')).status, 400);
  assert.is((await app.rest('GET', '/api/assembly/item?uuid=00000000-0000-4000-8000-000000000000')).status, 404);
  assert.is((await trpcError(app.trpc().assembly.getItem.query({ uuid: 'abc' }))).status, 400);
  const created = await publish(app, owner.token, HULK);
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`)).status, 200);
  await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: created.uuid } });
  assert.is(
    (await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`)).status,
    404,
    'cached copy is invalidated',
  );
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`, { token: owner.token })).status, 404);
  assert.is((await trpcError(app.trpc().assembly.getItem.query({ uuid: created.uuid }))).status, 404);
});

Item.run();

const Misc = suite('read cache module and demo data');

Misc('MemoryReadCache: get/set, invalidate by key and prefix, TTL, LRU bound', async () => {
  let now = 0;
  const cache = new MemoryReadCache({ maxEntries: 3, ttlMs: 100, now: () => now });
  cache.set('a:1', 1);
  cache.set('a:2', 2);
  cache.set('b:1', 3);
  assert.is(cache.get('a:1'), 1);
  await cache.invalidatePrefix('a:');
  assert.equal([cache.get('a:1'), cache.get('a:2'), cache.get('b:1')], [undefined, undefined, 3]);
  await cache.invalidate('b:1');
  assert.is(cache.get('b:1'), undefined);
  cache.set('x', 1);
  cache.set('y', 2);
  cache.set('z', 3);
  cache.get('x');
  cache.set('w', 4);
  assert.is(cache.get('y'), undefined, 'least recently used is evicted');
  assert.is(cache.get('x'), 1);
  now = 150;
  assert.is(cache.get('x'), undefined, 'expired');
});

Misc('npm start seeds the demo catalog and assemblies into an empty database', async () => {
  const app = await startTestServer({ SEED_DEMO: true });
  try {
    const list = (await app.rest('GET', '/api/assembly/list')).body.data;
    assert.equal(
      list.data.map((item: { name: string }) => item.name),
      ['Hulk brawler', 'Brigantine broadside'],
    );
    const attr = (await app.rest('GET', `/api/assembly/attr?uuid=${list.data[1].uuid}`)).body.data;
    assert.equal(attr.problems, []);
    assert.ok(attr.damagePerSecond.total > 0);
  } finally {
    await app.stop();
  }
});

Misc.run();
