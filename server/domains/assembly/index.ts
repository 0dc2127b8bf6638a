// What other domains may import from this one, besides its schemas.ts; the rest of the folder is its own
// (biome.json's noRestrictedImports keeps it so).
export { assertReadable, passwordGuesses, type TPasswordGuesses } from './access';
export type { TAssemblyCaches } from './item';
export { clientOf } from './queries';
export { checkTargetId, targetFields, ZTargetType } from './target-schemas';
export { findTarget, isTargetType, TARGET_TYPES, type TTarget, type TTargetType, targetEntry } from './targets';
export { listLikes, listOwnAssemblies, listSpaceAssemblies, type TUserAssemblyPage } from './user-lists';
