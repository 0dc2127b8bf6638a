// What other domains may import from this one, besides its schemas.ts; the rest of the folder is its own
// (biome.json's noRestrictedImports keeps it so).
export {
  COMPANY_FILES,
  importCommunityCompaniesIn,
  importCommunitySeasonsIn,
  importCommunityZonesIn,
  type TWritten,
  ZONE_FILES,
} from './community';
export { upsertWarReference } from './reference';
export { thinWarSnapshots } from './retention';
export { nameFromKey, resolveSeason, type TSeasonRow, toSeason } from './seasons';
export { recordSnapshots } from './snapshots';
export { latestState } from './state';
