// What other domains may import from this one, besides its schemas.ts; the rest of the folder is its own
// (biome.json's noRestrictedImports keeps it so). Only what the target table reads: nothing here may
// import the comment mechanism, which imports the target table.
export { assertMayCommentOnReport, findReportTarget, REPORT_TARGET_ID } from './target';
