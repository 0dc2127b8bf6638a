// Which file of the community data set feeds which codex kind, and the files the import reads but
// does not write (issue 34; the whole table is in docs/community-data.md).
import type { TCodexKind } from './schemas';

/**
 * The files of each codex kind, in the order read. An entry's id is its `id` field, else its key:
 * what the web client sends (glow-prow-data's entity classes take `rawData.id || key`; its Npc takes
 * `rawData.id`, which several npcs.json entries share: one codex entry for all of them).
 */
export const CODEX_FILES: Record<TCodexKind, readonly string[]> = {
  ship: ['ships.json'],
  // The ammunition of items_ammunition.json is items too (the client's codex lists type=ammunition under items).
  item: ['items.json', 'items_ammunition.json'],
  commoditie: ['commodities.json'],
  cosmetic: ['cosmetics.json'],
  mapLocation: ['mapLocations.json'],
  material: ['materials.json'],
  mod: ['modifications.json'],
  npc: ['npcs.json'],
  set: ['sets.json'],
  treasureMap: ['treasureMaps.json'],
  ultimate: ['ultimates.json'],
};

/** Files read (their entries counted) but not written, each with the reason the summary gives. */
export const UNWRITTEN_FILES: Record<string, string> = {
  'events.json':
    'no dates: a calendar event needs its start and end (calendar imports bring them; the demo seed places these in their seasons)',
  'contracts.json': 'not a codex page of the web client: nothing comments on or likes a contract',
  'empireSkills.json': 'not a codex page of the web client: nothing comments on or likes an empire skill',
  'worldEvents.json': 'not a codex page of the web client: nothing comments on or likes a world event',
};
