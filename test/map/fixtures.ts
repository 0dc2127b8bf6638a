import * as assert from 'uvu/assert';
import type { TTestServer } from '../support/helpers';
import { serverSuite, type TServerConfig } from '../support/server-suite';

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

/** A suite on a test server (with `config` over the defaults) with two accounts, alice and bob. */
function twoUserSuite(name: string, config: TServerConfig = {}) {
  return serverSuite<{ alice: TUser; bob: TUser }>(name, {
    config,
    setUp: async (context) => {
      context.alice = await context.app.signUp();
      context.bob = await context.app.signUp();
    },
  });
}

/** A suite of the map collections' tests: a test server with two accounts, alice and bob. */
export function collectionsSuite(name: string) {
  return twoUserSuite(name);
}

/** A suite of the map points' tests: alice and bob on a test server whose tRPC batches carry up to 20 calls (the races). */
export function pointsSuite(name: string) {
  return twoUserSuite(name, { TRPC_MAX_BATCH_SIZE: 20 });
}

/** A uuid no row has. */
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Asserts a 200 and answers the response's data. */
export async function ok(response: { status: number; text: string; body: any }) {
  assert.is(response.status, 200, response.text);
  return response.body.data;
}

/** A POST map/point body as the web client sends it, with `extra` fields over it. */
export const point = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  description: '',
  latitude: 0.62,
  longitude: -0.66,
  address: '',
  tags: [],
  public: false,
  sharedUsers: [],
  ...extra,
});
