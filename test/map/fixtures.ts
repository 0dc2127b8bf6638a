import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { suite } from '../support/suite';

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

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

/** A suite of the map collections' tests: a test server with two accounts, alice and bob. */
export function collectionsSuite(name: string) {
  const collections = suite<{ app: TTestServer; alice: TUser; bob: TUser }>(name);
  collections.before(async (context) => {
    context.app = await startTestServer();
    context.alice = await context.app.signUp();
    context.bob = await context.app.signUp();
  });
  collections.after(async (context) => {
    await context.app.stop();
  });
  return collections;
}
