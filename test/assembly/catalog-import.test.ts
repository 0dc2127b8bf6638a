// Catalog import (admin route, awkward and full-set entries, the demo catalog) and the assembly CLI commands, on both surfaces.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { catalogHulls, catalogItems } from '../../db/schema';
import { readDemoCatalog } from '../../server/seed/assemblies';
import { importCatalogCommand, purgeTrashCommand } from '../../server/cli/assembly-commands';
import { runCommand, UsageError } from '../../server/cli/command';
import { computeAttributes, resolveLoadout } from '../../server/domains/assembly/loadout';
import { importCatalog } from '../../server/domains/catalog/import';
import { ZBlueprint } from '../../server/domains/catalog/schemas';
import {
  COMMUNITY_SAMPLE,
  importCommunitySample,
  SAMPLE_DIR,
  signUpAdmin,
  startTestServer,
  trpcError,
  type TTestServer,
} from '../support/helpers';
import type { TUser } from './fixtures';

const sample = COMMUNITY_SAMPLE;

/** Runs an assembly CLI command against a given database; returns what it printed, or the error it threw. */
async function cli(
  databaseUrl: string,
  name: 'import-catalog' | 'purge-trash',
  args: string[],
): Promise<string[] | Error> {
  const command = name === 'import-catalog' ? importCatalogCommand : purgeTrashCommand;
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = databaseUrl;
  const lines: string[] = [];
  try {
    await runCommand(command, args, (line) => lines.push(line));
    return lines;
  } catch (error) {
    return error as Error;
  } finally {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
}

function lines(result: string[] | Error): string[] {
  if (result instanceof Error) throw result;
  return result;
}

const Catalog = suite<{ app: TTestServer; admin: TUser; user: TUser }>('catalog import');

Catalog.before(async (context) => {
  context.app = await startTestServer();
  context.admin = await signUpAdmin(context.app);
  context.user = await context.app.signUp();
});
Catalog.after(async ({ app }) => app.stop());

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

Catalog(
  'full-set shapes: every hull, weapon type and non-equipment type imports, figures and slots read right',
  async () => {
    // Hand-written entries in the shapes the full community set uses (checked against it locally; none of it is copied here):
    // lowercase `hitpoints` on a large hull, slots written inline as [1,{ top }] including the auxiliary slot, a hull with
    // furniture only, `blueprint` as a string, a list, a list holding a nested list, `obtainable` nested too, `worldEvent`
    // lists, fractional damage, sea fire and springloader entries without ammunition, ship upgrades carrying
    // damageMitigation, and chest / quest / contract / tool / ammunition entries with no figures at all.
    const other = await startTestServer();
    try {
      const ships = {
        bigOne: {
          id: 'bigOne',
          size: 'large',
          hitpoints: 90000,
          braceStrength: 20000,
          sailSpeed: { halfSail: 8, fullSail: 11, travelSail: 15 },
          slots: {
            attachement: [1, 1],
            frontWeapon: [1, { top: 2, lower: 3 }],
            leftSideWeapon: [1, { top: 5, lower: 6 }],
            auxiliaryWeapon: [1, { top: 2 }],
            furniture: [4, 1],
            ultimate: [1, 1],
          },
          perks: ['a', 'b'],
          blueprint: ['shop', ['contractReward', 'outpost']],
        },
        skiff: {
          id: 'skiff',
          size: 'extraSmall',
          hitPoints: 5000,
          braceStrength: 0,
          limit: 0,
          required: {},
          slots: { furniture: [1, 1] },
        },
      };
      const weapon = (type: string, extra: Record<string, unknown> = {}) => ({
        type,
        value: 1,
        weight: 500,
        gearScore: 50,
        projectilesPerShot: 1,
        damagePerShot: 1000,
        rateOfFire: 0,
        reloadSpeed: 5000,
        optimalRange: 500,
        ...extra,
      });
      const items = {
        gunA: weapon('culverin', { rateOfFire: 150, blueprint: 'shop', obtainable: ['chestA', 'chestB'] }),
        gunB: weapon('longGun', { blueprint: ['shop', ['contractReward', 'outpost']] }),
        gunC: weapon('demicannon', { projectilesPerShot: 5, damagePerShot: 200, blueprint: [['a', 'b']] }),
        gunD: weapon('bombard', { blastRadius: 30 }),
        gunE: weapon('torpedo', { obtainable: [['contractReward', 'person'], 'chestC'] }),
        gunF: weapon('ballista', { chargeTime: 1000, reloadSpeed: 1000, requiredSize: 'medium' }),
        gunG: weapon('seaFire', { projectilesPerShot: 20, fireDuration: 5000, worldEvent: ['x', 'y'] }),
        gunH: weapon('mortar', { timeToTarget: 5000, required: {} }),
        gunI: weapon('rocket', { projectilesPerShot: 10, damagePerShot: 123.4, reloadSpeed: 20000 }),
        gunJ: {
          type: 'springloader',
          requiredSize: 'medium',
          weight: 1000,
          gearScore: 80,
          damagePerShot: 8000,
          projectilesPerShot: 1,
          rateOfFire: 0,
          reloadSpeed: 20000,
          optimalRange: 400,
        },
        plate: {
          type: 'armor',
          weight: 500,
          gearScore: 200,
          armor: 1000,
          damageMitigation: { explosive: 0.2, flooding: 0, toxic: 0.1 },
          unobtainable: true,
        },
        desk: { type: 'majorFurniture', weight: 250, gearScore: 35, perks: ['desk'] },
        bench: {
          type: 'offensiveFurniture',
          weight: 80,
          gearScore: 20,
          obtainable: [['treasureMap', 'rare']],
          required: {},
        },
        locker: { type: 'utilityFurniture', weight: 80, gearScore: 25, worldEvent: ['p', 'q'] },
        bigOneUpgrade4: {
          type: 'shipUpgrade',
          tier: 4,
          value: 1,
          required: { parts: 3 },
          damageMitigation: { explosive: 0.05 },
          perks: ['bigOneUpgrade4'],
        },
        stew: { type: 'consumable', weight: 10, buffDuration: 1800, required: { meat: 1 }, perks: ['stew'] },
        box: { type: 'chest', rarity: 'epic', value: 1, weight: 100 },
        letter: { type: 'quest', rarity: 'common' },
        horn: { type: 'contract', worldEvent: 'hunt' },
        pick: { type: 'tool', tier: 1, limit: 1, required: { silver: 20 } },
        shot: { type: 'ammunition', weight: 1, obtainable: 'crate' },
      };
      const first = await importCatalog({ db: other.database.db, now: () => new Date() }, { files: { ships, items } });
      assert.equal(first.hulls, { inserted: 2, updated: 0 });
      assert.equal(first.items.byCategory, { weapon: 10, armor: 1, furniture: 3, other: 7 });
      assert.is(Object.keys(first.items.byType).length, 21);
      const again = await importCatalog({ db: other.database.db, now: () => new Date() }, { files: { ships, items } });
      assert.equal([again.hulls, again.items.inserted, again.items.updated], [{ inserted: 0, updated: 2 }, 0, 21]);

      const big = await other.database.db.select().from(catalogHulls).where(eq(catalogHulls.id, 'bigOne')).get();
      assert.equal([big!.size, big!.hitpoints, big!.braceStrength, big!.travelSail], ['large', 90000, 20000, 15]);
      assert.equal(JSON.parse(big!.slots), {
        attachement: { count: 1, gunPorts: 1 },
        frontWeapon: { count: 1, gunPorts: 5 },
        leftSideWeapon: { count: 1, gunPorts: 11 },
        auxiliaryWeapon: { count: 1, gunPorts: 2 },
        furniture: { count: 4, gunPorts: 1 },
        ultimate: { count: 1, gunPorts: 1 },
      });
      const skiff = await other.database.db.select().from(catalogHulls).where(eq(catalogHulls.id, 'skiff')).get();
      assert.equal([skiff!.hitpoints, JSON.parse(skiff!.slots)], [5000, { furniture: { count: 1, gunPorts: 1 } }]);

      // Every weapon type keeps its DPS inputs; non-equipment entries are kept as `other`, upgrades included.
      const rows = await other.database.db.select().from(catalogItems).all();
      const byId = new Map(rows.map((row) => [row.id, row]));
      for (const row of rows.filter((entry) => entry.category === 'weapon')) {
        assert.ok(
          row.damagePerShot !== null && row.reloadSpeedMs !== null && row.projectilesPerShot !== null,
          `${row.id} (${row.type}) lost a DPS input`,
        );
      }
      assert.is(byId.get('gunI')!.damagePerShot, 123.4);
      assert.is(byId.get('gunJ')!.requiredSize, 'medium');
      assert.equal(
        [byId.get('bigOneUpgrade4')!.category, byId.get('plate')!.category, byId.get('letter')!.category],
        ['other', 'armor', 'other'],
      );
      assert.equal(JSON.parse(byId.get('plate')!.damageMitigation!), { explosive: 0.2, flooding: 0, toxic: 0.1 });
      assert.equal(JSON.parse(byId.get('gunE')!.raw).obtainable, [['contractReward', 'person'], 'chestC']);

      // Attributes on the large hull: the auxiliary slot written as { top: 2 } counts two mounts.
      const loadout = {
        shipId: 'bigOne',
        weapons: [
          { slot: 'leftSideWeapon', itemId: 'gunC' },
          { slot: 'auxiliaryWeapon', itemId: 'gunJ' },
          { slot: 'frontWeapon', itemId: 'gunF' },
        ],
        armor: 'plate',
        furnitures: ['desk', 'bench', 'locker'],
      };
      const attributes = computeAttributes(loadout, await resolveLoadout(other.database.db, loadout));
      assert.equal(attributes.problems, []);
      // gunC: 200 x 5 / 5 s = 200 per mount x 11; gunJ: 8000 / 20 s = 400 x 2; gunF: 1000 / 1 s x 5.
      assert.equal(attributes.damagePerSecond, {
        front: 5000,
        left: 2200,
        right: 0,
        aft: 0,
        auxiliary: 800,
        total: 8000,
      });
      assert.is(attributes.weight, 500 * 11 + 1000 * 2 + 500 * 5 + 500 + 250 + 80 + 80);
      assert.is(attributes.hull!.hitpoints, 90000);
      const tooSmall = {
        shipId: 'skiff',
        weapons: [{ slot: 'frontWeapon', itemId: 'gunA' }],
        armor: 'bigOneUpgrade4',
        furnitures: [],
      };
      const problems = computeAttributes(tooSmall, await resolveLoadout(other.database.db, tooSmall)).problems.map(
        (problem) => problem.code,
      );
      assert.equal(problems, ['unknownSlot', 'wrongItemType']);
    } finally {
      await other.stop();
    }
  },
);

Catalog('CLI import-catalog and purge-trash', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-cli-'));
  try {
    const database = `file:${join(dir, 'cli.db')}`;
    const files = [join(SAMPLE_DIR, 'ships.json'), join(SAMPLE_DIR, 'items.json')];
    const first = lines(await cli(database, 'import-catalog', files));
    assert.ok(first.includes('hulls: 3 (3 new, 0 updated)'), first.join('\n'));
    assert.ok(first.includes('items: 14 (14 new, 0 updated)'));
    assert.ok(first.some((line) => line.includes('other types kept: 1')));
    assert.ok(lines(await cli(database, 'import-catalog', files)).includes('hulls: 3 (0 new, 3 updated)'));
    writeFileSync(join(dir, 'bad.json'), '{ nope');
    const bad = await cli(database, 'import-catalog', [join(dir, 'bad.json'), files[1]!]);
    assert.instance(bad, UsageError);
    assert.match((bad as Error).message, /not valid JSON/);
    const missing = await cli(database, 'import-catalog', [files[0]!]);
    assert.instance(missing, UsageError);
    assert.match((missing as Error).message, /exactly two files/);
    assert.equal(await cli(database, 'purge-trash', []), ['purged 0 assemblies from the trash']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Catalog.run();
