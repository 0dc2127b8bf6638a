import * as assert from 'uvu/assert';
import type { TTestServer } from '../support/helpers';

/** Two points of a collection: one with a description and a tag, one at the edge of the map with a uuid of its own. */
export const POINTS = [
  { title: 'Sainte-Anne', description: 'den', latitude: -12.35, longitude: 49.29, tags: ['den'] },
  { uuid: '6f1c1b8e-9a55-4a55-8a3b-2f4a1f0e9d11', title: 'Edge of the world', latitude: 90, longitude: -180 },
];

/** Creates a collection over REST, asserting a 200, and answers its data. */
export async function createVia(app: TTestServer, token: string, body: Record<string, unknown>) {
  const response = await app.rest('POST', '/api/map/collection', { token, body });
  assert.is(response.status, 200, response.text);
  return response.body.data;
}
