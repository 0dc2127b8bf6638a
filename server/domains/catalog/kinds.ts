/** Kinds of the game catalog: weapon and furniture item types, hull sizes, weapon slot kinds, and how an item type maps to a category. */
export const WEAPON_TYPES = [
  'culverin',
  'longGun',
  'demicannon',
  'bombard',
  'torpedo',
  'ballista',
  'seaFire',
  'mortar',
  'rocket',
  'springloader',
] as const;
export const FURNITURE_TYPES = ['majorFurniture', 'offensiveFurniture', 'utilityFurniture'] as const;
export const HULL_SIZES = ['extraSmall', 'small', 'medium', 'large'] as const;
export const ITEM_CATEGORIES = ['weapon', 'armor', 'furniture', 'other'] as const;

/**
 * Slot kinds of the community format that take an entry of `weapons`. Furniture has its own list;
 * `attachement` and `ultimate` slots hold things items.json does not describe, so no item fits them.
 */
export const WEAPON_SLOT_KINDS = [
  'frontWeapon',
  'leftSideWeapon',
  'rightSideWeapon',
  'aftWeapon',
  'auxiliaryWeapon',
] as const;
export type TWeaponSlotKind = (typeof WEAPON_SLOT_KINDS)[number];

export function categoryOf(type: string): (typeof ITEM_CATEGORIES)[number] {
  if ((WEAPON_TYPES as readonly string[]).includes(type)) return 'weapon';
  if (type === 'armor') return 'armor';
  if ((FURNITURE_TYPES as readonly string[]).includes(type)) return 'furniture';
  return 'other';
}

/** Rank of a hull size, for `requiredSize` checks; unknown sizes rank lowest. */
export function sizeRank(size: string | null | undefined): number {
  return size ? (HULL_SIZES as readonly string[]).indexOf(size) : -1;
}
