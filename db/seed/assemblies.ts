import { count, eq } from 'drizzle-orm';
import type { TDb } from '../client';
import { catalogHulls, users } from '../schema';
import { likeAssembly, publishAssembly, rateAssembly } from '../../server/services/assembly';
import { importCatalog } from '../../server/services/catalog';
import { MemoryReadCache } from '../../server/services/read-cache';
// Imported, not read from disk, so the production bundle carries them.
import demoItems from './catalog/items.json' with { type: 'json' };
import demoShips from './catalog/ships.json' with { type: 'json' };

/** Our own small catalog in the community format: enough for `npm start` with no import. */
export function readDemoCatalog(): { ships: unknown; items: unknown } {
  // Fresh copies: importers may not mutate the module's own objects.
  return { ships: structuredClone(demoShips) as unknown, items: structuredClone(demoItems) as unknown };
}

/** Imports the demo catalog when the catalog is empty. */
export async function seedDemoCatalog(db: TDb, now: Date): Promise<boolean> {
  const hulls = await db.select({ n: count() }).from(catalogHulls).get();
  if ((hulls?.n ?? 0) > 0) return false;
  await importCatalog(db, readDemoCatalog(), now);
  return true;
}

async function userId(db: TDb, username: string): Promise<string> {
  const row = await db.select({ id: users.id }).from(users).where(eq(users.usernameKey, username)).get();
  if (!row) throw new Error(`seed: demo user ${username} missing`);
  return row.id;
}

/** Demo catalog plus a few assemblies of the demo users, with likes and ratings so every sort shows something. */
export async function seedAssemblies(db: TDb, now: Date): Promise<void> {
  await seedDemoCatalog(db, now);
  const cache = new MemoryReadCache();
  const captain = await userId(db, 'captain');
  const deckhand = await userId(db, 'deckhand');
  const hour = 60 * 60 * 1000;
  const broadside = await publishAssembly(
    db,
    cache,
    captain,
    {
      name: 'Brigantine broadside',
      shipId: 'brigantine',
      weapons: [
        { slot: 'leftSideWeapon', itemId: 'culverin2' },
        { slot: 'rightSideWeapon', itemId: 'culverin2' },
        { slot: 'frontWeapon', itemId: 'longGun1' },
        { slot: 'aftWeapon', itemId: 'torpedo1' },
        { slot: 'auxiliaryWeapon', itemId: 'ballista1' },
      ],
      armor: 'bronzeBulwark1',
      furnitures: ['firstAidStation', 'culverinWorks1', 'maintenanceForge1'],
      description: 'Long-range pressure with culverins on both sides; the ballista finishes.',
      tags: ['pvp', 'culverin', 'long-range'],
    },
    new Date(now.getTime() - 48 * hour),
  );
  const hulk = await publishAssembly(
    db,
    cache,
    deckhand,
    {
      name: 'Hulk brawler',
      shipId: 'hulk',
      weapons: [
        { slot: 'leftSideWeapon', itemId: 'demicannon1' },
        { slot: 'rightSideWeapon', itemId: 'demicannon1' },
        { slot: 'frontWeapon', itemId: 'bombard1' },
        { slot: 'aftWeapon', itemId: 'seaFire1' },
      ],
      armor: 'ironHusk1',
      furnitures: ['maintenanceForge1'],
      description: 'Close in, brace, and burn.',
      tags: ['brawler', 'tank'],
    },
    new Date(now.getTime() - 6 * hour),
  );
  await publishAssembly(
    db,
    cache,
    deckhand,
    {
      name: 'Cutter rocket raider',
      shipId: 'cutter',
      weapons: [
        { slot: 'leftSideWeapon', itemId: 'rocket1' },
        { slot: 'rightSideWeapon', itemId: 'rocket1' },
        { slot: 'frontWeapon', itemId: 'culverin1' },
      ],
      furnitures: ['culverinWorks1'],
      tags: ['pve', 'merchant-raid'],
      isPublic: false,
      password: 'raider-pass',
    },
    new Date(now.getTime() - hour),
  );
  await likeAssembly(db, cache, deckhand, { uuid: broadside.uuid, like: true }, now);
  await rateAssembly(db, cache, deckhand, { uuid: broadside.uuid, score: 5 }, now);
  await likeAssembly(db, cache, captain, { uuid: hulk.uuid, like: true }, now);
  await rateAssembly(db, cache, captain, { uuid: hulk.uuid, score: 4 }, now);
}
