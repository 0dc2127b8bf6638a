// Reading one assembly: views and their batched writes, the item cache, ETags, private assemblies; the read cache module and the demo data.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql, type SQL } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../db/client';
import { assemblies, assemblyViews } from '../../db/schema';
import { getAssembly } from '../../server/domains/assembly/item';
import { weakEtag } from '../../server/etag';
import { MemoryReadCache } from '../../server/infra/cache/read-cache';
import { VIEW_FLUSH_CHUNK, ViewCounter, viewFlushStatement } from '../../server/infra/view-counter';
import {
  HULK,
  importCommunitySample,
  signUpAdmin,
  startTestServer,
  storedViewsOf,
  TEST_DRIVER,
  trpcError,
  type TTestServer,
} from '../support/helpers';
import { publish, readable, type TUser } from './fixtures';

const Item = suite<{ app: TTestServer; owner: TUser; other: TUser }>('item: views, cache, private rules, ETag');

Item.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.other = await context.app.signUp();
});
Item.after(async ({ app }) => app.stop());

Item("views count on every read but the creator's, cache hit or not", async ({ app, owner, other }) => {
  const created = await publish(app, owner.token, HULK);
  const url = `/api/assembly/item?uuid=${created.uuid}`;
  assert.is((await app.rest('GET', url)).body.data.views, 1);
  assert.is((await app.rest('GET', url, { token: other.token })).body.data.views, 2);
  assert.is(readable(await app.trpc().assembly.getItem.query({ uuid: created.uuid })).views, 3);
  assert.is((await app.rest('GET', url, { token: owner.token })).body.data.views, 3, 'the creator does not count');
  assert.is((await app.rest('GET', `${url}&force=true`)).body.data.views, 4);
});

const storedViews = async (app: TTestServer, uuid: string) => (await storedViewsOf(app.database.db, [uuid]))[0];

Item(
  "views are counted in memory and written in one batch; the next read after it sees other instances' views",
  async ({ app, owner }) => {
    const created = await publish(app, owner.token, HULK);
    const url = `/api/assembly/item?uuid=${created.uuid}`;
    const { views } = app.app.deps;
    for (let i = 1; i <= 3; i++) assert.is((await app.rest('GET', url)).body.data.views, i);
    assert.is(await storedViews(app, created.uuid), 0, 'nothing written before the flush');
    assert.ok((await views.flush(app.database.db)) >= 1);
    assert.is(await storedViews(app, created.uuid), 3);
    assert.is(await views.flush(app.database.db), 0, 'nothing pending, nothing written');
    // Another instance wrote 10 views: the flush forgot this count, so the next read fetches it.
    await app.database.db
      .update(assemblyViews)
      .set({ views: 13 })
      .where(eq(assemblyViews.assemblyId, sql`(select id from assemblies where uuid = ${created.uuid})`));
    assert.is((await app.rest('GET', url)).body.data.views, 14);
    assert.is(
      (await app.rest('GET', url, { token: owner.token })).body.data.views,
      14,
      'the creator still does not count',
    );
    await views.flush(app.database.db);
    assert.is(await storedViews(app, created.uuid), 14);
  },
);

Item("one flush writes every assembly's views; those of one trashed meanwhile go with it", async ({ app, owner }) => {
  const created = await publish(app, owner.token, HULK);
  const others = [await publish(app, owner.token, HULK), await publish(app, owner.token, HULK)];
  await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`);
  for (const [index, other] of others.entries()) {
    for (let i = 0; i <= index; i++) await app.rest('GET', `/api/assembly/item?uuid=${other.uuid}`);
  }
  await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: created.uuid } });
  assert.is(await app.app.deps.views.flush(app.database.db), 3, 'one write covers all three');
  assert.equal([await storedViews(app, others[0]!.uuid), await storedViews(app, others[1]!.uuid)], [1, 2]);
  assert.is(await storedViews(app, created.uuid), 0);
  assert.is(app.app.deps.views.current(created.uuid), undefined, 'forgotten');
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`)).status, 404);
});

Item('a flush during the password check of a private read loses no view and breaks nothing', async ({ app, owner }) => {
  const locked = await publish(app, owner.token, { ...HULK, isPublic: false, password: 'open-sesame' });
  const { views } = app.app.deps;
  const db = app.database.db;
  const read = getAssembly({ ...app.app.deps, db }, { uuid: locked.uuid, password: 'open-sesame', force: true });
  // The row is read and its count known before Argon2 starts; flush (and forget the count) while it runs.
  while (views.current(locked.uuid) === undefined) await new Promise((resolve) => setImmediate(resolve));
  await views.flush(db);
  assert.is(views.current(locked.uuid), undefined, 'forgotten mid-read');
  assert.is(readable(await read).views, 1);
  await views.flush(db);
  assert.is(await storedViews(app, locked.uuid), 1);
});

Item('a flush walks its batch and looks each id up in both tables, never the live rows (query plan)', async () => {
  // A database of its own: on libSQL, the app's writes failed (busy) after an EXPLAIN of this UPDATE on its connection.
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-views-plan-'));
  const database = openDatabase(`file:${join(dir, 'plan.db')}`, { driver: TEST_DRIVER });
  let steps: string[];
  try {
    await database.migrate();
    steps = (await database.db.all<{ detail: string }>(sql`explain query plan ${viewFlushStatement('[[1, 1]]')}`)).map(
      (row) => row.detail,
    );
  } finally {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  }
  assert.ok(
    steps.some((step) => /SCAN json_each/.test(step)),
    steps.join('; '),
  );
  assert.ok(
    steps.some((step) => /SEARCH assembly_views USING INTEGER PRIMARY KEY/.test(step)),
    steps.join('; '),
  );
  assert.ok(
    steps.some((step) => /SEARCH assemblies USING INTEGER PRIMARY KEY/.test(step)),
    steps.join('; '),
  );
  assert.not.ok(
    steps.some((step) => /assemblies_listable|SCAN assemblies|SCAN assembly_views/.test(step)),
    steps.join('; '),
  );
});

Item('a failed flush keeps the views for the next one', async ({ app, owner }) => {
  const created = await publish(app, owner.token, HULK);
  await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`);
  await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`);
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-views-'));
  const empty = openDatabase(`file:${join(dir, 'empty.db')}`, { driver: TEST_DRIVER });
  // No assemblies table there: the write fails and rolls back.
  const failure = await app.app.deps.views.flush(empty.db).then(
    () => undefined,
    (error: unknown) => error,
  );
  empty.close();
  rmSync(dir, { recursive: true, force: true });
  assert.ok(failure instanceof Error, 'the flush failed');
  assert.is(app.app.deps.views.current(created.uuid), 2);
  await app.app.deps.views.flush(app.database.db);
  assert.is(await storedViews(app, created.uuid), 2);
});

Item(
  'a flush writes VIEW_FLUSH_CHUNK assemblies a statement; a failed statement keeps its views and the later ones pending; flushes never interleave',
  async ({ app, owner }) => {
    const db = app.database.db;
    const now = new Date();
    const rows = Array.from({ length: VIEW_FLUSH_CHUNK * 2 + 10 }, (_, i) => ({
      uuid: randomUUID(),
      creatorId: owner.id,
      name: `chunk ${i}`,
      shipId: 'hulk',
      weapons: '[]',
      furnitures: '[]',
      tags: '[]',
      isPublic: true,
      createdAt: now,
      updatedAt: now,
    }));
    for (let start = 0; start < rows.length; start += 100)
      await db.insert(assemblies).values(rows.slice(start, start + 100));
    const stored = async () => {
      return storedViewsOf(
        db,
        rows.map((row) => row.uuid),
      );
    };
    const ids = new Map(
      (
        await db
          .select({ id: assemblies.id, uuid: assemblies.uuid })
          .from(assemblies)
          .where(sql`${assemblies.name} like 'chunk %'`)
      ).map((row) => [row.uuid, row.id]),
    );
    const views = new ViewCounter();
    for (const row of rows) {
      views.learn(row.uuid, ids.get(row.uuid)!, 0);
      views.record(row.uuid);
    }
    // The second statement fails (a lost connection): the first chunk is written, the rest stays pending.
    let statements = 0;
    const failing = new Proxy(db, {
      get: (target, name, receiver) =>
        name === 'all'
          ? (query: SQL) => (++statements === 2 ? Promise.reject(new Error('connection lost')) : target.all(query))
          : Reflect.get(target, name, receiver),
    });
    const failure = await views.flush(failing).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(failure instanceof Error && failure.message === 'connection lost');
    assert.is(statements, 2, 'one statement per chunk, none after the failure');
    const afterFailure = await stored();
    assert.ok(
      afterFailure.slice(0, VIEW_FLUSH_CHUNK).every((count) => count === 1),
      'the first chunk is written',
    );
    assert.ok(
      afterFailure.slice(VIEW_FLUSH_CHUNK).every((count) => count === 0),
      'the rest is not',
    );
    assert.ok(
      rows.every((row) => views.current(row.uuid) === 1),
      'every count still answers 1',
    );
    assert.is(await views.flush(db), rows.length - VIEW_FLUSH_CHUNK, 'the next flush writes what was left');
    assert.ok((await stored()).every((count) => count === 1));

    // A second flush asked for while the first runs, with views recorded before and between: each view written once.
    // (A flush forgets the counts that had nothing pending; a read learns them again, as getAssembly does.)
    for (const row of rows) {
      if (views.current(row.uuid) === undefined) views.learn(row.uuid, ids.get(row.uuid)!, 1);
      views.record(row.uuid);
    }
    const first = views.flush(db);
    for (const row of rows) views.record(row.uuid);
    const second = views.flush(db);
    assert.is((await first) + (await second) >= rows.length, true);
    assert.ok(
      (await stored()).every((count) => count === 3),
      'no view written twice or lost',
    );
    assert.ok(
      rows.every((row) => [3, undefined].includes(views.current(row.uuid))),
      'each count is right, or forgotten once written',
    );
  },
);

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
