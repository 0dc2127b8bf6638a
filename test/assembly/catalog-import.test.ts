// Catalog import: the community sample, re-import, awkward entries, a failed import, the demo catalog, the
// admin route and the catalog read endpoints, on both surfaces. Entries in the full set's shapes are in
// catalog-import-full-set.test.ts, the assembly CLI commands in catalog-import-cli.test.ts.
import { eq, sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { catalogHulls, catalogItems } from '../../db/schema';
import { importCatalog } from '../../server/domains/catalog/import';
import { ZBlueprint } from '../../server/domains/catalog/schemas';
import { readDemoCatalog } from '../../server/seed/assemblies';
import { startTestServer } from '../support/helpers';
import { COMMUNITY_SAMPLE, importCommunitySample } from '../support/community-sample';
import { trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { serverSuite } from '../support/server-suite';
import type { TUser } from './fixtures';

const sample = COMMUNITY_SAMPLE;

const Catalog = serverSuite<{ admin: TUser; user: TUser }>('catalog import', {
  setUp: async (context) => {
    context.admin = await signUpAdmin(context.app);
    context.user = await context.app.signUp();
  },
});

Catalog('imports the community sample and reports what it imported', async ({ app, admin }) => {
  const report = await importCommunitySample(app, admin);
  assert.equal(report.hulls, { inserted: 3, updated: 0 });
  assert.is(report.items.inserted, 14);
  assert.equal(report.items.byCategory, { weapon: 9, armor: 1, furniture: 3, other: 1 });
  assert.is(report.items.byType.consumable, 1);
  assert.is(Object.keys(report.items.byType).length, 14);
  const hull = await app.database.db.select().from(catalogHulls).where(eq(catalogHulls.id, 'brigantine')).get();
  assert.is(hull!.hitpoints, 40000);
  assert.is(hull!.braceStrength, 8000);
  assert.is(hull!.fullSail, 12);
  assert.is(hull!.cargoMaxWeight, 90000);
  // [1, { top: 4, lower: 4 }] is one weapon over 8 gun ports; [5, 1] five furniture slots.
  assert.equal(JSON.parse(hull!.slots).leftSideWeapon, { count: 1, gunPorts: 8 });
  assert.equal(JSON.parse(hull!.slots).furniture, { count: 5, gunPorts: 1 });
  const item = await app.database.db.select().from(catalogItems).where(eq(catalogItems.id, 'bombard1')).get();
  assert.is(item!.category, 'weapon');
  assert.is(item!.reloadSpeedMs, 7500);
  // The whole entry is kept, nested blueprint and all.
  assert.equal(JSON.parse(item!.raw), sample.items.bombard1);
});

Catalog('re-import updates in place', async ({ app, admin }) => {
  const changed = structuredClone(sample);
  changed.items.culverin1.damagePerShot = 555;
  changed.ships.hulk.hitpoints = 31000;
  const response = await app.rest('POST', '/api/admin/catalog/import', { token: admin.token, body: changed });
  assert.is(response.status, 200);
  assert.equal(response.body.data.hulls, { inserted: 0, updated: 3 });
  assert.equal([response.body.data.items.inserted, response.body.data.items.updated], [0, 14]);
  const item = await app.database.db.select().from(catalogItems).where(eq(catalogItems.id, 'culverin1')).get();
  assert.is(item!.damagePerShot, 555);
  const hull = await app.database.db.select().from(catalogHulls).where(eq(catalogHulls.id, 'hulk')).get();
  assert.is(hull!.hitpoints, 31000);
  const all = await app.database.db.select({ id: catalogItems.id }).from(catalogItems).all();
  assert.is(all.length, 14, 'no duplicates');
  await importCommunitySample(app, admin);
});

Catalog(
  'tolerates awkward fields: absent ones, nested blueprint, unknown types, numeric strings, hitPoints spelling, an unreadable slot',
  async ({ app }) => {
    const report = await importCatalog(
      { db: app.database.db, now: () => new Date() },
      {
        files: {
          ships: {
            dhow: {
              id: 'dhow',
              size: 'extraSmall',
              hitPoints: 7000,
              blueprint: [['a', 'b'], 'c'],
              slots: { furniture: [1, 1], weird: 'x' },
            },
            barge: { size: 'large', slots: { frontWeapon: [1, { top: 2 }] } },
          },
          items: {
            mystery: { id: 'mystery', type: 'questItem', blueprint: [['x', ['y']]] },
            chest1: { type: 'chest' },
            springloader9: { type: 'springloader', damagePerShot: '120', reloadSpeed: 'n/a', perks: ['a', 3] },
            'ok id!': { type: 'culverin' },
          },
        },
      },
    );
    assert.equal(report.hulls, { inserted: 2, updated: 0 });
    assert.equal(report.items.byCategory, { weapon: 2, armor: 0, furniture: 0, other: 2 });
    const dhow = await app.database.db.select().from(catalogHulls).where(eq(catalogHulls.id, 'dhow')).get();
    assert.is(dhow!.hitpoints, 7000);
    assert.equal(JSON.parse(dhow!.slots), { furniture: { count: 1, gunPorts: 1 } });
    const spring = await app.database.db.select().from(catalogItems).where(eq(catalogItems.id, 'springloader9')).get();
    assert.is(spring!.damagePerShot, 120);
    assert.is(spring!.reloadSpeedMs, null);
    assert.equal(JSON.parse(spring!.perks), ['a']);
    assert.equal(ZBlueprint.parse([['x', ['y']], 'z']), ['x', 'y', 'z']);
    assert.equal(ZBlueprint.parse('contractReward'), ['contractReward']);
    assert.equal(ZBlueprint.parse(undefined), []);
  },
);

Catalog('an import that fails half-way writes nothing', async () => {
  const other = await startTestServer();
  try {
    // A trigger makes the database refuse one item, after every hull and some items were written.
    await other.database.db.run(
      sql`create trigger refuse_item before insert on catalog_items when new.id = 'zzExplode' begin select raise(abort, 'refused'); end`,
    );
    const items = { ...sample.items, zzExplode: { type: 'culverin' } };
    let failed = false;
    try {
      await importCatalog({ db: other.database.db, now: () => new Date() }, { files: { ships: sample.ships, items } });
    } catch {
      failed = true;
    }
    assert.ok(failed);
    assert.is((await other.database.db.select().from(catalogHulls).all()).length, 0);
    assert.is((await other.database.db.select().from(catalogItems).all()).length, 0);
  } finally {
    await other.stop();
  }
});

Catalog('the demo catalog imports cleanly', async () => {
  // A database of its own: the demo catalog must not mix with the sample the figures are computed from.
  const other = await startTestServer();
  try {
    const report = await importCatalog({ db: other.database.db, now: () => new Date() }, { files: readDemoCatalog() });
    assert.is(report.hulls.inserted, 5);
    assert.equal(report.items.byCategory, { weapon: 10, armor: 2, furniture: 3, other: 2 });
  } finally {
    await other.stop();
  }
});

Catalog(
  'admin import: 401 without token, 403 for users, 400 for bad files, on both surfaces',
  async ({ app, user, admin }) => {
    assert.is((await app.rest('POST', '/api/admin/catalog/import', { body: sample })).status, 401);
    assert.is((await app.rest('POST', '/api/admin/catalog/import', { token: user.token, body: sample })).status, 403);
    const bad = await app.rest('POST', '/api/admin/catalog/import', {
      token: admin.token,
      body: { ships: [1, 2], items: {} },
    });
    assert.is(bad.status, 400);
    assert.match(bad.body.message, /ships/);
    assert.is((await trpcError(app.trpc().admin.catalog.import.mutate(sample))).status, 401);
    assert.is((await trpcError(app.trpc(user.token).admin.catalog.import.mutate(sample))).status, 403);
    const report = await app.trpc(admin.token).admin.catalog.import.mutate(sample);
    assert.is(report.hulls.updated, 3);
  },
);

Catalog('catalog read endpoints: hulls and items, filtered and paginated, on both surfaces', async ({ app }) => {
  const hulls = await app.rest('GET', '/api/catalog/hulls');
  assert.is(hulls.status, 200);
  assert.is(hulls.headers.get('cache-control'), 'public, max-age=300');
  // The sample's 3 hulls plus dhow and barge from the awkward-fields test.
  assert.equal(hulls.body.data.pagination, { page: 1, pageSize: 50, total: 5, totalPages: 1 });
  const brigantine = hulls.body.data.data.find((hull: { id: string }) => hull.id === 'brigantine');
  assert.equal(brigantine.slots.frontWeapon, { count: 1, gunPorts: 4 });
  assert.equal(brigantine.perks, ['bullhorn']);
  assert.is(brigantine.raw, undefined);
  assert.equal(
    (await app.rest('GET', '/api/catalog/hulls?size=small')).body.data.data.map((hull: { id: string }) => hull.id),
    ['bedar', 'hulk'],
  );
  assert.is((await app.rest('GET', '/api/catalog/hulls?size=huge')).status, 400);
  const furniture = await app.rest('GET', '/api/catalog/items?category=furniture');
  assert.equal(
    furniture.body.data.data.map((item: { id: string }) => item.id),
    ['culverinWorks1', 'firstAidStation', 'maintenanceForge1'],
  );
  const armor = (await app.rest('GET', '/api/catalog/items?type=armor')).body.data.data[0];
  assert.equal(armor.damageMitigation, { explosive: 0.17, flooding: 0, fire: 0, tearing: 0, piercing: 0 });
  const paged = (await app.rest('GET', '/api/catalog/items?pageSize=2&page=2')).body.data;
  assert.is(paged.data.length, 2);
  assert.is(paged.pagination.totalPages, Math.ceil(paged.pagination.total / 2));
  assert.is((await app.rest('GET', '/api/catalog/items?category=food')).status, 400);
  assert.is((await app.rest('GET', '/api/catalog/items?pageSize=101')).status, 400);
  const viaTrpc = await app.trpc().catalog.listItems.query({ category: 'weapon', type: 'ballista' });
  assert.equal(
    viaTrpc.data.map((item) => [item.id, item.requiredSize]),
    [['ballista1', 'medium']],
  );
  assert.is((await trpcError(app.trpc().catalog.listHulls.query({ pageSize: 0 }))).status, 400);
});

Catalog.run();
