// What other domains may import from this one, besides its schemas.ts; the rest of the folder is its own
// (biome.json's noRestrictedImports keeps it so).
export { importCatalog } from './import';
export { sizeRank, type TWeaponSlotKind, WEAPON_SLOT_KINDS } from './kinds';
export { loadHull, loadItems } from './reads';
