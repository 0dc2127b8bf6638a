import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql, type SQL } from 'drizzle-orm';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../db/client';
import { assemblies, catalogHulls, catalogItems } from '../../db/schema';
import { readDemoCatalog } from '../../server/seed/assemblies';
import { transaction } from '../../db/transaction';
import { importCatalogCommand, purgeTrashCommand } from '../../server/cli/assembly-commands';
import { runCommand, UsageError } from '../../server/cli/command';
import { JOBS } from '../../server/jobs';
import { ftsQuery, getAssembly, invalidateAssembly, MAX_SEARCH_RESULTS } from '../../server/domains/assembly/service';
import { computeAttributes, resolveLoadout } from '../../server/domains/assembly/loadout';
import { importCatalog, ZBlueprint } from '../../server/domains/catalog/service';
import { MemoryReadCache } from '../../server/infra/cache/read-cache';
import { VIEW_FLUSH_CHUNK, ViewCounter, viewFlushStatement } from '../../server/infra/view-counter';
import { COMMUNITY_SAMPLE, HULK, importCommunitySample, SAMPLE_DIR, signUpAdmin, startTestServer, TEST_DRIVER, trpcError, type TTestServer } from '../support/helpers';

const sample = COMMUNITY_SAMPLE;
const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

/** Runs an assembly CLI command against a given database; returns what it printed, or the error it threw. */
async function cli(databaseUrl: string, name: 'import-catalog' | 'purge-trash', args: string[]): Promise<string[] | Error> {
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

/** The brigantine loadout whose attributes are computed by hand below. */
const BRIGANTINE = {
  name: 'Brigantine all-rounder',
  shipId: 'brigantine',
  weapons: [
    { slot: 'leftSideWeapon' as const, itemId: 'culverin1' },
    { slot: 'rightSideWeapon' as const, itemId: 'demicannon1' },
    { slot: 'frontWeapon' as const, itemId: 'longGun1' },
    { slot: 'aftWeapon' as const, itemId: 'torpedo1' },
    { slot: 'auxiliaryWeapon' as const, itemId: 'ballista1' },
  ],
  armor: 'ironHusk1',
  furnitures: ['firstAidStation', 'culverinWorks1', 'maintenanceForge1'],
  tags: ['PvP', 'Broadside'],
  description: 'A bit of everything',
};

async function publish(app: TTestServer, token: string, body: Record<string, unknown>) {
  const response = await app.rest('POST', '/api/assembly/publish', { token, body });
  assert.is(response.status, 200, response.text);
  return response.body.data;
}

// ---------------------------------------------------------------------------------------------
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
  assert.equal(report.skipped, []);
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

Catalog('tolerates awkward entries: absent fields, nested blueprint, unknown types, hitPoints spelling', async ({ app }) => {
  const report = await importCatalog(
    app.database.db,
    {
      ships: {
        dhow: { id: 'dhow', size: 'extraSmall', hitPoints: 7000, blueprint: [['a', 'b'], 'c'], slots: { furniture: [1, 1], weird: 'x' } },
        bare: {},
        broken: 'not an object',
      },
      items: {
        mystery: { id: 'mystery', type: 'questItem', blueprint: [['x', ['y']]] },
        chest1: { type: 'chest' },
        springloader9: { type: 'springloader', damagePerShot: '120', reloadSpeed: 'n/a', perks: ['a', 3] },
        typeless: { id: 'typeless', weight: 4 },
        'bad\nid': { type: 'culverin' },
        'ok id!': { type: 'culverin' },
      },
    },
    new Date(),
  );
  assert.equal(report.hulls, { inserted: 2, updated: 0 });
  assert.equal(report.items.byCategory, { weapon: 2, armor: 0, furniture: 0, other: 2 });
  assert.equal(
    report.skipped.map((entry) => `${entry.file}:${entry.id}:${entry.reason}`),
    ['ships:broken:entry is not an object', 'items:typeless:type: is required (a string such as culverin, armor, consumable)', 'items:bad\nid:id must be 1-100 characters without control characters'],
  );
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
});

Catalog('an import that fails half-way writes nothing', async () => {
  const other = await startTestServer();
  try {
    // A trigger makes the database refuse one item, after every hull and some items were written.
    await other.database.db.run(sql`create trigger refuse_item before insert on catalog_items when new.id = 'zzExplode' begin select raise(abort, 'refused'); end`);
    const items = { ...sample.items, zzExplode: { type: 'culverin' } };
    let failed = false;
    try {
      await importCatalog(other.database.db, { ships: sample.ships, items }, new Date());
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
    const report = await importCatalog(other.database.db, readDemoCatalog(), new Date());
    assert.equal(report.skipped, []);
    assert.is(report.hulls.inserted, 5);
    assert.equal(report.items.byCategory, { weapon: 10, armor: 2, furniture: 3, other: 2 });
  } finally {
    await other.stop();
  }
});

Catalog('admin import: 401 without token, 403 for users, 400 for bad files, on both surfaces', async ({ app, user, admin }) => {
  assert.is((await app.rest('POST', '/api/admin/catalog/import', { body: sample })).status, 401);
  assert.is((await app.rest('POST', '/api/admin/catalog/import', { token: user.token, body: sample })).status, 403);
  const bad = await app.rest('POST', '/api/admin/catalog/import', { token: admin.token, body: { ships: [1, 2], items: {} } });
  assert.is(bad.status, 400);
  assert.match(bad.body.message, /ships/);
  assert.is((await trpcError(app.trpc().admin.catalog.import.mutate(sample))).status, 401);
  assert.is((await trpcError(app.trpc(user.token).admin.catalog.import.mutate(sample))).status, 403);
  const report = await app.trpc(admin.token).admin.catalog.import.mutate(sample);
  assert.is(report.hulls.updated, 3);
});

Catalog('catalog read endpoints: hulls and items, filtered and paginated, on both surfaces', async ({ app }) => {
  const hulls = await app.rest('GET', '/api/catalog/hulls');
  assert.is(hulls.status, 200);
  assert.is(hulls.headers.get('cache-control'), 'public, max-age=300');
  // The sample's 3 hulls plus dhow and bare from the awkward-entries test.
  assert.equal(hulls.body.data.pagination, { page: 1, pageSize: 50, total: 5, totalPages: 1 });
  const brigantine = hulls.body.data.items.find((hull: { id: string }) => hull.id === 'brigantine');
  assert.equal(brigantine.slots.frontWeapon, { count: 1, gunPorts: 4 });
  assert.equal(brigantine.perks, ['bullhorn']);
  assert.is(brigantine.raw, undefined);
  assert.equal((await app.rest('GET', '/api/catalog/hulls?size=small')).body.data.items.map((hull: { id: string }) => hull.id), ['bedar', 'hulk']);
  assert.is((await app.rest('GET', '/api/catalog/hulls?size=huge')).status, 400);
  const furniture = await app.rest('GET', '/api/catalog/items?category=furniture');
  assert.equal(furniture.body.data.items.map((item: { id: string }) => item.id), ['culverinWorks1', 'firstAidStation', 'maintenanceForge1']);
  const armor = (await app.rest('GET', '/api/catalog/items?type=armor')).body.data.items[0];
  assert.equal(armor.damageMitigation, { explosive: 0.17, flooding: 0, fire: 0, tearing: 0, piercing: 0 });
  const paged = (await app.rest('GET', '/api/catalog/items?pageSize=2&page=2')).body.data;
  assert.is(paged.items.length, 2);
  assert.is(paged.pagination.totalPages, Math.ceil(paged.pagination.total / 2));
  assert.is((await app.rest('GET', '/api/catalog/items?category=food')).status, 400);
  assert.is((await app.rest('GET', '/api/catalog/items?pageSize=101')).status, 400);
  const viaTrpc = await app.trpc().catalog.listItems.query({ category: 'weapon', type: 'ballista' });
  assert.equal(viaTrpc.items.map((item) => [item.id, item.requiredSize]), [['ballista1', 'medium']]);
  assert.is((await trpcError(app.trpc().catalog.listHulls.query({ pageSize: 0 }))).status, 400);
});

Catalog('full-set shapes: every hull, weapon type and non-equipment type imports, figures and slots read right', async () => {
  // Hand-written entries in the shapes the full community set uses (checked against it locally; none of it is copied here):
  // lowercase `hitpoints` on a large hull, slots written inline as [1,{ top }] including the auxiliary slot, a hull with
  // furniture only, `blueprint` as a string, a list, a list holding a nested list, `obtainable` nested too, `worldEvent`
  // lists, fractional damage, sea fire and springloader entries without ammunition, ship upgrades carrying
  // damageMitigation, and chest / quest / contract / tool / ammunition entries with no figures at all.
  const other = await startTestServer();
  try {
    const ships = {
      bigOne: { id: 'bigOne', size: 'large', hitpoints: 90000, braceStrength: 20000, sailSpeed: { halfSail: 8, fullSail: 11, travelSail: 15 }, slots: { attachement: [1, 1], frontWeapon: [1, { top: 2, lower: 3 }], leftSideWeapon: [1, { top: 5, lower: 6 }], auxiliaryWeapon: [1, { top: 2 }], furniture: [4, 1], ultimate: [1, 1] }, perks: ['a', 'b'], blueprint: ['shop', ['contractReward', 'outpost']] },
      skiff: { id: 'skiff', size: 'extraSmall', hitPoints: 5000, braceStrength: 0, limit: 0, required: {}, slots: { furniture: [1, 1] } },
    };
    const weapon = (type: string, extra: Record<string, unknown> = {}) => ({ type, value: 1, weight: 500, gearScore: 50, projectilesPerShot: 1, damagePerShot: 1000, rateOfFire: 0, reloadSpeed: 5000, optimalRange: 500, ...extra });
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
      gunJ: { type: 'springloader', requiredSize: 'medium', weight: 1000, gearScore: 80, damagePerShot: 8000, projectilesPerShot: 1, rateOfFire: 0, reloadSpeed: 20000, optimalRange: 400 },
      plate: { type: 'armor', weight: 500, gearScore: 200, armor: 1000, damageMitigation: { explosive: 0.2, flooding: 0, toxic: 0.1 }, unobtainable: true },
      desk: { type: 'majorFurniture', weight: 250, gearScore: 35, perks: ['desk'] },
      bench: { type: 'offensiveFurniture', weight: 80, gearScore: 20, obtainable: [['treasureMap', 'rare']], required: {} },
      locker: { type: 'utilityFurniture', weight: 80, gearScore: 25, worldEvent: ['p', 'q'] },
      bigOneUpgrade4: { type: 'shipUpgrade', tier: 4, value: 1, required: { parts: 3 }, damageMitigation: { explosive: 0.05 }, perks: ['bigOneUpgrade4'] },
      stew: { type: 'consumable', weight: 10, buffDuration: 1800, required: { meat: 1 }, perks: ['stew'] },
      box: { type: 'chest', rarity: 'epic', value: 1, weight: 100 },
      letter: { type: 'quest', rarity: 'common' },
      horn: { type: 'contract', worldEvent: 'hunt' },
      pick: { type: 'tool', tier: 1, limit: 1, required: { silver: 20 } },
      shot: { type: 'ammunition', weight: 1, obtainable: 'crate' },
    };
    const first = await importCatalog(other.database.db, { ships, items }, new Date());
    assert.equal(first.skipped, []);
    assert.equal(first.hulls, { inserted: 2, updated: 0 });
    assert.equal(first.items.byCategory, { weapon: 10, armor: 1, furniture: 3, other: 7 });
    assert.is(Object.keys(first.items.byType).length, 21);
    const again = await importCatalog(other.database.db, { ships, items }, new Date());
    assert.equal([again.hulls, again.items.inserted, again.items.updated, again.skipped], [{ inserted: 0, updated: 2 }, 0, 21, []]);

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
      assert.ok(row.damagePerShot !== null && row.reloadSpeedMs !== null && row.projectilesPerShot !== null, `${row.id} (${row.type}) lost a DPS input`);
    }
    assert.is(byId.get('gunI')!.damagePerShot, 123.4);
    assert.is(byId.get('gunJ')!.requiredSize, 'medium');
    assert.equal([byId.get('bigOneUpgrade4')!.category, byId.get('plate')!.category, byId.get('letter')!.category], ['other', 'armor', 'other']);
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
    assert.equal(attributes.damagePerSecond, { front: 5000, left: 2200, right: 0, aft: 0, auxiliary: 800, total: 8000 });
    assert.is(attributes.weight, 500 * 11 + 1000 * 2 + 500 * 5 + 500 + 250 + 80 + 80);
    assert.is(attributes.hull!.hitpoints, 90000);
    const tooSmall = { shipId: 'skiff', weapons: [{ slot: 'frontWeapon', itemId: 'gunA' }], armor: 'bigOneUpgrade4', furnitures: [] };
    const problems = computeAttributes(tooSmall, await resolveLoadout(other.database.db, tooSmall)).problems.map((problem) => problem.code);
    assert.equal(problems, ['unknownSlot', 'wrongItemType']);
  } finally {
    await other.stop();
  }
});

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

// ---------------------------------------------------------------------------------------------
const Publish = suite<{ app: TTestServer; owner: TUser }>('publish: catalog and slot rules');

Publish.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
});
Publish.after(async ({ app }) => app.stop());

Publish('publishes with defaults and returns the full assembly, on REST and tRPC', async ({ app, owner }) => {
  const created = await publish(app, owner.token, BRIGANTINE);
  assert.is(created.uuid.length, 36);
  assert.is(created.name, 'Brigantine all-rounder');
  assert.equal(created.ship, { id: 'brigantine', size: 'medium', archetype: 'dps' });
  assert.equal(created.weapons, BRIGANTINE.weapons);
  assert.is(created.armor, 'ironHusk1');
  assert.equal(created.furnitures, BRIGANTINE.furnitures);
  assert.equal(created.tags, ['pvp', 'broadside']);
  assert.is(created.isPublic, true);
  assert.is(created.hasPassword, false);
  assert.equal(created.creator, { id: owner.id, username: owner.username });
  assert.equal([created.likes, created.views], [0, 0]);
  assert.equal(created.rating, { average: null, count: 0, smoothed: 3 });
  assert.is(created.password, undefined);
  assert.is(created.passwordHash, undefined);
  const viaTrpc = await app.trpc(owner.token).assembly.publish.mutate({ ...HULK, isPublic: false, password: 'secret-pass' });
  assert.is(viaTrpc.isPublic, false);
  assert.is(viaTrpc.hasPassword, true);
  assert.is(viaTrpc.armor, null);
  assert.equal(viaTrpc.furnitures, []);
  const stored = await app.database.db.select({ hash: assemblies.passwordHash }).from(assemblies).where(eq(assemblies.uuid, viaTrpc.uuid)).get();
  assert.match(stored!.hash!, /^\$argon2id\$/);
});

Publish('401 without a token on both surfaces', async ({ app }) => {
  assert.is((await app.rest('POST', '/api/assembly/publish', { body: HULK })).status, 401);
  assert.is((await trpcError(app.trpc().assembly.publish.mutate(HULK))).status, 401);
});

Publish('unknown ids are a 400 naming them', async ({ app, owner }) => {
  const response = await app.rest('POST', '/api/assembly/publish', {
    token: owner.token,
    body: { ...BRIGANTINE, shipId: 'galleon9', armor: 'paperArmor', weapons: [{ slot: 'frontWeapon', itemId: 'laserGun' }] },
  });
  assert.is(response.status, 400);
  assert.match(response.body.message, /galleon9/);
  assert.match(response.body.message, /laserGun/);
  assert.match(response.body.message, /paperArmor/);
  assert.equal(
    response.body.data.issues.map((issue: { path: string }) => issue.path),
    ['shipId', 'weapons[0].itemId', 'armor'],
  );
  const viaTrpc = await trpcError(app.trpc(owner.token).assembly.publish.mutate({ ...HULK, furnitures: ['ghostFurniture'] }));
  assert.is(viaTrpc.status, 400);
  assert.match(viaTrpc.message, /furnitures\[0\] "ghostFurniture"/);
});

Publish('slot rules: kind exists, count not exceeded, requiredSize met, item type fits', async ({ app, owner }) => {
  const cases: [Record<string, unknown>, RegExp, string][] = [
    [{ ...HULK, weapons: [{ slot: 'auxiliaryWeapon', itemId: 'culverin1' }] }, /no "auxiliaryWeapon" weapon slot/, 'weapons[0].slot'],
    [{ ...HULK, weapons: [{ slot: 'ultimate', itemId: 'culverin1' }] }, /weapons\[0\]\.slot: must be one of frontWeapon, leftSideWeapon/, 'weapons[0].slot'],
    [{ ...HULK, weapons: [{ slot: 'furniture', itemId: 'culverin1' }] }, /weapons\[0\]\.slot/, 'weapons[0].slot'],
    [{ ...HULK, weapons: [{ slot: 'leftSideWeapon', itemId: 'culverin1' }, { slot: 'leftSideWeapon', itemId: 'bombard1' }] }, /2 weapons in "leftSideWeapon"; hull "hulk" has 1/, 'weapons'],
    [{ ...HULK, weapons: [{ slot: 'frontWeapon', itemId: 'ballista1' }] }, /needs a medium hull; "hulk" is small/, 'weapons[0].itemId'],
    [{ ...HULK, furnitures: ['firstAidStation', 'culverinWorks1', 'maintenanceForge1'] }, /3 furnitures; hull "hulk" has 2/, 'furnitures'],
    [{ ...HULK, armor: 'culverin1' }, /is a culverin, not armor/, 'armor'],
    [{ ...HULK, weapons: [{ slot: 'frontWeapon', itemId: 'ironHusk1' }] }, /not a weapon/, 'weapons[0].itemId'],
    [{ ...HULK, furnitures: ['grilledBeef'] }, /is a consumable, not furniture/, 'furnitures[0]'],
  ];
  for (const [body, message, path] of cases) {
    const response = await app.rest('POST', '/api/assembly/publish', { token: owner.token, body });
    assert.is(response.status, 400, JSON.stringify(body));
    assert.match(response.body.message, message);
    assert.is(response.body.data.issues[0].path, path);
  }
  // The same ballista fits the medium brigantine.
  const ok = await publish(app, owner.token, { ...HULK, shipId: 'brigantine', weapons: [{ slot: 'auxiliaryWeapon', itemId: 'ballista1' }] });
  assert.is(ok.shipId, 'brigantine');
});

Publish('input errors: missing fields, too many tags, password on a public assembly', async ({ app, owner }) => {
  const missing = await app.rest('POST', '/api/assembly/publish', { token: owner.token, body: { shipId: 'hulk', weapons: [] } });
  assert.is(missing.status, 400);
  assert.match(missing.body.message, /name/);
  const noWeapons = await app.rest('POST', '/api/assembly/publish', { token: owner.token, body: { name: 'x', shipId: 'hulk' } });
  assert.is(noWeapons.status, 400);
  assert.match(noWeapons.body.message, /weapons/);
  const tags = await app.rest('POST', '/api/assembly/publish', { token: owner.token, body: { ...HULK, tags: Array.from({ length: 11 }, (_, i) => `t${i}`) } });
  assert.is(tags.status, 400);
  assert.match(tags.body.message, /tags/);
  const longTag = await app.rest('POST', '/api/assembly/publish', { token: owner.token, body: { ...HULK, tags: ['x'.repeat(25)] } });
  assert.is(longTag.status, 400);
  const publicPassword = await app.rest('POST', '/api/assembly/publish', { token: owner.token, body: { ...HULK, password: 'secret-pass' } });
  assert.is(publicPassword.status, 400);
  assert.match(publicPassword.body.message, /password/);
  const badFlag = await app.rest('POST', '/api/assembly/publish', { token: owner.token, body: { ...HULK, isPublic: 'nope' } });
  assert.is(badFlag.status, 400);
  assert.match(badFlag.body.message, /isPublic/);
});

Publish.run();

// ---------------------------------------------------------------------------------------------
const Attr = suite<{ app: TTestServer; admin: TUser; owner: TUser }>('attr: figures computed from the catalog');

Attr.before(async (context) => {
  context.app = await startTestServer();
  context.admin = await signUpAdmin(context.app);
  await importCommunitySample(context.app, context.admin);
  context.owner = await context.app.signUp();
});
Attr.after(async ({ app }) => app.stop());

Attr('hull, armor, damage per side and total, range, weight, gear score, perks: hand-computed', async ({ app, owner }) => {
  const created = await publish(app, owner.token, BRIGANTINE);
  const response = await app.rest('GET', `/api/assembly/attr?uuid=${created.uuid}`);
  assert.is(response.status, 200, response.text);
  const attr = response.body.data;
  assert.equal(attr.hull, {
    id: 'brigantine',
    size: 'medium',
    archetype: 'dps',
    hitpoints: 40000,
    braceStrength: 8000,
    sailSpeed: { halfSail: 9, fullSail: 12, travelSail: 18 },
    cargo: { cargoSlots: 100, cargoMaxWeight: 90000 },
  });
  assert.equal(attr.armor, { itemId: 'ironHusk1', armor: 200, damageMitigation: { explosive: 0.17, flooding: 0, fire: 0, tearing: 0, piercing: 0 } });
  // left: culverin1 500 x 1 / 6 s = 83.33 per mount, x 8 gun ports = 666.67
  // right: demicannon1 152 x 4 / 3.5 s = 173.71, x 8 = 1389.71
  // front: longGun1 1167 / 7.2 s = 162.08, x 4 = 648.33; aft: torpedo1 750 / 4.5 s = 166.67, x 2 = 333.33
  // auxiliary: ballista1 460 / 1 s x 1 = 460; total 666.667 + 1389.714 + 648.333 + 333.333 + 460 = 3498.05
  assert.equal(attr.damagePerSecond, { front: 648.33, left: 666.67, right: 1389.71, aft: 333.33, auxiliary: 460, total: 3498.05 });
  const culverin = attr.weapons.find((weapon: { itemId: string }) => weapon.itemId === 'culverin1');
  assert.equal(culverin, {
    slot: 'leftSideWeapon',
    itemId: 'culverin1',
    type: 'culverin',
    gunPorts: 8,
    damagePerShot: 500,
    projectilesPerShot: 1,
    reloadSeconds: 6,
    damagePerSecond: 83.33,
    slotDamagePerSecond: 666.67,
    optimalRange: 600,
  });
  assert.equal(attr.optimalRange, { min: 250, max: 1000 });
  // weapons 500x8 + 500x8 + 500x4 + 500x2 + 750x1 = 11750; armor 500; furniture 250 + 200 + 80 = 530
  assert.is(attr.weight, 12780);
  // 7 + 7 + 7 + 21 + 21 (weapons) + 27 (armor) + 35 + 15 + 15 (furniture)
  assert.is(attr.gearScore, 155);
  assert.equal(
    attr.perks.map((perk: { perk: string; source: string }) => `${perk.source}:${perk.perk}`),
    [
      'hull:bullhorn',
      'weapon:piercing1',
      'weapon:arming',
      'weapon:flooding3',
      'weapon:draw',
      'weapon:piercing2',
      'furniture:firstAidStation',
      'furniture:culverinElementalDamage19',
      'furniture:repairSevereDmgOfHullOutOfCombat1',
    ],
  );
  assert.equal(attr.problems, []);
  const viaTrpc = await app.trpc().assembly.getAttributes.query({ uuid: created.uuid });
  assert.equal(viaTrpc.damagePerSecond, attr.damagePerSecond);
});

Attr('problems appear when a re-imported catalog no longer fits the loadout', async ({ app, admin, owner }) => {
  const created = await publish(app, owner.token, { ...HULK, shipId: 'brigantine', weapons: [{ slot: 'auxiliaryWeapon', itemId: 'ballista1' }] });
  const changed = structuredClone(sample);
  changed.items.ballista1.requiredSize = 'large';
  await app.rest('POST', '/api/admin/catalog/import', { token: admin.token, body: changed });
  const attr = (await app.rest('GET', `/api/assembly/attr?uuid=${created.uuid}`)).body.data;
  assert.equal(attr.problems, [{ code: 'hullTooSmall', path: 'weapons[0].itemId', message: '"ballista1" needs a large hull; "brigantine" is medium' }]);
  await importCommunitySample(app, admin);
});

Attr('400 for a bad uuid, 404 for an unknown one, 403 for a private one without its password', async ({ app, owner }) => {
  assert.is((await app.rest('GET', '/api/assembly/attr?uuid=short')).status, 400);
  assert.is((await app.rest('GET', '/api/assembly/attr')).status, 400);
  assert.is((await app.rest('GET', '/api/assembly/attr?uuid=00000000-0000-4000-8000-000000000000')).status, 404);
  const hidden = await publish(app, owner.token, { ...HULK, isPublic: false, password: 'open-sesame' });
  assert.is((await app.rest('GET', `/api/assembly/attr?uuid=${hidden.uuid}`)).status, 403);
  assert.is((await app.rest('GET', `/api/assembly/attr?uuid=${hidden.uuid}&password=open-sesame`)).status, 200);
  assert.is((await app.rest('GET', `/api/assembly/attr?uuid=${hidden.uuid}`, { token: owner.token })).status, 200);
  assert.is((await trpcError(app.trpc().assembly.getAttributes.query({ uuid: hidden.uuid }))).status, 403);
});

Attr.run();

// ---------------------------------------------------------------------------------------------
const Item = suite<{ app: TTestServer; owner: TUser; other: TUser }>('item: views, cache, private rules, ETag');

Item.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.other = await context.app.signUp();
});
Item.after(async ({ app }) => app.stop());

Item('views count on every read but the creator\'s, cache hit or not', async ({ app, owner, other }) => {
  const created = await publish(app, owner.token, HULK);
  const url = `/api/assembly/item?uuid=${created.uuid}`;
  assert.is((await app.rest('GET', url)).body.data.views, 1);
  assert.is((await app.rest('GET', url, { token: other.token })).body.data.views, 2);
  assert.is((await app.trpc().assembly.getItem.query({ uuid: created.uuid })).views, 3);
  assert.is((await app.rest('GET', url, { token: owner.token })).body.data.views, 3, 'the creator does not count');
  assert.is((await app.rest('GET', `${url}&force=true`)).body.data.views, 4);
});

const storedViews = async (app: TTestServer, uuid: string) =>
  (await app.database.db.select({ views: assemblies.views }).from(assemblies).where(eq(assemblies.uuid, uuid)).get())!.views;

Item('views are counted in memory and written in one batch; the next read after it sees other instances\' views', async ({ app, owner }) => {
  const created = await publish(app, owner.token, HULK);
  const url = `/api/assembly/item?uuid=${created.uuid}`;
  const { views } = app.app.deps;
  for (let i = 1; i <= 3; i++) assert.is((await app.rest('GET', url)).body.data.views, i);
  assert.is(await storedViews(app, created.uuid), 0, 'nothing written before the flush');
  assert.ok((await views.flush(app.database.db)) >= 1);
  assert.is(await storedViews(app, created.uuid), 3);
  assert.is(await views.flush(app.database.db), 0, 'nothing pending, nothing written');
  // Another instance wrote 10 views: the flush forgot this count, so the next read fetches it.
  await app.database.db.update(assemblies).set({ views: 13 }).where(eq(assemblies.uuid, created.uuid));
  assert.is((await app.rest('GET', url)).body.data.views, 14);
  assert.is((await app.rest('GET', url, { token: owner.token })).body.data.views, 14, 'the creator still does not count');
  await views.flush(app.database.db);
  assert.is(await storedViews(app, created.uuid), 14);
});

Item('one flush writes every assembly\'s views; those of one trashed meanwhile go with it', async ({ app, owner }) => {
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
  const { caches: { lru: cache }, views } = app.app.deps;
  const db = app.database.db;
  const read = getAssembly(db, cache, views, locked.uuid, { password: 'open-sesame', force: true });
  // The row is read and its count known before Argon2 starts; flush (and forget the count) while it runs.
  while (views.current(locked.uuid) === undefined) await new Promise((resolve) => setImmediate(resolve));
  await views.flush(db);
  assert.is(views.current(locked.uuid), undefined, 'forgotten mid-read');
  assert.is((await read).view.views, 1);
  await views.flush(db);
  assert.is(await storedViews(app, locked.uuid), 1);
});

Item('a flush walks its batch and looks each uuid up, never the live rows (query plan)', async () => {
  // A database of its own: on libSQL, the app's writes failed (busy) after an EXPLAIN of this UPDATE on its connection.
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-views-plan-'));
  const database = openDatabase(`file:${join(dir, 'plan.db')}`, { driver: TEST_DRIVER });
  let steps: string[];
  try {
    await database.migrate();
    steps = (await database.db.all<{ detail: string }>(sql`explain query plan ${viewFlushStatement('[["x", 1]]')}`)).map((row) => row.detail);
  } finally {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  }
  assert.ok(steps.some((step) => /SEARCH assemblies USING INDEX assemblies_uuid_unique \(uuid=\?\)/.test(step)), steps.join('; '));
  assert.not.ok(steps.some((step) => /assemblies_listable|SCAN assemblies/.test(step)), steps.join('; '));
});

Item('a failed flush keeps the views for the next one', async ({ app, owner }) => {
  const created = await publish(app, owner.token, HULK);
  await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`);
  await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`);
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-views-'));
  const empty = openDatabase(`file:${join(dir, 'empty.db')}`, { driver: TEST_DRIVER });
  // No assemblies table there: the write fails and rolls back.
  const failure = await app.app.deps.views.flush(empty.db).then(() => undefined, (error: unknown) => error);
  empty.close();
  rmSync(dir, { recursive: true, force: true });
  assert.ok(failure instanceof Error, 'the flush failed');
  assert.is(app.app.deps.views.current(created.uuid), 2);
  await app.app.deps.views.flush(app.database.db);
  assert.is(await storedViews(app, created.uuid), 2);
});

Item('a flush writes VIEW_FLUSH_CHUNK assemblies a statement; a failed statement keeps its views and the later ones pending; flushes never interleave', async ({ app, owner }) => {
  const db = app.database.db;
  const now = new Date();
  const rows = Array.from({ length: VIEW_FLUSH_CHUNK * 2 + 10 }, (_, i) => ({
    uuid: randomUUID(), creatorId: owner.id, name: `chunk ${i}`, shipId: 'hulk', weapons: '[]', furnitures: '[]', tags: '[]', isPublic: true, createdAt: now, updatedAt: now,
  }));
  for (let start = 0; start < rows.length; start += 100) await db.insert(assemblies).values(rows.slice(start, start + 100));
  const stored = async () => {
    const found = await db.select({ uuid: assemblies.uuid, views: assemblies.views }).from(assemblies).where(sql`${assemblies.name} like 'chunk %'`);
    const byUuid = new Map(found.map((row) => [row.uuid, row.views]));
    return rows.map((row) => byUuid.get(row.uuid));
  };
  const views = new ViewCounter();
  for (const row of rows) {
    views.learn(row.uuid, 0);
    views.record(row.uuid);
  }
  // The second statement fails (a lost connection): the first chunk is written, the rest stays pending.
  let statements = 0;
  const failing = new Proxy(db, {
    get: (target, name, receiver) =>
      name === 'all' ? (query: SQL) => (++statements === 2 ? Promise.reject(new Error('connection lost')) : target.all(query)) : Reflect.get(target, name, receiver),
  });
  const failure = await views.flush(failing).then(() => undefined, (error: unknown) => error);
  assert.ok(failure instanceof Error && failure.message === 'connection lost');
  assert.is(statements, 2, 'one statement per chunk, none after the failure');
  const afterFailure = await stored();
  assert.ok(afterFailure.slice(0, VIEW_FLUSH_CHUNK).every((count) => count === 1), 'the first chunk is written');
  assert.ok(afterFailure.slice(VIEW_FLUSH_CHUNK).every((count) => count === 0), 'the rest is not');
  assert.ok(rows.every((row) => views.current(row.uuid) === 1), 'every count still answers 1');
  assert.is(await views.flush(db), rows.length - VIEW_FLUSH_CHUNK, 'the next flush writes what was left');
  assert.ok((await stored()).every((count) => count === 1));

  // A second flush asked for while the first runs, with views recorded before and between: each view written once.
  // (A flush forgets the counts that had nothing pending; a read learns them again, as getAssembly does.)
  for (const row of rows) {
    if (views.current(row.uuid) === undefined) views.learn(row.uuid, 1);
    views.record(row.uuid);
  }
  const first = views.flush(db);
  for (const row of rows) views.record(row.uuid);
  const second = views.flush(db);
  assert.is((await first) + (await second) >= rows.length, true);
  assert.ok((await stored()).every((count) => count === 3), 'no view written twice or lost');
  assert.ok(rows.every((row) => [3, undefined].includes(views.current(row.uuid))), 'each count is right, or forgotten once written');
});

Item('the read cache serves stale rows until force=true; writes invalidate it', async ({ app, owner }) => {
  const created = await publish(app, owner.token, HULK);
  const url = `/api/assembly/item?uuid=${created.uuid}`;
  assert.is((await app.rest('GET', url)).body.data.name, 'Hulk brawler');
  // Written behind the service's back: only a cache bypass can see it.
  await app.database.db.update(assemblies).set({ name: 'Renamed in SQL' }).where(eq(assemblies.uuid, created.uuid));
  assert.is((await app.rest('GET', url)).body.data.name, 'Hulk brawler');
  assert.is((await app.rest('GET', `${url}&force=1`)).body.data.name, 'Renamed in SQL');
  assert.is((await app.rest('GET', `${url}&force=nope`)).status, 400);
  // An edit through the API invalidates: the next plain read is fresh.
  await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: created.uuid, data: { name: 'Edited' } } });
  assert.is((await app.rest('GET', url)).body.data.name, 'Edited');
});

Item('ETag on the item and 304 for a matching If-None-Match, even though views move', async ({ app, owner }) => {
  const created = await publish(app, owner.token, HULK);
  const url = `/api/assembly/item?uuid=${created.uuid}`;
  const first = await app.rest('GET', url);
  const etag = first.headers.get('etag');
  assert.ok(etag?.startsWith('W/"'));
  const second = await app.rest('GET', url, { headers: { 'if-none-match': etag! } });
  assert.is(second.status, 304);
  assert.is(second.text, '');
  await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: created.uuid, data: { description: 'changed' } } });
  const third = await app.rest('GET', url, { headers: { 'if-none-match': etag! } });
  assert.is(third.status, 200);
  assert.is(third.body.data.description, 'changed');
  assert.is.not(third.headers.get('etag'), etag);
  const list = await app.rest('GET', '/api/assembly/list');
  const listAgain = await app.rest('GET', '/api/assembly/list', { headers: { 'if-none-match': list.headers.get('etag')! } });
  assert.is(listAgain.status, 304);
});

Item('private: 403 without or with a wrong password, 200 with it, the creator always passes', async ({ app, owner, other }) => {
  const locked = await publish(app, owner.token, { ...HULK, isPublic: false, password: 'open-sesame' });
  const closed = await publish(app, owner.token, { ...HULK, isPublic: false });
  const url = `/api/assembly/item?uuid=${locked.uuid}`;
  const without = await app.rest('GET', url);
  assert.is(without.status, 403);
  assert.match(without.body.message, /password is required/);
  const wrong = await app.rest('GET', `${url}&password=guess`, { token: other.token });
  assert.is(wrong.status, 403);
  assert.match(wrong.body.message, /Wrong password/);
  const right = await app.rest('GET', `${url}&password=open-sesame`);
  assert.is(right.status, 200);
  assert.is(right.body.data.hasPassword, true);
  assert.is(right.headers.get('cache-control'), 'private, no-cache');
  assert.is((await app.rest('GET', url, { token: owner.token })).status, 200);
  // A private assembly without a password is the creator's alone.
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${closed.uuid}&password=anything`)).status, 403);
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${closed.uuid}`, { token: owner.token })).status, 200);
  assert.is((await trpcError(app.trpc(other.token).assembly.getItem.query({ uuid: locked.uuid, password: 'guess' }))).status, 403);
  assert.is((await app.trpc(other.token).assembly.getItem.query({ uuid: locked.uuid, password: 'open-sesame' })).uuid, locked.uuid);
  assert.is((await app.trpc(owner.token).assembly.getItem.query({ uuid: closed.uuid })).uuid, closed.uuid);
  // Cached or not, the check is made on every read.
  assert.is((await app.rest('GET', url)).status, 403);
});

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
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`)).status, 404, 'cached copy is invalidated');
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`, { token: owner.token })).status, 404);
  assert.is((await trpcError(app.trpc().assembly.getItem.query({ uuid: created.uuid }))).status, 404);
});

Item.run();

// ---------------------------------------------------------------------------------------------
const List = suite<{ app: TTestServer; owner: TUser; fans: TUser[] }>('list: search, filter, sorts, paging');

List.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.fans = [await context.app.signUp(), await context.app.signUp()];
});
List.after(async ({ app }) => app.stop());

List('paging defaults 1/20, pageSize over 100 is a 400, private and trashed never listed', async ({ app, owner }) => {
  for (let i = 0; i < 22; i++) await publish(app, owner.token, { ...HULK, name: `Paged ${i}`, tags: ['paging'] });
  await publish(app, owner.token, { ...HULK, name: 'Paged private', tags: ['paging'], isPublic: false });
  const trashed = await publish(app, owner.token, { ...HULK, name: 'Paged trashed', tags: ['paging'] });
  await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: trashed.uuid } });
  const first = (await app.rest('GET', '/api/assembly/list?keyword=paging')).body.data;
  assert.equal(first.pagination, { page: 1, pageSize: 20, total: 22, totalPages: 2 });
  assert.is(first.truncated, false, 'truncated is always present');
  assert.is((await app.rest('GET', '/api/assembly/list')).body.data.truncated, false, 'and false without a keyword');
  assert.is(first.items.length, 20);
  assert.is(first.items[0].name, 'Paged 21', 'latest first');
  assert.is(first.items[0].weapons, undefined, 'list items are summaries');
  const second = (await app.rest('GET', '/api/assembly/list?keyword=paging&page=2')).body.data;
  assert.equal(second.items.map((item: { name: string }) => item.name), ['Paged 1', 'Paged 0']);
  const names = [...first.items, ...second.items].map((item: { name: string }) => item.name);
  assert.not.ok(names.includes('Paged private'));
  assert.not.ok(names.includes('Paged trashed'));
  const tooBig = await app.rest('GET', '/api/assembly/list?pageSize=101');
  assert.is(tooBig.status, 400);
  assert.match(tooBig.body.message, /pageSize/);
  assert.is((await app.rest('GET', '/api/assembly/list?page=0')).status, 400);
  assert.is((await app.rest('GET', '/api/assembly/list?sort=best')).status, 400);
  const viaTrpc = await app.trpc().assembly.list.query({ keyword: 'paging', pageSize: 5, page: 5 });
  assert.equal(viaTrpc.pagination, { page: 5, pageSize: 5, total: 22, totalPages: 5 });
  assert.is(viaTrpc.truncated, false);
  assert.is(viaTrpc.items.length, 2);
  assert.is((await trpcError(app.trpc().assembly.list.query({ pageSize: 101 }))).status, 400);
});

List('keyword matches name words or tags through FTS5, every word as a prefix; operators are plain text', async ({ app, owner }) => {
  await publish(app, owner.token, { ...HULK, name: 'Stormbreaker galleon', tags: ['kraken-hunter'] });
  await publish(app, owner.token, { ...HULK, name: 'Quiet trader', tags: ['merchant', 'stormproof'] });
  const search = async (keyword: string) =>
    (await app.rest('GET', `/api/assembly/list?keyword=${encodeURIComponent(keyword)}`)).body.data.items.map((item: { name: string }) => item.name);
  assert.equal(await search('stormbreaker'), ['Stormbreaker galleon']);
  assert.equal(await search('storm'), ['Quiet trader', 'Stormbreaker galleon'], 'prefix match on name and tag');
  assert.equal(await search('MERCHANT'), ['Quiet trader']);
  assert.equal(await search('kraken'), ['Stormbreaker galleon']);
  assert.equal(await search('stormbreaker gall'), ['Stormbreaker galleon'], 'every word must match');
  assert.equal(await search('storm gall'), ['Stormbreaker galleon'], 'every word as a prefix');
  assert.equal(await search('s g'), ['Stormbreaker galleon'], 'one-letter prefixes too');
  assert.equal(await search('storm galleons'), [], 'a prefix longer than the word does not match');
  assert.equal(await search('kraken storm'), ['Stormbreaker galleon'], 'words in any order, name and tags together');
  for (const hostile of ['"', 'AND (', 'storm OR', '*', 'NEAR(a b)', "'; drop table assemblies; --", 'name:storm', '^storm']) {
    const response = await app.rest('GET', `/api/assembly/list?keyword=${encodeURIComponent(hostile)}`);
    assert.is(response.status, 200, `${hostile}: ${response.text}`);
  }
  assert.equal(await search('"'), []);
  assert.equal(await search('storm OR'), [], 'OR is a word to match, not an operator');
  assert.equal(ftsQuery('a "b" AND ('), '"a"* """b"""* "AND"*');
  assert.is(ftsQuery('nul\u0000byte'), '"nul"* "byte"*', 'control characters split words');
  const edited = (await app.rest('GET', '/api/assembly/list?keyword=stormbreaker')).body.data.items[0];
  await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: edited.uuid, data: { name: 'Renamed ship', tags: [] } } });
  assert.equal(await search('stormbreaker'), [], 'the index follows edits');
  assert.equal(await search('renamed'), ['Renamed ship']);
  assert.equal((await app.trpc().assembly.list.query({ keyword: 'quiet' })).items.map((item) => item.name), ['Quiet trader']);
});

List('shipType filters by hull size or archetype', async ({ app, owner }) => {
  await publish(app, owner.token, { ...HULK, name: 'Class hulk', tags: ['classes'] });
  await publish(app, owner.token, { ...HULK, shipId: 'brigantine', name: 'Class brigantine', tags: ['classes'] });
  await publish(app, owner.token, { ...HULK, shipId: 'bedar', name: 'Class bedar', tags: ['classes'] });
  const names = async (shipType: string) =>
    (await app.rest('GET', `/api/assembly/list?keyword=classes&shipType=${shipType}`)).body.data.items.map((item: { name: string }) => item.name);
  assert.equal(await names('small'), ['Class bedar', 'Class hulk']);
  assert.equal(await names('medium'), ['Class brigantine']);
  assert.equal(await names('tank'), ['Class hulk']);
  assert.equal(await names('DPS'), ['Class bedar', 'Class brigantine']);
  assert.equal(await names('large'), []);
});

List('sort=hottest: log10(2 x likes + views / 10 + 1), rounded to 0.01, + publication time / 12 h, hand-computed', async ({ app, owner, fans }) => {
  const old = await publish(app, owner.token, { ...HULK, name: 'Hot old', tags: ['hotsort'] });
  app.clock.advance(2 * HOUR);
  const fresh = await publish(app, owner.token, { ...HULK, name: 'Hot new', tags: ['hotsort'] });
  const liked = await publish(app, owner.token, { ...HULK, name: 'Hot liked', tags: ['hotsort'] });
  for (const fan of fans) await app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid: old.uuid } });
  await app.trpc(fans[0]!.token).assembly.like.mutate({ uuid: liked.uuid });
  // Relative to the two new ones (interaction rounded to 0.01): old log10(2x2 + 1) - 2/12 = 0.70 - 0.167; liked log10(2 + 1) = 0.48; new 0
  const hottest = (await app.rest('GET', '/api/assembly/list?keyword=hotsort&sort=hottest')).body.data.items;
  assert.equal(hottest.map((item: { name: string }) => item.name), ['Hot old', 'Hot liked', 'Hot new']);
  assert.equal(hottest.map((item: { likes: number }) => item.likes), [2, 1, 0]);
  const latest = (await app.rest('GET', '/api/assembly/list?keyword=hotsort')).body.data.items;
  assert.equal(latest.map((item: { name: string }) => item.name), ['Hot liked', 'Hot new', 'Hot old']);
  // Time alone changes no order (issue 16: that is what lets an index serve the list without a keyword).
  // The cached first page expires with the clock.
  app.clock.advance(10 * HOUR);
  const later = (await app.rest('GET', '/api/assembly/list?keyword=hotsort&sort=hottest')).body.data.items;
  assert.equal(later.map((item: { name: string }) => item.name), ['Hot old', 'Hot liked', 'Hot new']);
  // A view counts a tenth of a like: 21 views lift new to log10(2.1 + 1) = 0.49, above liked (0.48).
  // Views do not invalidate cached lists; the page is fresh again once its 30 s have passed.
  for (let i = 0; i < 21; i++) await app.rest('GET', `/api/assembly/item?uuid=${fresh.uuid}`);
  await app.app.deps.views.flush(app.database.db);
  app.clock.advance(31_000);
  const viewed = (await app.rest('GET', '/api/assembly/list?keyword=hotsort&sort=hottest')).body.data.items;
  assert.equal(viewed.map((item: { name: string }) => item.name), ['Hot old', 'Hot new', 'Hot liked']);
  assert.equal(viewed.map((item: { views: number }) => item.views), [0, 21, 0]);
});

List('sort=rating: smoothed (sum + 15) / (count + 5), hand-computed', async ({ app, owner, fans }) => {
  const one5 = await publish(app, owner.token, { ...HULK, name: 'Rated one five', tags: ['ratesort'] });
  const two5 = await publish(app, owner.token, { ...HULK, name: 'Rated two fives', tags: ['ratesort'] });
  const low = await publish(app, owner.token, { ...HULK, name: 'Rated two', tags: ['ratesort'] });
  await publish(app, owner.token, { ...HULK, name: 'Unrated', tags: ['ratesort'] });
  const rate = (token: string, uuid: string, score: number) => app.rest('POST', '/api/assembly/rate', { token, body: { uuid, score } });
  await rate(fans[0]!.token, one5.uuid, 5);
  await rate(fans[0]!.token, two5.uuid, 5);
  await rate(fans[1]!.token, two5.uuid, 5);
  await rate(fans[1]!.token, low.uuid, 2);
  // one five: 20/6 = 3.33; two fives: 25/7 = 3.57; unrated: 15/5 = 3; two: 17/6 = 2.83
  const items = (await app.rest('GET', '/api/assembly/list?keyword=ratesort&sort=rating')).body.data.items;
  assert.equal(items.map((item: { name: string }) => item.name), ['Rated two fives', 'Rated one five', 'Unrated', 'Rated two']);
  assert.equal(items.map((item: { rating: unknown }) => item.rating), [
    { average: 5, count: 2, smoothed: 3.57 },
    { average: 5, count: 1, smoothed: 3.33 },
    { average: null, count: 0, smoothed: 3 },
    { average: 2, count: 1, smoothed: 2.83 },
  ]);
});

/** Ids in the FTS5 index itself that match a keyword (not through the list). */
async function indexedIds(app: TTestServer, keyword: string): Promise<number[]> {
  const rows = await app.database.db.all<{ id: number }>(
    sql`select rowid as id from assemblies_fts where assemblies_fts match ${ftsQuery(keyword)} order by rowid`,
  );
  return rows.map((row) => Number(row.id));
}

async function idOf(app: TTestServer, uuid: string): Promise<number> {
  return (await app.database.db.select({ id: assemblies.id }).from(assemblies).where(eq(assemblies.uuid, uuid)).get())!.id;
}

List('the index holds only listable assemblies: publish state, trash, rename and purge move rows in and out', async ({ app, owner }) => {
  const names = async (keyword: string) =>
    (await app.rest('GET', `/api/assembly/list?keyword=${encodeURIComponent(keyword)}`)).body.data.items.map((item: { name: string }) => item.name);
  const viaTrpc = async (keyword: string) => (await app.trpc().assembly.list.query({ keyword })).items.map((item) => item.name);
  const shown = await publish(app, owner.token, { ...HULK, name: 'Lagoon shown', tags: ['lagoonidx'] });
  const hidden = await publish(app, owner.token, { ...HULK, name: 'Lagoon hidden', tags: ['lagoonidx'], isPublic: false, password: 'open-sesame' });
  const binned = await publish(app, owner.token, { ...HULK, name: 'Lagoon binned', tags: ['lagoonidx'] });
  await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: binned.uuid } });
  const [shownId, hiddenId, binnedId] = [await idOf(app, shown.uuid), await idOf(app, hidden.uuid), await idOf(app, binned.uuid)];
  assert.equal(await names('lagoonidx'), ['Lagoon shown']);
  assert.equal(await viaTrpc('lagoon'), ['Lagoon shown']);
  assert.equal(await indexedIds(app, 'lagoonidx'), [shownId], 'private and trashed are not in the index at all');
  assert.equal(await indexedIds(app, 'hidden'), [], 'a private name is not searchable text anywhere');

  // Made public, restored from the trash: findable.
  await app.trpc(owner.token).assembly.edit.mutate({ uuid: hidden.uuid, data: { isPublic: true } });
  await app.rest('POST', '/api/assembly/restore', { token: owner.token, body: { uuid: binned.uuid } });
  assert.equal(await names('lagoonidx'), ['Lagoon binned', 'Lagoon hidden', 'Lagoon shown']);
  assert.equal(await viaTrpc('lagoonidx'), ['Lagoon binned', 'Lagoon hidden', 'Lagoon shown']);
  assert.equal(await indexedIds(app, 'lagoonidx'), [shownId, hiddenId, binnedId]);

  // Renamed: the index follows (old words gone, new words in).
  await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: shown.uuid, data: { name: 'Atoll shown', tags: ['atollidx'] } } });
  assert.equal(await names('atollidx'), ['Atoll shown']);
  assert.equal(await indexedIds(app, 'atoll'), [shownId]);
  assert.equal(await indexedIds(app, 'lagoonidx'), [hiddenId, binnedId]);

  // Made private again, trashed: out of the index.
  await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: hidden.uuid, data: { isPublic: false } } });
  await app.trpc(owner.token).assembly.delete.mutate({ uuid: binned.uuid });
  assert.equal(await names('lagoonidx'), []);
  assert.equal(await viaTrpc('lagoonidx'), []);
  assert.equal(await indexedIds(app, 'lagoonidx'), []);
  // Editing a private one (name included) keeps it out.
  await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: hidden.uuid, data: { name: 'Lagoon hidden renamed' } } });
  assert.equal(await indexedIds(app, 'lagoonidx'), []);
  // Views and likes never touch the index (the update trigger fires on name, tags, is_public, deleted_at only).
  await app.rest('GET', `/api/assembly/item?uuid=${shown.uuid}`);
  assert.equal(await indexedIds(app, 'atollidx'), [shownId]);

  // Purged (trashed 30 days ago) and deleted outright (an account's cascade, say): gone for good.
  await app.trpc(owner.token).assembly.delete.mutate({ uuid: shown.uuid });
  app.clock.advance(30 * DAY + 1000);
  const job = JOBS.find((candidate) => candidate.name === 'assembly-trash-purge')!;
  const purged = (await job.run(app.database.db, app.app.deps)) as { uuids: string[] };
  assert.ok(purged.uuids.includes(shown.uuid) && purged.uuids.includes(binned.uuid));
  assert.equal(await indexedIds(app, 'atollidx'), []);
  assert.equal(await names('atollidx'), []);
  const later = await app.signUp(); // the owner's session has expired with the 30 days
  const doomed = await publish(app, later.token, { ...HULK, name: 'Lagoon doomed', tags: ['lagoonidx'] });
  assert.equal(await indexedIds(app, 'lagoonidx'), [await idOf(app, doomed.uuid)]);
  await app.database.db.delete(assemblies).where(eq(assemblies.uuid, doomed.uuid));
  assert.equal(await indexedIds(app, 'lagoonidx'), []);
  // What is left in the index is exactly the listable rows.
  const listable = await app.database.db.get<{ n: number }>(sql`select count(*) as n from assemblies where is_public = 1 and deleted_at is null`);
  const indexed = await app.database.db.get<{ n: number }>(sql`select count(*) as n from assemblies_fts_docsize`);
  assert.is(Number(indexed!.n), Number(listable!.n));
});

List(`keyword search pages through the newest ${MAX_SEARCH_RESULTS} matches; shipType filters before the cap`, async ({ app, owner }) => {
  // 1,205 matches written straight through drizzle in one transaction (the triggers index them):
  // the 3 oldest are the only medium hulls, the newest 1,000 also carry the tag capexact.
  const total = MAX_SEARCH_RESULTS + 205;
  const base = app.clock.now().getTime() - total * 1000;
  const row = (i: number) => ({
    uuid: randomUUID(),
    creatorId: owner.id,
    name: `Capped ${i}`,
    shipId: i < 3 ? 'brigantine' : 'hulk',
    weapons: '[]',
    furnitures: '[]',
    tags: JSON.stringify(i >= total - MAX_SEARCH_RESULTS ? ['capword', 'capexact'] : ['capword']),
    isPublic: true,
    // The oldest one would be the hottest of all by far, but it is not among the newest 1,000.
    likes: i === 0 ? 1_000_000 : i === 700 ? 500 : 0,
    createdAt: new Date(base + i * 1000),
    updatedAt: new Date(base + i * 1000),
  });
  await transaction(app.database.db, async (tx) => {
    for (let start = 0; start < total; start += 100) {
      await tx.insert(assemblies).values(Array.from({ length: Math.min(100, total - start) }, (_, k) => row(start + k)));
    }
  });
  await invalidateAssembly(app.app.deps.caches.lru);
  const list = async (query: string) => {
    const response = await app.rest('GET', `/api/assembly/list?keyword=capword&${query}`);
    assert.is(response.status, 200, response.text);
    return response.body.data;
  };
  const first = await list('pageSize=100');
  assert.equal(first.pagination, { page: 1, pageSize: 100, total: MAX_SEARCH_RESULTS, totalPages: 10 });
  assert.is(first.truncated, true);
  assert.is(first.items[0].name, `Capped ${total - 1}`, 'newest first');
  const last = await list('pageSize=100&page=10');
  assert.is(last.items.length, 100, 'the last page is full');
  assert.is(last.items[99].name, `Capped ${total - MAX_SEARCH_RESULTS}`, 'the oldest of the newest 1,000');
  const past = await list('pageSize=100&page=11');
  assert.equal(past.items, [], 'a page past the cap is empty, not an error');
  assert.equal(past.pagination, { page: 11, pageSize: 100, total: MAX_SEARCH_RESULTS, totalPages: 10 });
  assert.is(past.truncated, true);
  const partial = await app.trpc().assembly.list.query({ keyword: 'capword', pageSize: 30, page: 34 });
  assert.equal(partial.pagination, { page: 34, pageSize: 30, total: MAX_SEARCH_RESULTS, totalPages: 34 });
  assert.is(partial.items.length, 10, 'the page that straddles the cap stops at it');
  assert.is(partial.truncated, true);

  // Exactly the cap is not truncated.
  const exact = await app.trpc().assembly.list.query({ keyword: 'capexact', pageSize: 100 });
  assert.equal([exact.pagination.total, exact.truncated], [MAX_SEARCH_RESULTS, false]);

  // shipType applies before the cap: the only 3 medium hulls are older than the newest 1,000 matches.
  const medium = await list('shipType=medium');
  assert.equal(medium.items.map((item: { name: string }) => item.name), ['Capped 2', 'Capped 1', 'Capped 0']);
  assert.equal([medium.pagination.total, medium.truncated], [3, false]);
  const small = await app.trpc().assembly.list.query({ keyword: 'capword', shipType: 'small' });
  assert.equal([small.pagination.total, small.truncated, small.items[0]!.name], [MAX_SEARCH_RESULTS, true, `Capped ${total - 1}`]);

  // hottest and rating rank the newest 1,000 candidates only.
  const hottest = await list('sort=hottest&pageSize=5');
  assert.is(hottest.items[0].name, 'Capped 700');
  assert.not.ok(hottest.items.some((item: { name: string }) => item.name === 'Capped 0'));
  assert.equal([hottest.pagination.total, hottest.truncated], [MAX_SEARCH_RESULTS, true]);
  const rating = await list('sort=rating&page=200&pageSize=5');
  assert.equal([rating.items.length, rating.pagination.totalPages], [5, 200]);
  assert.equal((await list('sort=rating&page=201&pageSize=5')).items, []);

  // The field is documented in the OpenAPI document.
  const documented = JSON.stringify(((await app.rest('GET', '/api/openapi.json')).body as unknown as { paths: Record<string, unknown> }).paths['/assembly/list']);
  assert.match(documented, new RegExp(`"truncated":\\{"type":"boolean","description":"True when the keyword matched more than ${MAX_SEARCH_RESULTS} `));
});

List.run();

// ---------------------------------------------------------------------------------------------
const Votes = suite<{ app: TTestServer; owner: TUser; fan: TUser }>('like and rate');

Votes.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.fan = await context.app.signUp();
});
Votes.after(async ({ app }) => app.stop());

Votes('one like per user, idempotent, can be taken back', async ({ app, owner, fan }) => {
  const created = await publish(app, owner.token, HULK);
  const like = (body: Record<string, unknown>) => app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid: created.uuid, ...body } });
  assert.equal((await like({})).body.data, { uuid: created.uuid, liked: true, likes: 1 });
  assert.equal((await like({ like: true })).body.data.likes, 1);
  assert.equal((await like({ like: false })).body.data, { uuid: created.uuid, liked: false, likes: 0 });
  assert.equal((await app.trpc(fan.token).assembly.like.mutate({ uuid: created.uuid })).likes, 1);
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`)).body.data.likes, 1);
});

Votes('one rating per user, changeable, 1 to 5', async ({ app, owner, fan }) => {
  const created = await publish(app, owner.token, HULK);
  const rate = (score: unknown) => app.rest('POST', '/api/assembly/rate', { token: fan.token, body: { uuid: created.uuid, score } });
  assert.equal((await rate(5)).body.data, { uuid: created.uuid, yourScore: 5, rating: { average: 5, count: 1, smoothed: 3.33 } });
  // (2 + 15) / 6 = 2.83
  assert.equal((await rate(2)).body.data.rating, { average: 2, count: 1, smoothed: 2.83 });
  for (const bad of [0, 6, 2.5, 'five']) {
    const response = await rate(bad);
    assert.is(response.status, 400, String(bad));
    assert.match(response.body.message, /score/);
  }
  assert.is((await trpcError(app.trpc(fan.token).assembly.rate.mutate({ uuid: created.uuid, score: 9 }))).status, 400);
  assert.equal((await app.trpc(fan.token).assembly.rate.mutate({ uuid: created.uuid, score: 4 })).rating.average, 4);
});

Votes('401 without token, 403 on your own or an unreadable private one, 404 unknown', async ({ app, owner, fan }) => {
  const created = await publish(app, owner.token, HULK);
  const hidden = await publish(app, owner.token, { ...HULK, isPublic: false, password: 'open-sesame' });
  assert.is((await app.rest('POST', '/api/assembly/like', { body: { uuid: created.uuid } })).status, 401);
  assert.is((await app.rest('POST', '/api/assembly/rate', { body: { uuid: created.uuid, score: 3 } })).status, 401);
  assert.is((await trpcError(app.trpc().assembly.like.mutate({ uuid: created.uuid }))).status, 401);
  assert.is((await app.rest('POST', '/api/assembly/like', { token: owner.token, body: { uuid: created.uuid } })).status, 403);
  assert.is((await trpcError(app.trpc(owner.token).assembly.rate.mutate({ uuid: created.uuid, score: 5 }))).status, 403);
  assert.is((await app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid: hidden.uuid } })).status, 403);
  assert.is((await app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid: hidden.uuid, password: 'open-sesame' } })).status, 200);
  assert.is((await app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid: '00000000-0000-4000-8000-000000000000' } })).status, 404);
});

Votes.run();

// ---------------------------------------------------------------------------------------------
const Lifecycle = suite<{ app: TTestServer; owner: TUser; other: TUser }>('edit, delete, trash, restore, purge');

Lifecycle.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.other = await context.app.signUp();
});
Lifecycle.after(async ({ app }) => app.stop());

Lifecycle('full cycle by the creator over REST: publish, edit, delete, trash, restore', async ({ app, owner }) => {
  const created = await publish(app, owner.token, BRIGANTINE);
  app.clock.advance(1000);
  const edited = await app.rest('POST', '/api/assembly/edit', {
    token: owner.token,
    body: { uuid: created.uuid, data: { name: 'Renamed', armor: null, furnitures: ['firstAidStation'] } },
  });
  assert.is(edited.status, 200, edited.text);
  assert.is(edited.body.data.name, 'Renamed');
  assert.is(edited.body.data.armor, null);
  assert.equal(edited.body.data.furnitures, ['firstAidStation']);
  assert.equal(edited.body.data.weapons, BRIGANTINE.weapons, 'untouched fields stay');
  assert.equal(edited.body.data.tags, ['pvp', 'broadside']);
  assert.ok(edited.body.data.updatedAt > created.updatedAt);

  const deleted = await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: created.uuid } });
  assert.is(deleted.status, 200);
  assert.is(deleted.body.data.uuid, created.uuid);
  assert.is(Date.parse(deleted.body.data.purgeAt) - Date.parse(deleted.body.data.deletedAt), 30 * DAY);
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`)).status, 404);
  const listed = (await app.rest('GET', '/api/assembly/list')).body.data.items.map((item: { uuid: string }) => item.uuid);
  assert.not.ok(listed.includes(created.uuid));
  assert.is((await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: created.uuid } })).status, 404);
  assert.is((await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: created.uuid, data: { name: 'x' } } })).status, 404);

  const trash = await app.rest('GET', '/api/assembly/trash', { token: owner.token });
  assert.is(trash.status, 200);
  assert.equal(trash.body.data.pagination, { page: 1, pageSize: 20, total: 1, totalPages: 1 });
  assert.is(trash.body.data.items[0].uuid, created.uuid);
  assert.is(trash.body.data.items[0].name, 'Renamed');
  assert.is(trash.body.data.items[0].deletedAt, deleted.body.data.deletedAt);

  const restored = await app.rest('POST', '/api/assembly/restore', { token: owner.token, body: { uuid: created.uuid } });
  assert.is(restored.status, 200);
  assert.is(restored.body.data.name, 'Renamed');
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`)).status, 200);
  assert.is((await app.rest('GET', '/api/assembly/trash', { token: owner.token })).body.data.pagination.total, 0);
  const again = await app.rest('POST', '/api/assembly/restore', { token: owner.token, body: { uuid: created.uuid } });
  assert.is(again.status, 404);
  assert.match(again.body.message, /not in the trash/);
});

Lifecycle('full cycle over tRPC', async ({ app, owner }) => {
  const client = app.trpc(owner.token);
  const created = await client.assembly.publish.mutate(HULK);
  const edited = await client.assembly.edit.mutate({ uuid: created.uuid, data: { tags: ['edited'], isPublic: false, password: 'open-sesame' } });
  assert.equal([edited.tags, edited.isPublic, edited.hasPassword], [['edited'], false, true]);
  const public_ = await client.assembly.edit.mutate({ uuid: created.uuid, data: { isPublic: true } });
  assert.equal([public_.isPublic, public_.hasPassword], [true, false], 'a public assembly drops its password');
  const locked = await client.assembly.edit.mutate({ uuid: created.uuid, data: { isPublic: false, password: 'open-sesame' } });
  assert.is(locked.hasPassword, true);
  const unlocked = await client.assembly.edit.mutate({ uuid: created.uuid, data: { password: null } });
  assert.equal([unlocked.isPublic, unlocked.hasPassword], [false, false], 'password: null removes it');
  assert.is((await trpcError(client.assembly.edit.mutate({ uuid: created.uuid, data: { isPublic: true, password: 'x-pass' } }))).status, 400);
  await client.assembly.edit.mutate({ uuid: created.uuid, data: { isPublic: true } });
  await client.assembly.delete.mutate({ uuid: created.uuid });
  const trash = await client.assembly.listTrash.query({});
  assert.equal(trash.items.map((item) => item.uuid), [created.uuid]);
  const restored = await client.assembly.restore.mutate({ uuid: created.uuid });
  assert.is(restored.uuid, created.uuid);
});

Lifecycle('another user is refused: edit 403, delete 403, restore 404 (as for no such assembly), trash shows only your own', async ({ app, owner, other }) => {
  const created = await publish(app, owner.token, HULK);
  const edit = await app.rest('POST', '/api/assembly/edit', { token: other.token, body: { uuid: created.uuid, data: { name: 'Mine now' } } });
  assert.is(edit.status, 403);
  assert.match(edit.body.message, /creator/);
  assert.is((await app.rest('POST', '/api/assembly/delete', { token: other.token, body: { uuid: created.uuid } })).status, 403);
  assert.is((await trpcError(app.trpc(other.token).assembly.edit.mutate({ uuid: created.uuid, data: { name: 'x' } }))).status, 403);
  assert.is((await trpcError(app.trpc(other.token).assembly.delete.mutate({ uuid: created.uuid }))).status, 403);
  await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: created.uuid } });
  assert.is((await app.rest('POST', '/api/assembly/restore', { token: other.token, body: { uuid: created.uuid } })).status, 404);
  assert.is((await trpcError(app.trpc(other.token).assembly.restore.mutate({ uuid: created.uuid }))).status, 404);
  assert.is((await app.rest('GET', '/api/assembly/trash', { token: other.token })).body.data.pagination.total, 0);
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`)).status, 404);
  const stored = await app.database.db.select({ name: assemblies.name }).from(assemblies).where(eq(assemblies.uuid, created.uuid)).get();
  assert.is(stored!.name, 'Hulk brawler');
  await app.rest('POST', '/api/assembly/restore', { token: owner.token, body: { uuid: created.uuid } });
});

Lifecycle('401 without a token on every write and on trash, both surfaces', async ({ app, owner }) => {
  const created = await publish(app, owner.token, HULK);
  for (const [path, body] of [
    ['/api/assembly/edit', { uuid: created.uuid, data: { name: 'x' } }],
    ['/api/assembly/delete', { uuid: created.uuid }],
    ['/api/assembly/restore', { uuid: created.uuid }],
  ] as const) {
    assert.is((await app.rest('POST', path, { body })).status, 401, path);
  }
  assert.is((await app.rest('GET', '/api/assembly/trash')).status, 401);
  assert.is((await trpcError(app.trpc().assembly.listTrash.query({}))).status, 401);
  assert.is((await trpcError(app.trpc().assembly.restore.mutate({ uuid: created.uuid }))).status, 401);
  assert.is((await trpcError(app.trpc().assembly.edit.mutate({ uuid: created.uuid, data: { name: 'x' } }))).status, 401);
});

Lifecycle('edit is re-validated against the catalog and needs a non-empty data', async ({ app, owner }) => {
  const created = await publish(app, owner.token, { ...HULK, shipId: 'brigantine', weapons: [{ slot: 'auxiliaryWeapon', itemId: 'ballista1' }] });
  const smaller = await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: created.uuid, data: { shipId: 'hulk' } } });
  assert.is(smaller.status, 400);
  assert.match(smaller.body.message, /data\.weapons\[0\]\.slot/);
  const unknown = await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: created.uuid, data: { armor: 'nope' } } });
  assert.is(unknown.status, 400);
  assert.match(unknown.body.message, /data\.armor "nope"/);
  const empty = await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: created.uuid, data: {} } });
  assert.is(empty.status, 400);
  assert.match(empty.body.message, /data/);
  const extra = await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: created.uuid, data: { creatorId: 'x' } } });
  assert.is(extra.status, 400);
  assert.is((await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: created.uuid } })).status, 400);
  assert.is((await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: 'short', data: { name: 'x' } } })).status, 400);
  const stored = await app.database.db.select({ shipId: assemblies.shipId }).from(assemblies).where(eq(assemblies.uuid, created.uuid)).get();
  assert.is(stored!.shipId, 'brigantine', 'nothing half-written');
});

Lifecycle('trash is paginated, newest deletion first', async ({ app }) => {
  const user = await app.signUp();
  const uuids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const created = await publish(app, user.token, { ...HULK, name: `Trash ${i}` });
    app.clock.advance(1000);
    await app.rest('POST', '/api/assembly/delete', { token: user.token, body: { uuid: created.uuid } });
    uuids.push(created.uuid);
  }
  const page = (await app.rest('GET', '/api/assembly/trash?pageSize=2&page=1', { token: user.token })).body.data;
  assert.equal(page.pagination, { page: 1, pageSize: 2, total: 3, totalPages: 2 });
  assert.equal(page.items.map((item: { name: string }) => item.name), ['Trash 2', 'Trash 1']);
  assert.is((await app.rest('GET', '/api/assembly/trash?pageSize=101', { token: user.token })).status, 400);
});

Lifecycle('trash older than 30 days is purged by the periodic job; younger stays', async ({ app }) => {
  const user = await app.signUp();
  const fan = await app.signUp();
  const old = await publish(app, user.token, { ...HULK, name: 'Purge me' });
  await app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid: old.uuid } });
  await app.rest('POST', '/api/assembly/delete', { token: user.token, body: { uuid: old.uuid } });
  app.clock.advance(20 * DAY);
  const young = await publish(app, user.token, { ...HULK, name: 'Keep me' });
  await app.rest('POST', '/api/assembly/delete', { token: user.token, body: { uuid: young.uuid } });
  app.clock.advance(10 * DAY + 1000);
  const job = JOBS.find((candidate) => candidate.name === 'assembly-trash-purge')!;
  const result = (await job.run(app.database.db, app.app.deps)) as { purged: number; uuids: string[] };
  // Earlier tests of this suite trashed assemblies too (and the clock has moved 30 days): they go as well.
  assert.ok(result.uuids.includes(old.uuid));
  assert.not.ok(result.uuids.includes(young.uuid));
  assert.is(result.purged, result.uuids.length);
  const trash = (await app.rest('GET', '/api/assembly/trash', { token: user.token })).body.data.items;
  assert.equal(trash.map((item: { name: string }) => item.name), ['Keep me']);
  assert.is((await app.rest('POST', '/api/assembly/restore', { token: user.token, body: { uuid: old.uuid } })).status, 404);
  assert.is((await app.database.db.select().from(assemblies).where(eq(assemblies.uuid, old.uuid)).all()).length, 0);
});

Lifecycle.run();

// ---------------------------------------------------------------------------------------------
const Misc = suite('read cache module and demo data');

Misc('MemoryReadCache: get/set, invalidate by key and prefix, TTL, LRU bound', () => {
  let now = 0;
  const cache = new MemoryReadCache({ maxEntries: 3, ttlMs: 100, now: () => now });
  cache.set('a:1', 1);
  cache.set('a:2', 2);
  cache.set('b:1', 3);
  assert.is(cache.get('a:1'), 1);
  cache.invalidatePrefix('a:');
  assert.equal([cache.get('a:1'), cache.get('a:2'), cache.get('b:1')], [undefined, undefined, 3]);
  cache.invalidate('b:1');
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
    assert.equal(list.items.map((item: { name: string }) => item.name), ['Hulk brawler', 'Brigantine broadside']);
    const attr = (await app.rest('GET', `/api/assembly/attr?uuid=${list.items[1].uuid}`)).body.data;
    assert.equal(attr.problems, []);
    assert.ok(attr.damagePerSecond.total > 0);
  } finally {
    await app.stop();
  }
});

Misc.run();
