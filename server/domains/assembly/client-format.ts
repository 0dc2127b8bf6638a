// The community web client's form of an assembly (GlowProw/website, issue 18) and its mapping to ours:
// its loadout (`shipSlot`, `weaponSlots` + `weaponDirections`, `secondaryWeaponSlots`, `armorSlot`,
// `displaySlots`) to `shipId`, `weapons[{slot, itemId}]`, `armor`, `furnitures` and back, its
// visibility words, and the extras it stores beside the loadout. Pure functions: schemas.ts's input
// transforms and queries.ts's mappers call them.
import type { TWeaponSlotKind } from '../catalog';
import type { TLoadout } from './fields';

/** The client's `assembly.visibility`: `publicly` is isPublic true, `private` false. */
export const VISIBILITIES = ['publicly', 'private'] as const;
export type TVisibility = (typeof VISIBILITIES)[number];

/** A slot of the client's loadout: the catalog id of what is in it, or null when empty. */
export type TSlotRef = { id: string | null } | null;

/** The client's loadout (`assembly.data`), the keys Tidewatch reads; the others are kept verbatim. */
export interface TClientLoadout {
  shipSlot: { id: string };
  weaponSlots?: TSlotRef[];
  weaponDirections?: (TWeaponSlotKind | null)[];
  secondaryWeaponSlots?: TSlotRef[];
  armorSlot?: TSlotRef;
  displaySlots?: TSlotRef[];
  [key: string]: unknown;
}

export type TLoadoutProblem = { path: (string | number)[]; message: string };

function ids(slots: TSlotRef[] | undefined): string[] {
  return (slots ?? []).flatMap((slot) => (slot?.id ? [slot.id] : []));
}

/**
 * Our loadout from the client's: `weaponSlots[i]` goes in the slot kind `weaponDirections[i]`,
 * `secondaryWeaponSlots` in `auxiliaryWeapon`, `displaySlots` are the furniture; empty slots are
 * skipped. A weapon without a direction cannot be placed: a problem at its path.
 */
export function loadoutFromClient(data: TClientLoadout): { loadout: TLoadout; problems: TLoadoutProblem[] } {
  const problems: TLoadoutProblem[] = [];
  const weapons: TLoadout['weapons'] = [];
  (data.weaponSlots ?? []).forEach((slot, i) => {
    if (!slot?.id) return;
    const direction = data.weaponDirections?.[i];
    if (!direction)
      problems.push({ path: ['weaponDirections', i], message: `is required: weaponSlots[${i}] holds ${slot.id}` });
    else weapons.push({ slot: direction, itemId: slot.id });
  });
  for (const itemId of ids(data.secondaryWeaponSlots)) weapons.push({ slot: 'auxiliaryWeapon', itemId });
  return {
    loadout: {
      shipId: data.shipSlot.id,
      weapons,
      armor: data.armorSlot?.id ?? null,
      furnitures: ids(data.displaySlots),
    },
    problems,
  };
}

/** The client's form of one of our loadouts (for assemblies published in the contract's form). */
export function clientDataOf(loadout: TLoadout): Record<string, unknown> {
  const main = loadout.weapons.filter((weapon) => weapon.slot !== 'auxiliaryWeapon');
  return {
    shipSlot: { id: loadout.shipId },
    weaponSlots: main.map((weapon) => ({ id: weapon.itemId })),
    weaponDirections: main.map((weapon) => weapon.slot),
    secondaryWeaponSlots: loadout.weapons
      .filter((weapon) => weapon.slot === 'auxiliaryWeapon')
      .map((weapon) => ({ id: weapon.itemId })),
    armorSlot: loadout.armor ? { id: loadout.armor } : null,
    displaySlots: loadout.furnitures.map((id) => ({ id })),
  };
}
