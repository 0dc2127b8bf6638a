// Catalog import: entries in the shapes the full community set uses (every hull, weapon type and
// non-equipment type), into a database of their own; their figures, slots and attributes read right.
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { catalogHulls, catalogItems } from '../../db/schema';
import { computeAttributes, resolveLoadout } from '../../server/domains/assembly/loadout';
import { importCatalog } from '../../server/domains/catalog/import';
import { startTestServer } from '../support/helpers';
import { suite } from '../support/suite';

const FullSet = suite("catalog import: the full set's shapes");

FullSet(
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

FullSet.run();
