// A loadout against the catalog: its hull and items, every rule it breaks, and its computed figures (GET /assembly/attr).
import type { TDb } from '../../../db/client';
import { AppError, type TIssue } from '../../errors';
import { loadHull, loadItems, sizeRank, WEAPON_SLOT_KINDS } from '../catalog';
import type { THullRecord, TItemRecord } from '../catalog/schemas';
import type { TLoadout } from './fields';
import type { TAttributes, TProblem, TWeaponFigures } from './schemas';

export interface TResolvedLoadout {
  hull: THullRecord | undefined;
  items: Map<string, TItemRecord>;
}

export async function resolveLoadout(db: TDb, loadout: TLoadout): Promise<TResolvedLoadout> {
  const ids = [...loadout.weapons.map((weapon) => weapon.itemId), ...loadout.furnitures];
  if (loadout.armor) ids.push(loadout.armor);
  const [hull, items] = await Promise.all([loadHull({ db }, { id: loadout.shipId }), loadItems({ db }, { ids })]);
  return { hull, items };
}

function tooSmall(hull: THullRecord, item: TItemRecord): boolean {
  return item.requiredSize !== null && sizeRank(hull.size) < sizeRank(item.requiredSize);
}

/**
 * Every way the loadout breaks the catalog's rules. Publish and edit refuse a loadout with any;
 * attr reports them, since a re-imported catalog can invalidate a loadout that was valid when saved.
 */
export function loadoutProblems(loadout: TLoadout, { hull, items }: TResolvedLoadout): TProblem[] {
  const problems: TProblem[] = [];
  if (!hull) problems.push({ code: 'unknownHull', path: 'shipId', message: `unknown hull "${loadout.shipId}"` });

  const perSlot = new Map<string, number>();
  loadout.weapons.forEach((weapon, index) => {
    const path = `weapons[${index}]`;
    const item = items.get(weapon.itemId);
    if (!item)
      problems.push({ code: 'unknownItem', path: `${path}.itemId`, message: `unknown item "${weapon.itemId}"` });
    else if (item.category !== 'weapon') {
      problems.push({
        code: 'wrongItemType',
        path: `${path}.itemId`,
        message: `"${weapon.itemId}" is a ${item.type}, not a weapon`,
      });
    }
    if (!hull) return;
    const slot = hull.slots[weapon.slot];
    if (!(WEAPON_SLOT_KINDS as readonly string[]).includes(weapon.slot)) {
      problems.push({
        code: 'unknownSlot',
        path: `${path}.slot`,
        message: `"${weapon.slot}" is not a weapon slot kind`,
      });
      return;
    }
    if (!slot) {
      problems.push({
        code: 'unknownSlot',
        path: `${path}.slot`,
        message: `hull "${hull.id}" has no "${weapon.slot}" weapon slot`,
      });
      return;
    }
    perSlot.set(weapon.slot, (perSlot.get(weapon.slot) ?? 0) + 1);
    if (item && tooSmall(hull, item)) {
      problems.push({
        code: 'hullTooSmall',
        path: `${path}.itemId`,
        message: `"${item.id}" needs a ${item.requiredSize} hull; "${hull.id}" is ${hull.size ?? 'of unknown size'}`,
      });
    }
  });
  if (hull) {
    for (const [kind, used] of perSlot) {
      const allowed = hull.slots[kind]?.count ?? 0;
      if (used > allowed) {
        problems.push({
          code: 'slotOverfilled',
          path: 'weapons',
          message: `${used} weapons in "${kind}"; hull "${hull.id}" has ${allowed}`,
        });
      }
    }
  }

  if (loadout.armor !== null) {
    const item = items.get(loadout.armor);
    if (!item) problems.push({ code: 'unknownItem', path: 'armor', message: `unknown item "${loadout.armor}"` });
    else if (item.category !== 'armor')
      problems.push({ code: 'wrongItemType', path: 'armor', message: `"${item.id}" is a ${item.type}, not armor` });
    else if (hull && tooSmall(hull, item)) {
      problems.push({
        code: 'hullTooSmall',
        path: 'armor',
        message: `"${item.id}" needs a ${item.requiredSize} hull; "${hull.id}" is ${hull.size ?? 'of unknown size'}`,
      });
    }
  }

  loadout.furnitures.forEach((itemId, index) => {
    const path = `furnitures[${index}]`;
    const item = items.get(itemId);
    if (!item) problems.push({ code: 'unknownItem', path, message: `unknown item "${itemId}"` });
    else if (item.category !== 'furniture')
      problems.push({ code: 'wrongItemType', path, message: `"${itemId}" is a ${item.type}, not furniture` });
    else if (hull && tooSmall(hull, item)) {
      problems.push({
        code: 'hullTooSmall',
        path,
        message: `"${itemId}" needs a ${item.requiredSize} hull; "${hull.id}" is ${hull.size ?? 'of unknown size'}`,
      });
    }
  });
  if (hull && loadout.furnitures.length > 0) {
    const allowed = hull.slots.furniture?.count ?? 0;
    if (loadout.furnitures.length > allowed) {
      problems.push({
        code: 'slotOverfilled',
        path: 'furnitures',
        message: `${loadout.furnitures.length} furnitures; hull "${hull.id}" has ${allowed} furniture slots`,
      });
    }
  }
  return problems;
}

/** Publish and edit: a 400 naming every unknown id first, else every slot rule broken. */
export async function assertValidLoadout(db: TDb, loadout: TLoadout, pathPrefix = ''): Promise<TResolvedLoadout> {
  const resolved = await resolveLoadout(db, loadout);
  const problems = loadoutProblems(loadout, resolved);
  if (problems.length === 0) return resolved;
  const issues: TIssue[] = problems.map((problem) => ({ path: pathPrefix + problem.path, message: problem.message }));
  const unknown = problems.filter((problem) => problem.code === 'unknownHull' || problem.code === 'unknownItem');
  const message =
    unknown.length > 0
      ? `Unknown catalog ids: ${unknown.map((problem) => `${pathPrefix}${problem.path} ${problem.message.replace(/^unknown (hull|item) /, '')}`).join(', ')}`
      : `Loadout does not fit the hull: ${problems.map((problem) => `${pathPrefix}${problem.path}: ${problem.message}`).join('; ')}`;
  throw new AppError('BAD_REQUEST', message, { issues });
}

const round2 = (value: number) => Math.round(value * 100) / 100;

const SIDE_OF: Record<string, 'front' | 'left' | 'right' | 'aft'> = {
  frontWeapon: 'front',
  leftSideWeapon: 'left',
  rightSideWeapon: 'right',
  aftWeapon: 'aft',
};

/**
 * The figures of GET /assembly/attr (formulas in docs/assemblies.md). Unknown items and slots are
 * left out of the sums and listed in `problems`.
 */
export function computeAttributes(loadout: TLoadout, resolved: TResolvedLoadout): TAttributes {
  const { hull, items } = resolved;
  const dps = { front: 0, left: 0, right: 0, aft: 0, auxiliary: 0, total: 0 };
  let weight = 0;
  let gearScore = 0;
  const ranges: number[] = [];
  const perks: TAttributes['perks'] = [];
  if (hull) for (const perk of hull.perks) perks.push({ perk, source: 'hull', itemId: hull.id });

  const weapons: TWeaponFigures[] = [];
  for (const entry of loadout.weapons) {
    const item = items.get(entry.itemId);
    const slot = hull?.slots[entry.slot];
    if (item?.category !== 'weapon' || !slot) continue;
    const reloadMs = item.reloadSpeedMs ?? 0;
    const reloadSeconds = reloadMs > 0 ? reloadMs / 1000 : null;
    const perMount = reloadSeconds ? ((item.damagePerShot ?? 0) * (item.projectilesPerShot ?? 1)) / reloadSeconds : 0;
    const slotDps = perMount * slot.gunPorts;
    dps[SIDE_OF[entry.slot] ?? 'auxiliary'] += slotDps;
    dps.total += slotDps;
    weight += (item.weight ?? 0) * slot.gunPorts;
    gearScore += item.gearScore ?? 0;
    if (item.optimalRange !== null) ranges.push(item.optimalRange);
    for (const perk of item.perks) perks.push({ perk, source: 'weapon', itemId: item.id });
    weapons.push({
      slot: entry.slot,
      itemId: item.id,
      type: item.type,
      gunPorts: slot.gunPorts,
      damagePerShot: item.damagePerShot,
      projectilesPerShot: item.projectilesPerShot,
      reloadSeconds,
      damagePerSecond: round2(perMount),
      slotDamagePerSecond: round2(slotDps),
      optimalRange: item.optimalRange,
    });
  }

  let armor: TAttributes['armor'] = null;
  const armorItem = loadout.armor ? items.get(loadout.armor) : undefined;
  if (armorItem && armorItem.category === 'armor') {
    armor = { itemId: armorItem.id, armor: armorItem.armor, damageMitigation: armorItem.damageMitigation ?? {} };
    weight += armorItem.weight ?? 0;
    gearScore += armorItem.gearScore ?? 0;
    for (const perk of armorItem.perks) perks.push({ perk, source: 'armor', itemId: armorItem.id });
  }

  for (const itemId of loadout.furnitures) {
    const item = items.get(itemId);
    if (item?.category !== 'furniture') continue;
    weight += item.weight ?? 0;
    gearScore += item.gearScore ?? 0;
    for (const perk of item.perks) perks.push({ perk, source: 'furniture', itemId: item.id });
  }

  return {
    hull: hull
      ? {
          id: hull.id,
          size: hull.size,
          archetype: hull.archetype,
          hitpoints: hull.hitpoints,
          braceStrength: hull.braceStrength,
          sailSpeed: { halfSail: hull.halfSail, fullSail: hull.fullSail, travelSail: hull.travelSail },
          cargo: { cargoSlots: hull.cargoSlots, cargoMaxWeight: hull.cargoMaxWeight },
        }
      : null,
    armor,
    weapons,
    damagePerSecond: {
      front: round2(dps.front),
      left: round2(dps.left),
      right: round2(dps.right),
      aft: round2(dps.aft),
      auxiliary: round2(dps.auxiliary),
      total: round2(dps.total),
    },
    optimalRange: ranges.length ? { min: Math.min(...ranges), max: Math.max(...ranges) } : null,
    weight: round2(weight),
    gearScore: round2(gearScore),
    perks,
    problems: loadoutProblems(loadout, resolved),
  };
}
