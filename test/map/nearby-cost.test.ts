// Issue 31: a nearby search costs what its caller may read, never what others keep private. Each
// statement's plan seeks only the partial indexes of what the caller may read (no scan of map_points,
// no sort over rows they cannot read); the candidates examined stay the same when other users add
// thousands of private points at the place; past MAX_NEARBY_CANDIDATES the answer says `truncated`,
// on both surfaces; migration 0018 fills `readable_by_anyone` from the rows already there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { openDatabase, type TDb } from '../../db/client';
import { nearbyQuery } from '../../server/domains/map/nearby';
import { MAX_NEARBY_CANDIDATES, type TNearbyInput } from '../../server/domains/map/point-schemas';
import { startTestServer, TEST_DRIVER, type TTestServer } from '../support/helpers';
import { migrationsUpTo } from '../support/migrations';
import { suite } from '../support/suite';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
const Cost = suite<{ app: TTestServer; owner: TUser; friend: TUser; stranger: TUser }>(
  'map points nearby: cost bounded by what the caller may read',
);

const SPOT = { latitude: 20, longitude: 30 };
/** `count` places `minKm` to `maxKm` from `from`, spread round it (0.5 to 9 km: all inside a 10 km search). */
function ring(from: { latitude: number; longitude: number }, count: number, minKm = 0.5, maxKm = 9) {
  return Array.from({ length: count }, (_, i) => {
    const km = minKm + ((maxKm - minKm) * i) / count;
    const angle = (i * 2.399963) % (2 * Math.PI);
    return {
      latitude: from.latitude + (km / 111.2) * Math.cos(angle),
      longitude: from.longitude + (km / 104.5) * Math.sin(angle),
    };
  });
}
const titles = (answer: { points: { title: string }[] }) => answer.points.map((point) => point.title);

Cost.before(async (context) => {
  const app = await startTestServer();
  context.app = app;
  context.owner = await app.signUp();
  context.friend = await app.signUp();
  context.stranger = await app.signUp();
  const trpc = app.trpc(context.owner.token);
  const [a, b, c, d, e, f] = ring(SPOT, 6);
  await trpc.map.create.mutate({
    title: 'Open',
    points: [
      { title: 'open 1', ...a! },
      { title: 'open 2', ...b! },
    ],
  });
  await trpc.map.create.mutate({
    title: 'Shared',
    isPublic: false,
    sharedUsers: [context.friend.username],
    points: [{ title: 'shared 1', ...c! }],
  });
  await trpc.map.create.mutate({ title: 'Closed', isPublic: false, points: [{ title: 'closed 1', ...d! }] });
  await trpc.map.points.create.mutate({ title: 'public orphan', ...e!, public: true });
  await trpc.map.points.create.mutate({ title: 'private orphan', ...f! });
});
Cost.after(async ({ app }) => app.stop());

/** The plan of the statement, as rows of EXPLAIN QUERY PLAN (its tree: id and parent), its values written in. */
async function planOf(db: TDb, viewerId: string | null, query: TNearbyInput) {
  const { sql: text, params } = nearbyQuery(db, viewerId, query).toSQL();
  let at = 0;
  const inlined = text.replace(/\?/g, () => {
    const value = params[at++];
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
  return db.all<{ id: number; parent: number; detail: string }>(sql.raw(`EXPLAIN QUERY PLAN ${inlined}`));
}

const SETS = {
  public:
    /^SEARCH map_points USING (COVERING )?INDEX map_points_public_place \(latitude_cell=\? AND longitude>\? AND longitude<\?\)$/,
  own: /^SEARCH map_points USING (COVERING )?INDEX map_points_owner_private_place \(owner_id=\? AND latitude>\? AND latitude<\?\)$/,
  shared:
    /^SEARCH map_points USING (COVERING )?INDEX map_points_collection_private_place \(collection_id=\? AND latitude>\? AND latitude<\?\)$/,
};

Cost(
  'each statement seeks only the indexes of what its caller may read, and sorts only those candidates',
  async ({ app, owner }) => {
    const places: TNearbyInput[] = [
      { ...SPOT, radius: 10, limit: 10 },
      { latitude: 0, longitude: 179.99, radius: 5, limit: 10 }, // two longitude ranges
      { latitude: 89.99, longitude: 100, radius: 500, limit: 100 }, // every longitude
    ];
    for (const viewer of [null, owner.id]) {
      for (const place of places) {
        const plan = await planOf(app.database.db, viewer, place);
        const text = plan.map((row) => row.detail).join('\n');
        const parentOf = (row: { parent: number }) => plan.find((other) => other.id === row.parent)?.detail ?? 'top';
        // Every row of map_points the statement reads comes from one of the candidate sets, or is one of the
        // `limit` answered (by primary key, at the top, after the candidates were ranked).
        const pointReads = plan.filter((row) => /^(SEARCH|SCAN) map_points\b(?!_)/.test(row.detail));
        for (const row of pointReads) {
          const answered =
            /^SEARCH map_points USING INDEX sqlite_autoindex_map_points_1 \(id=\?\)$/.test(row.detail) &&
            row.parent === 0;
          assert.ok(answered || Object.values(SETS).some((set) => set.test(row.detail)), `${row.detail}\n${text}`);
        }
        assert.ok(
          pointReads.some((row) => SETS.public.test(row.detail)),
          text,
        );
        assert.is(
          pointReads.some((row) => SETS.own.test(row.detail)),
          viewer !== null,
          text,
        );
        assert.is(
          pointReads.some((row) => SETS.shared.test(row.detail)),
          viewer !== null,
          text,
        );
        assert.not.match(text, /map_collections\b/, 'no join to the collections: the flag says who may read');
        if (viewer !== null)
          assert.match(
            text,
            /SEARCH map_collection_shares USING (COVERING )?INDEX map_collection_shares_user \(user_id=\?\)/,
          );
        // Sorts rank the candidates (all readable, at most the cap) inside `nearest`, or, on some SQLite
        // versions, the `limit` rows answered once more at the top.
        for (const row of plan.filter((row) => /TEMP B-TREE/.test(row.detail))) {
          assert.ok(
            row.parent === 0 || /^(CO-ROUTINE|MATERIALIZE) nearest$/.test(parentOf(row)),
            `${row.detail} under ${parentOf(row)}\n${text}`,
          );
        }
      }
    }
  },
);

/** How many candidates the statement examined for the viewer (0 when none). */
async function examined(app: TTestServer, viewerId: string | null, query: TNearbyInput): Promise<number> {
  const rows = await nearbyQuery(app.database.db, viewerId, query).all();
  return rows[0]?.examined ?? 0;
}

Cost(
  "other users' private points at the place leave the candidates examined and the answers unchanged",
  async ({ app, owner, friend, stranger }) => {
    const query = { ...SPOT, radius: 10, limit: 100 };
    const viewers = [null, owner, friend, stranger];
    const answers = () =>
      Promise.all(viewers.map(async (viewer) => titles(await app.trpc(viewer?.token).map.points.nearby.query(query))));
    const counts = () => Promise.all(viewers.map((viewer) => examined(app, viewer?.id ?? null, query)));
    const before = { answers: await answers(), counts: await counts() };
    assert.equal(
      before.counts,
      [3, 6, 4, 3],
      'anonymous and a stranger: the 3 public points; the owner all 6; the friend the public ones and the shared one',
    );

    // Three users put 6,000 private points within the search: in private collections (one shared with
    // someone else) and as private orphans.
    const someoneElse = await app.signUp();
    for (const [n, places] of [
      ring(SPOT, 2000, 0.1, 9.9),
      ring(SPOT, 2000, 0.2, 9.8),
      ring(SPOT, 2000, 0.3, 9.7),
    ].entries()) {
      const crowd = app.trpc((await app.signUp()).token);
      const points = places.map((place, i) => ({ title: `crowd ${n}.${i}`, ...place }));
      await crowd.map.create.mutate({
        title: 'Kept',
        isPublic: false,
        sharedUsers: n === 0 ? [someoneElse.username] : [],
        points: points.slice(0, 1000),
      });
      const loose = await crowd.map.create.mutate({ title: 'Loose', isPublic: false, points: points.slice(1000) });
      await crowd.map.points.removeFromCollection.mutate({
        uuid: loose.uuid,
        pointUuids: loose.points.map((point) => point.uuid),
      });
    }
    assert.equal(await counts(), before.counts, 'the same candidates');
    assert.equal(await answers(), before.answers, 'the same answers');
    assert.is(
      await examined(app, someoneElse.id, query),
      3 + 1000,
      'the user one of them shared a collection with examines its points',
    );
  },
);

Cost(
  "past MAX_NEARBY_CANDIDATES: truncated, on both surfaces; the caller's own points first; exactly the cap is not truncated",
  async ({ app, owner }) => {
    const place = { latitude: -40, longitude: 60 };
    const dense = app.trpc((await app.signUp()).token);
    const points = ring(place, MAX_NEARBY_CANDIDATES + 1, 1, 20).map((at, i) => ({ title: `dense ${i}`, ...at }));
    let last = '';
    for (let start = 0; start < points.length; start += 1000) {
      const collection = await dense.map.create.mutate({
        title: `Dense ${start}`,
        points: points.slice(start, start + 1000),
      });
      last = collection.points.at(-1)!.uuid;
    }
    await app.trpc(owner.token).map.points.create.mutate({ title: 'my own spot', ...place });
    const query = `latitude=${place.latitude}&longitude=${place.longitude}&radius=50&limit=5`;

    const anonymous = await app.rest('GET', `/api/map/point/nearby?${query}`);
    assert.is(anonymous.status, 200, anonymous.text);
    assert.is(anonymous.body.data.truncated, true);
    assert.is(anonymous.body.data.points.length, 5);
    assert.ok(anonymous.body.data.points.every((point: { distance: number }) => point.distance <= 50));
    const viaTrpc = await app.trpc().map.points.nearby.query({ ...place, radius: 50, limit: 5 });
    assert.equal([viaTrpc.truncated, titles(viaTrpc)], [true, titles(anonymous.body.data)], 'tRPC alike');

    const own = await app.rest('GET', `/api/map/point/nearby?${query}`, { token: owner.token });
    assert.equal(
      [own.body.data.truncated, own.body.data.points[0].title, own.body.data.points[0].distance],
      [true, 'my own spot', 0],
      'own points are examined first',
    );
    const close = await app.trpc().map.points.nearby.query({ ...place, radius: 0.5 });
    assert.equal([close.truncated, close.points], [false, []], 'a search whose box holds fewer is not truncated');

    await dense.map.points.delete.mutate({ uuid: last });
    assert.is(
      (await app.rest('GET', `/api/map/point/nearby?${query}`)).body.data.truncated,
      false,
      `exactly ${MAX_NEARBY_CANDIDATES} candidates: all examined`,
    );
    assert.is((await app.trpc().map.points.nearby.query({ ...place, radius: 50 })).truncated, false);
  },
);

Cost.run();

const Migration = suite<{ dir: string }>(
  'migration 0018: readable_by_anyone from the rows already there, then kept by triggers',
);
Migration.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-nearby-migration-'));
});
Migration.after(({ dir }) => rmSync(dir, { recursive: true, force: true }));

Migration("filled from each point's collection or own flag; every later write keeps it exact", async ({ dir }) => {
  const database = openDatabase(`file:${join(dir, 'at-0017.db')}`, { driver: TEST_DRIVER });
  try {
    await database.migrate(migrationsUpTo(dir, '0017_assembly_views'));
    const { db } = database;
    await db.run(
      sql`insert into users (id, username, username_key, email, password_hash, role, created_at, updated_at) values ('u', 'u', 'u', 'u@example.test', 'x', 'user', 0, 0)`,
    );
    await db.run(
      sql`insert into map_collections (id, author_id, title, is_public, point_count, created_at, updated_at) values ('open', 'u', 'Open', 1, 1, 0, 0), ('closed', 'u', 'Closed', 0, 1, 0, 0)`,
    );
    const point = (id: string, collectionId: string | null, isPublic: number) =>
      db.run(
        sql`insert into map_points (id, owner_id, collection_id, title, latitude, longitude, tags, is_public, created_at, updated_at) values (${id}, 'u', ${collectionId}, ${id}, 1, 2, '[]', ${isPublic}, 0, 0)`,
      );
    await point('public orphan', null, 1);
    await point('private orphan', null, 0);
    await point('in open', 'open', 0);
    await point('in closed', 'closed', 1);

    await database.migrate();
    const readable = async () =>
      Object.fromEntries(
        (
          await db.all<{ id: string; r: number }>(sql`select id, readable_by_anyone as r from map_points order by id`)
        ).map((row) => [row.id, Number(row.r)]),
      );
    assert.equal(
      await readable(),
      { 'in closed': 0, 'in open': 1, 'private orphan': 0, 'public orphan': 1 },
      'filled by the migration',
    );

    await db.run(sql`update map_collections set is_public = 1 where id = 'closed'`);
    assert.equal((await readable())['in closed'], 1, 'a collection made public');
    await db.run(sql`update map_collections set is_public = 0 where id = 'open'`);
    assert.equal((await readable())['in open'], 0, 'a collection made private');
    await db.run(sql`update map_points set collection_id = 'closed' where id = 'private orphan'`);
    assert.equal((await readable())['private orphan'], 1, 'moved into a public collection');
    await db.run(sql`update map_points set collection_id = null where id = 'in closed'`);
    assert.equal((await readable())['in closed'], 1, 'out of it: its own flag (1)');
    await db.run(sql`update map_points set is_public = 0 where id = 'in closed'`);
    assert.equal((await readable())['in closed'], 0, 'an orphan made private');
    await point('new in open', 'open', 1);
    assert.equal((await readable())['new in open'], 0, 'inserted into a private collection');
    await db.run(sql`update map_points set readable_by_anyone = 1 where id = 'in open'`);
    assert.equal((await readable())['in open'], 0, 'a wrong value written directly is put right');
    assert.is(await database.integrityCheck(), 'ok');
  } finally {
    database.close();
  }
});

Migration.run();
