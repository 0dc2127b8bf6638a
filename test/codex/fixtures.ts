// Shared set-up of the codex suites (issue 34): a test server holding the full community data set the
// repository carries (server/seed/community-data/), imported as `cli import-community-data` imports it.
import { importCommunityData } from '../../server/domains/codex';
import { readCommunityData } from '../../server/infra/packaged-files';
import type { TTestServer } from '../support/helpers';

/** Imports the whole carried data set (catalog, seasons, zones, companies, codex) into the server's database. */
export async function importCarriedData(app: TTestServer): Promise<void> {
  await importCommunityData({ db: app.database.db, now: app.clock.now }, { files: readCommunityData() });
}

/** One codex target of each page of the web client: the type and id it sends, and the type it is kept under. */
export const CODEX_TARGETS = [
  { targetType: 'ship', targetId: 'dhow', stored: 'ship' },
  { targetType: 'item', targetId: 'culverin1', stored: 'item' },
  { targetType: 'commoditie', targetId: 'cloves', stored: 'commoditie' },
  { targetType: 'cosmetic', targetId: 'crownedPrince', stored: 'cosmetic' },
  { targetType: 'mapLocation', targetId: 'laBastide', stored: 'mapLocation' },
  { targetType: 'material', targetId: 'silver', stored: 'material' },
  { targetType: 'mod', targetId: 'direPiercing', stored: 'mod' },
  { targetType: 'npc', targetId: 'smugglersNetwork', stored: 'npc' },
  { targetType: 'set', targetId: 'crownedPrince', stored: 'set' },
  { targetType: 'treasureMap', targetId: 'dragonsBack-old-1', stored: 'treasureMap' },
  { targetType: 'ultimate', targetId: 'hunter', stored: 'ultimate' },
  // The NPC page's like button sends item (npcs/Detail.vue:160); the map location page's comments treasureMap (mapLocations/Detail.vue:149).
  { targetType: 'item', targetId: 'cookery', stored: 'npc' },
  { targetType: 'treasureMap', targetId: 'laBastide', stored: 'mapLocation' },
] as const;
