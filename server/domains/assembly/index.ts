// What other domains may import from this one, besides its schemas.ts; the rest of the folder is its own
// (biome.json's noRestrictedImports keeps it so).
export { assertReadable, passwordGuesses, type TPasswordGuesses } from './access';
export type { TAssemblyCaches } from './item';
export { clientOf } from './queries';
export {
  listLikedAssemblies,
  listOwnAssemblies,
  listSpaceAssemblies,
  type TUserAssemblyPage,
} from './user-lists';
