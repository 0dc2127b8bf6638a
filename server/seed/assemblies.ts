import { count, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { assemblies, catalogHulls } from '../../db/schema';
import { publishAssembly } from '../domains/assembly/lifecycle';
import type { TAssemblyDraft } from '../domains/assembly/schemas';
import { likeAssembly, rateAssembly } from '../domains/assembly/votes';
import { loadoutProblems, resolveLoadout } from '../domains/assembly/loadout';
import type { TLoadout } from '../domains/assembly/fields';
import { importCatalog } from '../domains/catalog/import';
import { CacheScope, scopePrefix } from '../infra/cache';
import { MemoryReadCache } from '../infra/cache/read-cache';
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
  await importCatalog({ db, now: () => now }, { files: readDemoCatalog() });
  return true;
}

/** The demo's private assembly password, given in docs/setup.md so the password rule can be tried. */
export const DEMO_ASSEMBLY_PASSWORD = 'raider-pass';

type TDemoAssembly = TAssemblyDraft & { creator: 'captain' | 'deckhand'; hoursAgo: number };

const DEMO_ASSEMBLIES: TDemoAssembly[] = [
  {
    creator: 'captain',
    hoursAgo: 48,
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
  {
    creator: 'deckhand',
    hoursAgo: 6,
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
  {
    creator: 'deckhand',
    hoursAgo: 1,
    name: 'Cutter rocket raider',
    shipId: 'cutter',
    weapons: [
      { slot: 'leftSideWeapon', itemId: 'rocket1' },
      { slot: 'rightSideWeapon', itemId: 'rocket1' },
      { slot: 'frontWeapon', itemId: 'culverin1' },
    ],
    furnitures: ['culverinWorks1'],
    tags: ['pve', 'merchant-raid'],
    // Private with a password; the hash is made before the seed's transaction (hashing is slow I/O).
    isPublic: false,
  },
];

/**
 * Demo catalog (when the catalog is empty) plus a few assemblies of the demo users, with likes and
 * ratings so every sort shows something. A catalog imported before the first start (the community
 * data set) may lack the demo's hulls or items: those assemblies are skipped, and returned with why.
 */
export async function seedAssemblies(
  db: TDb,
  now: Date,
  accounts: { captain: string; deckhand: string; assemblyPasswordHash: string },
): Promise<string[]> {
  await seedDemoCatalog(db, now);
  // A cache of its own: no reader has seen these assemblies, so the invalidations have nothing to drop.
  const lru = new MemoryReadCache();
  const deps = {
    db,
    now: () => now,
    caches: { item: new CacheScope(lru, scopePrefix('item')), list: new CacheScope(lru, scopePrefix('list')) },
  };
  const hour = 60 * 60 * 1000;
  const skipped: string[] = [];
  const published = new Map<string, string>();
  for (const { creator, hoursAgo, ...draft } of DEMO_ASSEMBLIES) {
    const loadout: TLoadout = {
      shipId: draft.shipId,
      weapons: draft.weapons,
      armor: draft.armor ?? null,
      furnitures: draft.furnitures ?? [],
    };
    const problems = loadoutProblems(loadout, await resolveLoadout(db, loadout));
    if (problems.length > 0) {
      skipped.push(`${draft.name} (${problems.map((problem) => problem.message).join(', ')})`);
      continue;
    }
    const view = await publishAssembly(
      { ...deps, now: () => new Date(now.getTime() - hoursAgo * hour) },
      { creatorId: accounts[creator], draft },
    );
    if (draft.isPublic === false) {
      await db
        .update(assemblies)
        .set({ passwordHash: accounts.assemblyPasswordHash })
        .where(eq(assemblies.uuid, view.uuid));
    }
    published.set(draft.name, view.uuid);
  }
  const broadside = published.get('Brigantine broadside');
  const hulk = published.get('Hulk brawler');
  if (broadside) {
    await likeAssembly(deps, { userId: accounts.deckhand, uuid: broadside, like: true });
    await rateAssembly(deps, { userId: accounts.deckhand, uuid: broadside, score: 5 });
  }
  if (hulk) {
    await likeAssembly(deps, { userId: accounts.captain, uuid: hulk, like: true });
    await rateAssembly(deps, { userId: accounts.captain, uuid: hulk, score: 4 });
  }
  return skipped;
}
