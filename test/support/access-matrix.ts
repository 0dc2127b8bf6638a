import * as assert from 'uvu/assert';
import type { TTestServer } from './helpers';
import type { TDocumentOperation } from './openapi-operations';
import type { TLink, TrpcSurface } from './surface-trpc';
import { restCall, type TAnswer, type TCase } from './surfaces';

export type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
export type TOperation = TDocumentOperation;
/** What another user gets, and what the owner gets, for one owned resource. */
export interface TOwnedCase extends TCase {
  stranger: number[];
  owner: number[];
  anonymous?: number[];
  /** How the two surfaces' successful data compare, when not equal (a write answering a new random id: by shape). */
  data?: 'shape';
}

export const PLACEHOLDER_UUID = '00000000-0000-4000-8000-000000000000';

/** Endpoints that act only on the caller's own data: another user's token simply sees its own. */
export const SELF_SCOPED = new Set([
  'GET /user/me',
  'POST /user/password',
  'POST /user/signout',
  // Issue 19, profiles: edits take no user id (they change the caller's own profile), own lists.
  'POST /user/me',
  'PUT /user/changeAlternativeName',
  'PUT /user/changePassword',
  'PUT /user/avatar',
  'DELETE /user/avatar',
  'GET /user/me/assemblys',
  'GET /user/likes',
  'GET /map/collections',
  'POST /map/collection',
  // Issue 19, map points: a new point is the caller's; the lists are the caller's own points.
  'POST /map/point',
  'GET /map/user/points',
  'GET /map/user/orphan-points',
  'GET /subscription/my-status',
  'GET /subscription/my-orders',
  'POST /subscription/orders/create',
  'GET /subscription/hall-visibility',
  'POST /subscription/hall-visibility',
  'GET /assembly/trash',
  'GET /user/comments',
  'POST /assembly/publish',
  // Issue 36: the caller's own team-ups.
  'GET /user/me/teamups',
]);

/** The owner's resources the owner-scoped cases are tried on. */
export interface TOwned {
  privateCollection: string;
  order: string;
  privateAssembly: string;
  trashedAssembly: string;
  /** The owner's private orphan map point. */
  privatePoint: string;
  /** The owner's comment on its private assembly. */
  comment: string;
  /** The owner's team-up (issue 36). */
  teamUp: string;
}

export interface TFixtures extends TOwned {
  owner: TUser;
  stranger: TUser;
  admin: TUser;
  /** A second set, alike, for the tRPC twins of the cases that change or delete their resource. */
  twin: TOwned;
}

/** Owner-scoped endpoints: each names the resource it is tried on and the answers expected. */
export function ownedCases(f: TOwned): Record<string, TOwnedCase> {
  return {
    'GET /map/collection/{uuid}': {
      path: { uuid: f.privateCollection },
      stranger: [404],
      owner: [200],
      anonymous: [404],
    },
    'PUT /map/collection/{uuid}': {
      path: { uuid: f.privateCollection },
      body: { title: 'renamed' },
      stranger: [404],
      owner: [200],
    },
    // Map points (issue 19): the private point is an orphan until the POST moves it into the private collection.
    'GET /map/point/{uuid}': { path: { uuid: f.privatePoint }, stranger: [404], owner: [200], anonymous: [404] },
    'PUT /map/point/{uuid}': {
      path: { uuid: f.privatePoint },
      body: { title: 'renamed' },
      stranger: [404],
      owner: [200],
    },
    'GET /map/collections/{uuid}/points': {
      path: { uuid: f.privateCollection },
      stranger: [404],
      owner: [200],
      anonymous: [404],
    },
    'POST /map/collection/{uuid}/points': {
      path: { uuid: f.privateCollection },
      body: { pointUuids: [f.privatePoint] },
      stranger: [404],
      owner: [200],
    },
    'DELETE /map/collection/{uuid}/points': {
      path: { uuid: f.privateCollection },
      body: { pointUuids: [f.privatePoint] },
      stranger: [404],
      owner: [200],
    },
    'DELETE /map/point/{uuid}': { path: { uuid: f.privatePoint }, stranger: [404], owner: [200] },
    'DELETE /map/collection/{uuid}': { path: { uuid: f.privateCollection }, stranger: [404], owner: [200] },
    'POST /subscription/orders/{orderId}/cancel': { path: { orderId: f.order }, stranger: [404], owner: [200] },
    'GET /assembly/item': { query: { uuid: f.privateAssembly }, stranger: [403], owner: [200], anonymous: [403] },
    'GET /assembly/attr': { query: { uuid: f.privateAssembly }, stranger: [403], owner: [200], anonymous: [403] },
    'POST /assembly/edit': {
      body: { uuid: f.privateAssembly, data: { name: 'renamed' } },
      stranger: [403],
      owner: [200],
    },
    'POST /assembly/like': { body: { uuid: f.privateAssembly, like: true }, stranger: [403], owner: [400, 403] },
    'POST /assembly/rate': { body: { uuid: f.privateAssembly, score: 4 }, stranger: [403], owner: [400, 403] },
    'POST /assembly/attr/edit': {
      body: { uuid: f.privateAssembly, assembly: { attr: { isLike: false } } },
      stranger: [403],
      owner: [200],
    },
    'GET /likes/check': {
      query: { targetType: 'assembly', targetId: f.privateAssembly },
      stranger: [403],
      owner: [200],
    },
    'GET /likes/count': {
      query: { targetType: 'assembly', targetId: f.privateAssembly },
      stranger: [403],
      owner: [200],
      anonymous: [403],
    },
    'POST /likes/toggle': {
      body: { targetType: 'assembly', targetId: f.privateAssembly },
      stranger: [403],
      owner: [403],
    },
    'POST /assembly/restore': { body: { uuid: f.trashedAssembly }, stranger: [403, 404], owner: [200] },
    // A private assembly without a password: only its creator may fork it (a fork answers a new uuid: compared by shape).
    'POST /assembly/fork': { body: { uuid: f.privateAssembly }, stranger: [403], owner: [200], data: 'shape' },
    'GET /comment/comments': {
      query: { targetType: 'assembly', targetId: f.privateAssembly },
      stranger: [403],
      owner: [200],
      anonymous: [403],
    },
    'POST /comment': {
      body: { targetType: 'assembly', targetId: f.privateAssembly, content: 'matrix' },
      stranger: [403],
      owner: [200],
      data: 'shape',
    },
    'POST /comment/edit': { body: { id: f.comment, content: 'edited' }, stranger: [403], owner: [200] },
    'POST /comment/delete': { body: { id: f.comment }, stranger: [403], owner: [200] },
    'POST /assembly/delete': { body: { uuid: f.privateAssembly }, stranger: [403], owner: [200] },
    'POST /teamup/cancel': { body: { id: f.teamUp }, stranger: [403], owner: [200] },
  };
}

/** Public endpoints whose normal answer without any credential is not 2xx (they need some other proof). */
export const PUBLIC_WITH_OWN_PROOF: Record<string, number[]> = {
  // The webhook authenticates the provider by an HMAC signature instead of a token.
  'POST /subscription/webhook/{payType}': [400, 401, 404],
};

export function keyOf(operation: TOperation): string {
  return operation.key;
}

export function call(
  app: TTestServer,
  operation: TOperation,
  token: string | undefined,
  input: TCase = {},
): Promise<TAnswer> {
  return restCall(app, operation, token, input, PLACEHOLDER_UUID);
}

/** The tRPC twins of `cases`, started together: through httpBatchLink they go out in batches (by procedure type, at most TRPC_MAX_BATCH_SIZE each). */
export function callTwins(
  trpc: TrpcSurface,
  cases: { operation: TOperation; token: string | undefined; input?: TCase }[],
  link: TLink,
): Promise<TAnswer[]> {
  return Promise.all(
    cases.map(({ operation, token, input }) => trpc.call(operation, token, input ?? {}, PLACEHOLDER_UUID, link)),
  );
}

/** Replaces in an answer's data the ids of `from` by those of `to`, and every timestamp by one marker. */
export function sameResources(from: TOwned, to: TOwned): (data: unknown) => unknown {
  const ids = new Map(Object.keys(from).map((name) => [from[name as keyof TOwned], to[name as keyof TOwned]]));
  const map = (value: unknown): unknown => {
    if (typeof value === 'string')
      return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(value) ? '<timestamp>' : (ids.get(value) ?? value);
    if (Array.isArray(value)) return value.map(map);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, map(inner)]));
    return value;
  };
  return map;
}

/** A message naming a resource of `from` (`Assembly <uuid> is not in the trash`) as it would name its counterpart in `to`. */
export function sameResourcesInText(from: TOwned, to: TOwned): (message: string | undefined) => string | undefined {
  const pairs = Object.keys(from).map(
    (name) => [String(from[name as keyof TOwned]), String(to[name as keyof TOwned])] as const,
  );
  return (message) =>
    message === undefined
      ? undefined
      : pairs.reduce((text, [twin, original]) => text.replaceAll(twin, original), message);
}

/** Publishes the owner's private collection, pending order, private assembly and trashed assembly. */
export async function createOwned(
  app: TTestServer,
  owner: TUser,
  order: { tierId: string; payType: string },
): Promise<TOwned> {
  const collection = await app.rest('POST', '/api/map/collection', {
    token: owner.token,
    body: { title: 'Secret coves', isPublic: false },
  });
  assert.is(collection.status, 200, collection.text);
  const point = await app.rest('POST', '/api/map/point', {
    token: owner.token,
    body: { title: 'Secret cove', latitude: 0.6, longitude: -0.6 },
  });
  assert.is(point.status, 200, point.text);
  const created = await app.rest('POST', '/api/subscription/orders/create', { token: owner.token, body: order });
  assert.is(created.status, 200, created.text);
  const loadout = {
    name: 'Hidden broadside',
    shipId: 'cutter',
    weapons: [{ slot: 'frontWeapon', itemId: 'culverin1' }],
    isPublic: false,
  };
  const privateAssembly = await app.rest('POST', '/api/assembly/publish', { token: owner.token, body: loadout });
  assert.is(privateAssembly.status, 200, privateAssembly.text);
  const trashed = await app.rest('POST', '/api/assembly/publish', {
    token: owner.token,
    body: { ...loadout, name: 'Binned' },
  });
  assert.is(
    (await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: trashed.body.data.uuid } }))
      .status,
    200,
  );
  const comment = await app.rest('POST', '/api/comment', {
    token: owner.token,
    body: { targetType: 'assembly', targetId: privateAssembly.body.data.uuid, content: 'Owner only' },
  });
  assert.is(comment.status, 200, comment.text);
  const teamUp = await app.rest('POST', '/api/teamup/publish', {
    token: owner.token,
    body: { player: 'Owner#1', description: 'Owner only cancels', expiresMinutesAt: 60 },
  });
  assert.is(teamUp.status, 200, teamUp.text);
  return {
    privateCollection: collection.body.data.uuid,
    order: created.body.data.orderId,
    privateAssembly: privateAssembly.body.data.uuid,
    trashedAssembly: trashed.body.data.uuid,
    privatePoint: point.body.data.uuid,
    comment: comment.body.data.id,
    teamUp: teamUp.body.data.id,
  };
}
