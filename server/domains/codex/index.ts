// What other domains may import from this one, besides its schemas.ts; the rest of the folder is its own
// (biome.json's noRestrictedImports keeps it so).
export { importCommunityData } from './community-data';
export { findCodexEntry } from './entries';
export { formatCommunityImport } from './report';
