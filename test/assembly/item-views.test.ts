// Reading one assembly: views, counted on every read but the creator's, kept in memory and written in
// batches (VIEW_FLUSH_CHUNK a statement); flushes that fail, race a read or another flush lose nothing.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, type SQL, sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../db/client';
import { assemblies, assemblyViews } from '../../db/schema';
import { getAssembly } from '../../server/domains/assembly/item';
import { VIEW_FLUSH_CHUNK, ViewCounter, viewFlushStatement } from '../../server/infra/view-counter';
import { TEST_DRIVER, type TTestServer } from '../support/helpers';
import { HULK } from '../support/community-sample';
import { storedViewsOf } from '../support/stored-views';
import { ownerAndOtherSuite, publish, readable } from './fixtures';

const Item = ownerAndOtherSuite('item: views and their batched writes');

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

Item.run();
