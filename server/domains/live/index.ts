// What other domains and the doors may import from this one, besides its schemas.ts.
export { liveRefusal } from './refusal';
export { announceDropChanges, announceWarSnapshot } from './watchers';
