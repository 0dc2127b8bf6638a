// The list's query plans (issue 16): no page sorts the listable rows; every sort and date range walks its
// index (merged per hull of a class), and a keyword or range ranks its candidates by id lookups.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { openDatabase, type TDb } from '../../db/client';
import { pageIdsQuery } from '../../server/domains/assembly/list-queries';
import { inRangesQuery, rangeIdsQuery } from '../../server/domains/assembly/range-queries';
import { MAX_LIST_WINDOW, MAX_SEARCH_RESULTS, type TListSort } from '../../server/domains/assembly/schemas';
import { rankAmongQuery } from '../../server/domains/assembly/search';
import { TEST_DRIVER } from '../support/helpers';
import { suite } from '../support/suite';

const Plans = suite<{ dir: string; db: TDb; close: () => void }>(
  `list query plans (${TEST_DRIVER ?? 'better-sqlite3'}): no page sorts the listable rows`,
);

Plans.before(async (context) => {
  // A database of its own, as the view flush's plan test does (EXPLAIN on the app's libSQL connection upset its writes).
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-list-plans-'));
  const database = openDatabase(`file:${join(context.dir, 'plans.db')}`, { driver: TEST_DRIVER });
  await database.migrate();
  context.db = database.db;
  context.close = () => database.close();
});
Plans.after(({ dir, close }) => {
  close();
  rmSync(dir, { recursive: true, force: true });
});

/** EXPLAIN QUERY PLAN of a query builder, its placeholders inlined as literals (EXPLAIN needs no real values). */
async function plan(
  db: TDb,
  query: { toSQL(): { sql: string; params: unknown[] } },
  values: Record<string, string | number>,
): Promise<string[]> {
  const { sql: text, params } = query.toSQL();
  let at = 0;
  const inlined = text.replace(/\?/g, () => {
    const param = params[at++] as { name?: string } | string | number;
    const value = typeof param === 'object' && param !== null && 'name' in param ? values[param.name!] : param;
    if (value === undefined) throw new Error(`no value for parameter ${at}`);
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
  return (await db.all<{ detail: string }>(sql.raw(`explain query plan ${inlined}`))).map((row) => row.detail);
}

const INDEX_OF: Record<TListSort | 'created', [string, string]> = {
  latest: ['assemblies_listable', 'assemblies_ship_latest'],
  hottest: ['assemblies_hot', 'assemblies_ship_hot'],
  rating: ['assemblies_rating', 'assemblies_ship_rating'],
  updated: ['assemblies_updated', 'assemblies_ship_updated'],
  created: ['assemblies_created', 'assemblies_ship_created'],
};
const hullValues = (hullCount: number) =>
  Object.fromEntries(Array.from({ length: hullCount }, (_, i) => [`hull${i}`, `hull-${i}`]));

Plans(
  'every sort, both orders, without a shipType and with classes of 1 to 4 hulls, walks its index in order',
  async ({ db }) => {
    for (const sort of ['latest', 'hottest', 'rating', 'updated'] as const) {
      for (const order of ['desc', 'asc'] as const) {
        for (const hullCount of [0, 1, 2, 4]) {
          const steps = await plan(db, pageIdsQuery(db, sort, order, hullCount), {
            limit: 100,
            offset: MAX_LIST_WINDOW - 100,
            ...hullValues(hullCount),
          });
          const where = `${sort} ${order} with ${hullCount} hulls: ${steps.join('; ')}`;
          assert.not.ok(
            steps.some((step) => /TEMP B-TREE/.test(step)),
            where,
          );
          assert.not.ok(
            steps.some((step) => /^SCAN assemblies$/.test(step)),
            where,
          );
          const walks = steps.filter((step) => /assemblies USING (COVERING )?INDEX/.test(step));
          assert.is(walks.length, Math.max(1, hullCount), where);
          assert.ok(
            walks.every((step) => step.includes(`INDEX ${INDEX_OF[sort][hullCount === 0 ? 0 : 1]}`)),
            where,
          );
          if (hullCount > 1)
            assert.ok(
              steps.some((step) => /MERGE \(UNION ALL\)/.test(step)),
              where,
            );
        }
      }
    }
  },
);

Plans(
  'a date range walks its own index within the range, in either direction, merged per hull: no sort',
  async ({ db }) => {
    for (const field of ['created', 'updated'] as const) {
      for (const direction of ['desc', 'asc'] as const) {
        for (const hullCount of [0, 1, 3]) {
          const steps = await plan(db, rangeIdsQuery(db, field, direction, hullCount), {
            from: 1_700_000_000_000,
            until: 1_800_000_000_000,
            cap: MAX_SEARCH_RESULTS + 1,
            ...hullValues(hullCount),
          });
          const where = `${field} ${direction} with ${hullCount} hulls: ${steps.join('; ')}`;
          assert.not.ok(
            steps.some((step) => /TEMP B-TREE|^SCAN assemblies$/.test(step)),
            where,
          );
          const walks = steps.filter((step) => /assemblies USING (COVERING )?INDEX/.test(step));
          assert.is(walks.length, Math.max(1, hullCount), where);
          // A SEARCH of the range (and the hull), never a SCAN of the whole index.
          const [index, column] = [INDEX_OF[field][hullCount === 0 ? 0 : 1], `${field}_at`];
          assert.ok(
            walks.every(
              (step) =>
                step.startsWith('SEARCH') &&
                step.includes(`INDEX ${index} (`) &&
                step.includes(`${column}>?`) &&
                step.includes(`${column}<?`),
            ),
            where,
          );
          if (hullCount > 1)
            assert.ok(
              steps.some((step) => /MERGE \(UNION ALL\)/.test(step)),
              where,
            );
        }
      }
    }
  },
);

Plans(
  'a keyword or range ranks and filters its candidates by id lookups, never by walking a sort or range index',
  async ({ db }) => {
    const statements = [
      ...(['latest', 'hottest', 'rating', 'updated'] as const).flatMap((sort) =>
        (['desc', 'asc'] as const).map((order) => [`rank ${sort} ${order}`, rankAmongQuery(db, sort, order)] as const),
      ),
      ['inRanges', inRangesQuery(db)] as const,
    ];
    for (const [name, query] of statements) {
      const steps = await plan(db, query, {
        ids: '[1,2,3]',
        limit: 20,
        offset: 0,
        createdFrom: 0,
        createdUntil: 1e15,
        updatedFrom: 0,
        updatedUntil: 1e15,
      });
      const where = `${name}: ${steps.join('; ')}`;
      // Looked up by id: through the primary key, or through assemblies_listable's trailing rowid.
      assert.ok(
        steps.some((step) => /SEARCH assemblies USING .*rowid=\?\)/.test(step)),
        where,
      );
      assert.not.ok(
        steps.some((step) =>
          /SCAN assemblies|assemblies_hot|assemblies_rating|assemblies_updated|assemblies_created/.test(step),
        ),
        where,
      );
    }
  },
);

Plans.run();
