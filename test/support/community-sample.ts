/** The community catalog sample (test/fixtures/community-sample), a valid loadout on one of its hulls, and importing it into a test server. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TTestServer } from './helpers';

// A copy of the community data set's sample (glow-prow-data, AGPL-3.0), kept in the repo so tests need nothing outside it.
export const SAMPLE_DIR = join(import.meta.dirname, '..', 'fixtures', 'community-sample');

/** The community catalog sample in its import format: `ships.json` and `items.json`, keyed by id. */
export const COMMUNITY_SAMPLE = {
  ships: JSON.parse(readFileSync(join(SAMPLE_DIR, 'ships.json'), 'utf8')) as Record<string, any>,
  items: JSON.parse(readFileSync(join(SAMPLE_DIR, 'items.json'), 'utf8')) as Record<string, any>,
};

/** A valid loadout on a hull of COMMUNITY_SAMPLE: two demi-cannons on a hulk. */
export const HULK = {
  name: 'Hulk brawler',
  shipId: 'hulk',
  weapons: [
    { slot: 'leftSideWeapon' as const, itemId: 'demicannon1' },
    { slot: 'rightSideWeapon' as const, itemId: 'demicannon1' },
  ],
};

/** Imports COMMUNITY_SAMPLE through the admin API and returns the import report. */
export async function importCommunitySample(app: TTestServer, admin: { token: string }): Promise<any> {
  const response = await app.rest('POST', '/api/admin/catalog/import', { token: admin.token, body: COMMUNITY_SAMPLE });
  if (response.status !== 200) throw new Error(`catalog import failed: ${response.text}`);
  return response.body.data;
}
