// What other domains may import from this one, besides its schemas.ts; the rest of the folder is its own
// (biome.json's noRestrictedImports keeps it so).
export { announceExpiredTeamUps, purgeExpiredTeamUps } from './expiry';
export { cancelTeamUp, publishTeamUp, type TPublisher } from './board';
