// What other domains may import from this one, besides its schemas.ts; the rest of the folder is its own
// (biome.json's noRestrictedImports keeps it so). A domain whose records are targets serves their
// comments at its own paths through these (issue 35: the smugglers' reports).
export { listComments } from './read';
export { commentCounts, commentTarget, ownComments, type TOwnComment } from './summaries';
export { createComment, deleteComment, editComment } from './write';
