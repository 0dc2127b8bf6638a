/**
 * Data-scale benchmark of the assembly list (not part of `npm test`):
 *   npx tsx bench/assembly-list.ts [assemblies=20000]
 * Fills a fresh SQLite file, then times each list variant uncached, a keyword search through FTS5
 * against the LIKE scan it replaces, and item reads with and without the read cache.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client';
import { readDemoCatalog } from '../server/seed/assemblies';
import { assemblies } from '../db/schema';
import { createAccount } from '../server/domains/user/account';
import { WORDS } from './generate-vocabulary';
import { getAssembly } from '../server/domains/assembly/item';
import { listAssemblies } from '../server/domains/assembly/list';
import type { TListQuery } from '../server/domains/assembly/schemas';
import { CacheScope, scopePrefix } from '../server/infra/cache';
import { importCatalog } from '../server/domains/catalog/import';
import { MemoryReadCache } from '../server/infra/cache/read-cache';
import { ViewCounter } from '../server/infra/view-counter';

const total = Number(process.argv[2] ?? 20_000);
const dir = mkdtempSync(join(tmpdir(), 'tidewatch-bench-'));
// DATABASE_DRIVER=libsql measures the same through @libsql/client.
const database = openDatabase(`file:${join(dir, 'bench.db')}`, {
  driver: process.env.DATABASE_DRIVER === 'libsql' ? 'libsql' : undefined,
});
await database.migrate();
const { db } = database;
const now = new Date();

/** The first twelve of the generator's words (bench/generate-vocabulary.ts), as this script always used. */
const words = WORDS.slice(0, 12);
const hulls = ['cutter', 'hulk', 'brigantine', 'snow', 'dhow'];
const pick = <T>(list: T[], i: number) => list[i % list.length]!;

async function fill() {
  await importCatalog({ db, now: () => now }, { files: readDemoCatalog() });
  const user = await createAccount(
    { db, now: () => now },
    { username: 'bench', email: 'bench@example.test', password: 'bench-password' },
  );
  const rows = [];
  for (let i = 0; i < total; i++) {
    rows.push({
      uuid: randomUUID(),
      creatorId: user.id,
      name: `${pick(words, i)} ${pick(words, i * 7 + 3)} ${i}`,
      shipId: pick(hulls, i),
      weapons: JSON.stringify([{ slot: 'leftSideWeapon', itemId: 'culverin1' }]),
      armor: null,
      furnitures: '[]',
      description: '',
      tags: JSON.stringify([pick(words, i * 3 + 1)]),
      isPublic: i % 10 !== 0,
      likes: i % 37,
      ratingSum: (i % 5) * (i % 4),
      ratingCount: i % 4,
      createdAt: new Date(now.getTime() - i * 60_000),
      updatedAt: now,
      deletedAt: i % 50 === 0 ? now : null,
    });
    if (rows.length === 500) {
      await db.insert(assemblies).values(rows.splice(0));
    }
  }
  if (rows.length) await db.insert(assemblies).values(rows);
}

async function time(label: string, runs: number, work: () => Promise<unknown>) {
  await work();
  const start = performance.now();
  for (let i = 0; i < runs; i++) await work();
  const ms = (performance.now() - start) / runs;
  console.log(`${label.padEnd(48)} ${ms.toFixed(3)} ms`);
}

try {
  const fillStart = performance.now();
  await fill();
  console.log(`filled ${total} assemblies in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`);
  const views = new ViewCounter();
  const cachedIn = (lru: MemoryReadCache) => ({
    db,
    views,
    caches: { item: new CacheScope(lru, scopePrefix('item')), list: new CacheScope(lru, scopePrefix('list')) },
  });
  const noCache = () => cachedIn(new MemoryReadCache({ maxEntries: 1, ttlMs: 0 }));
  const query = (extra: Partial<TListQuery>): TListQuery => ({
    page: 1,
    pageSize: 20,
    sort: 'latest',
    order: 'desc',
    ...extra,
  });
  await time('list latest, page 1', 50, () => listAssemblies(noCache(), query({})));
  await time('list latest, page 500', 50, () => listAssemblies(noCache(), query({ page: 500 })));
  await time('list hottest', 50, () => listAssemblies(noCache(), query({ sort: 'hottest' })));
  await time('list rating', 50, () => listAssemblies(noCache(), query({ sort: 'rating' })));
  await time('list shipType=medium', 50, () => listAssemblies(noCache(), query({ shipType: 'medium' })));
  await time('list keyword "kraken" (FTS5)', 50, () => listAssemblies(noCache(), query({ keyword: 'kraken' })));
  await time('list keyword "kra" prefix (FTS5)', 50, () => listAssemblies(noCache(), query({ keyword: 'kra' })));
  await time('same filter as LIKE over the table (count only)', 50, async () =>
    db.get(
      sql`select count(*) from assemblies where deleted_at is null and is_public = 1 and (name like '%kraken%' or tags like '%kraken%')`,
    ),
  );
  await time('FTS5 filter alone (count only)', 50, async () =>
    db.get(
      sql`select count(*) from assemblies where deleted_at is null and is_public = 1 and id in (select rowid from assemblies_fts where assemblies_fts match '"kraken"*')`,
    ),
  );
  const cache = cachedIn(new MemoryReadCache());
  await time('list latest through the cache (hit)', 500, () => listAssemblies(cache, query({})));
  const one = (await listAssemblies(noCache(), query({}))).data[0]!.uuid;
  await time('item, cache bypassed (force)', 200, () => getAssembly(cache, { uuid: one, force: true }));
  await time('item, cache hit (view counted in memory)', 200, () => getAssembly(cache, { uuid: one }));
  await time('view flush, one assembly', 200, async () => {
    await getAssembly(cache, { uuid: one });
    await views.flush(db);
  });
} finally {
  database.close();
  rmSync(dir, { recursive: true, force: true });
}
