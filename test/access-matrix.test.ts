/**
 * The access matrix, generated from the OpenAPI document: every endpoint marked with a token is called
 * with no token, a forged token and an expired token (401), admin endpoints with a user token (403),
 * owner-scoped endpoints with someone else's token (403/404) and the owner's (2xx); public endpoints
 * answer without a token. An endpoint the tables below do not classify fails the test, so a new
 * endpoint cannot ship without its access rule being stated here.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sessions } from '../db/schema';
import { readDemoCatalog } from '../db/seed/assemblies';
import { DEMO_SUBSCRIPTION_CATALOG } from '../db/seed/subscription';
import { setRole } from '../server/services/account';
import { generateSessionToken, sessionIdFromToken } from '../server/services/session';
import { startTestServer, type TRestResponse, type TTestServer } from './helpers';
import { documentOperations, type TDocumentOperation } from './openapi-operations';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
type TOperation = TDocumentOperation;
interface TCall {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}
/** What another user gets, and what the owner gets, for one owned resource. */
interface TOwnedCase extends TCall {
  stranger: number[];
  owner: number[];
  anonymous?: number[];
}

const PLACEHOLDER_UUID = '00000000-0000-4000-8000-000000000000';

/** Endpoints that act only on the caller's own data: another user's token simply sees its own. */
const SELF_SCOPED = new Set([
  'GET /user/me',
  'POST /user/password',
  'POST /user/signout',
  'GET /map/collections',
  'POST /map/collection',
  'GET /subscription/my-status',
  'GET /subscription/my-orders',
  'POST /subscription/orders/create',
  'GET /subscription/hall-visibility',
  'POST /subscription/hall-visibility',
  'GET /assembly/trash',
  'POST /assembly/publish',
]);

interface TFixtures {
  owner: TUser;
  stranger: TUser;
  admin: TUser;
  privateCollection: string;
  order: string;
  privateAssembly: string;
  trashedAssembly: string;
}

/** Owner-scoped endpoints: each names the resource it is tried on and the answers expected. */
function ownedCases(f: TFixtures): Record<string, TOwnedCase> {
  return {
    'GET /map/collection/{uuid}': { path: { uuid: f.privateCollection }, stranger: [404], owner: [200], anonymous: [404] },
    'PUT /map/collection/{uuid}': { path: { uuid: f.privateCollection }, body: { title: 'renamed' }, stranger: [404], owner: [200] },
    'DELETE /map/collection/{uuid}': { path: { uuid: f.privateCollection }, stranger: [404], owner: [200] },
    'POST /subscription/orders/{orderId}/cancel': { path: { orderId: f.order }, stranger: [404], owner: [200] },
    'GET /assembly/item': { query: { uuid: f.privateAssembly }, stranger: [403], owner: [200], anonymous: [403] },
    'GET /assembly/attr': { query: { uuid: f.privateAssembly }, stranger: [403], owner: [200], anonymous: [403] },
    'POST /assembly/edit': { body: { uuid: f.privateAssembly, data: { name: 'renamed' } }, stranger: [403], owner: [200] },
    'POST /assembly/like': { body: { uuid: f.privateAssembly, like: true }, stranger: [403], owner: [400, 403] },
    'POST /assembly/rate': { body: { uuid: f.privateAssembly, score: 4 }, stranger: [403], owner: [400, 403] },
    'POST /assembly/restore': { body: { uuid: f.trashedAssembly }, stranger: [403, 404], owner: [200] },
    'POST /assembly/delete': { body: { uuid: f.privateAssembly }, stranger: [403], owner: [200] },
  };
}

/** Public endpoints whose normal answer without any credential is not 2xx (they need some other proof). */
const PUBLIC_WITH_OWN_PROOF: Record<string, number[]> = {
  // The webhook authenticates the provider by an HMAC signature instead of a token.
  'POST /subscription/webhook/{payType}': [400, 401, 404],
};

function keyOf(operation: TOperation): string {
  return operation.key;
}

async function call(app: TTestServer, operation: TOperation, token: string | undefined, input: TCall = {}): Promise<TRestResponse> {
  let path = operation.path;
  for (const name of operation.pathParams) {
    path = path.replace(`{${name}}`, encodeURIComponent(input.path?.[name] ?? PLACEHOLDER_UUID));
  }
  const query = input.query ? `?${new URLSearchParams(input.query)}` : '';
  const hasBody = !['GET', 'DELETE'].includes(operation.method);
  return app.rest(operation.method, `/api${path}${query}`, { token, body: hasBody ? (input.body ?? {}) : undefined });
}

const Matrix = suite<{ app: TTestServer; operations: TOperation[]; fixtures: TFixtures; expiredToken: string }>(
  'access matrix generated from the OpenAPI document',
);

Matrix.before(async (context) => {
  const app = await startTestServer();
  context.app = app;
  context.operations = documentOperations((await app.rest('GET', '/api/openapi.json')).body);

  const owner = await app.signUp();
  const stranger = await app.signUp();
  const admin = await app.signUp();
  await setRole(app.database.db, admin.username, 'admin');
  const catalog = await app.rest('POST', '/api/admin/catalog/import', { token: admin.token, body: readDemoCatalog() as Record<string, unknown> });
  assert.is(catalog.status, 200, catalog.text);

  const plansImport = await app.rest('POST', '/api/admin/subscription/import', { token: admin.token, body: DEMO_SUBSCRIPTION_CATALOG as unknown as Record<string, unknown> });
  assert.is(plansImport.status, 200, plansImport.text);
  const collection = await app.rest('POST', '/api/map/collection', { token: owner.token, body: { title: 'Secret coves', isPublic: false } });
  const plans = await app.rest('GET', '/api/subscription/plans');
  const tierId = plans.body.data.plans?.[0]?.tiers?.[0]?.tierId ?? plans.body.data.tiers?.[0]?.tierId;
  const payType = plans.body.data.payTypes?.[0]?.payType ?? plans.body.data.payTypes?.[0]?.id ?? 'manual';
  const order = await app.rest('POST', '/api/subscription/orders/create', { token: owner.token, body: { tierId, payType } });
  assert.is(order.status, 200, order.text);
  const loadout = { name: 'Hidden broadside', shipId: 'cutter', weapons: [{ slot: 'frontWeapon', itemId: 'culverin1' }], isPublic: false };
  const privateAssembly = await app.rest('POST', '/api/assembly/publish', { token: owner.token, body: loadout });
  assert.is(privateAssembly.status, 200, privateAssembly.text);
  const trashed = await app.rest('POST', '/api/assembly/publish', { token: owner.token, body: { ...loadout, name: 'Binned' } });
  assert.is((await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: trashed.body.data.uuid } })).status, 200);

  context.fixtures = {
    owner,
    stranger,
    admin,
    privateCollection: collection.body.data.uuid,
    order: order.body.data.orderId,
    privateAssembly: privateAssembly.body.data.uuid,
    trashedAssembly: trashed.body.data.uuid,
  };

  // An expired session of a real account, written as the service would have written it a month ago.
  context.expiredToken = generateSessionToken();
  const longAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
  await app.database.db.insert(sessions).values({
    id: sessionIdFromToken(context.expiredToken),
    userId: owner.id,
    expiresAt: new Date(longAgo.getTime() + 1000),
    createdAt: longAgo,
  });
});
Matrix.after(async (context) => {
  await context.app.stop();
});

Matrix('the document lists the contract paths with their auth requirement', ({ operations }) => {
  const keys = new Set(operations.map(keyOf));
  for (const expected of [
    'GET /assembly/list', 'GET /assembly/item', 'POST /assembly/publish', 'POST /assembly/edit', 'POST /assembly/delete',
    'GET /assembly/attr', 'GET /assembly/trash', 'POST /assembly/restore',
    'GET /map/collections', 'GET /map/collection/{uuid}', 'POST /map/collection', 'PUT /map/collection/{uuid}', 'DELETE /map/collection/{uuid}',
    'GET /subscription/plans', 'GET /subscription/progress', 'GET /subscription/hall', 'GET /subscription/my-status',
    'GET /subscription/my-orders', 'POST /subscription/orders/create', 'POST /subscription/orders/{orderId}/cancel',
    'POST /user/signin', 'POST /user/signup', 'GET /user/me', 'GET /user/info', 'GET /captcha',
  ]) {
    assert.ok(keys.has(expected), `${expected} documented`);
  }
  const secured = new Set(operations.filter((op) => op.secured).map(keyOf));
  for (const token of ['GET /user/me', 'POST /assembly/publish', 'GET /map/collections', 'POST /subscription/orders/create']) {
    assert.ok(secured.has(token), `${token} marked as needing a token`);
  }
  for (const open of ['GET /assembly/list', 'GET /user/info', 'GET /captcha', 'POST /user/signin']) {
    assert.not.ok(secured.has(open), `${open} marked public`);
  }
});

Matrix('every token endpoint: no token, forged token, expired token are 401 on REST', async ({ app, operations, expiredToken }) => {
  let checked = 0;
  for (const operation of operations.filter((op) => op.secured)) {
    for (const [label, token] of [
      ['no token', undefined],
      ['forged token', 'forgedtokenforgedtokenforgedtoke'],
      ['expired token', expiredToken],
    ] as const) {
      const response = await call(app, operation, token);
      assert.is(response.status, 401, `${keyOf(operation)} with ${label}: ${response.text}`);
      assert.is(response.body.code, 401);
      checked++;
    }
  }
  assert.ok(checked >= 3 * 20, `checked ${checked}`);
  console.log(`      access matrix: ${operations.filter((op) => op.secured).length} token endpoints x 3 bad credentials = ${checked} calls refused with 401`);
});

Matrix('every admin endpoint refuses a signed-in non-admin with 403', async ({ app, operations, fixtures }) => {
  const admins = operations.filter((op) => op.path.startsWith('/admin/'));
  assert.ok(admins.length >= 3);
  for (const operation of admins) {
    assert.ok(operation.secured, `${keyOf(operation)} marked as needing a token`);
    const response = await call(app, operation, fixtures.stranger.token);
    assert.is(response.status, 403, `${keyOf(operation)}: ${response.text}`);
  }
});

Matrix('every public endpoint answers without a token', async ({ app, operations, fixtures }) => {
  const owned = ownedCases(fixtures);
  for (const operation of operations.filter((op) => !op.secured)) {
    const key = keyOf(operation);
    if (owned[key]) continue; // checked with its resource below
    const response = await call(app, operation, undefined);
    const allowed = PUBLIC_WITH_OWN_PROOF[key];
    if (allowed) assert.ok(allowed.includes(response.status), `${key}: ${response.status}`);
    else assert.ok(response.status !== 401 && response.status !== 403 && response.status < 500, `${key}: ${response.status} ${response.text}`);
  }
});

Matrix('every token endpoint is classified: self-scoped, admin, or owner-scoped with a case', ({ operations, fixtures }) => {
  const owned = ownedCases(fixtures);
  const unclassified = operations
    .filter((op) => op.secured && !op.path.startsWith('/admin/'))
    .map(keyOf)
    .filter((key) => !SELF_SCOPED.has(key) && !owned[key]);
  assert.equal(unclassified, [], 'state the access rule of these endpoints in test/access-matrix.test.ts');
});

Matrix("owner-scoped endpoints: someone else's token is refused, the owner's works (REST)", async ({ app, operations, fixtures }) => {
  const owned = ownedCases(fixtures);
  const byKey = new Map(operations.map((op) => [keyOf(op), op]));
  // Destructive cases last, in this order, so each finds its resource.
  const order = Object.keys(owned).sort((a, b) => Number(/DELETE|delete/.test(a)) - Number(/DELETE|delete/.test(b)));
  for (const key of order) {
    const operation = byKey.get(key);
    assert.ok(operation, `${key} is in the document`);
    const testCase = owned[key]!;
    const strangerResponse = await call(app, operation!, fixtures.stranger.token, testCase);
    assert.ok(testCase.stranger.includes(strangerResponse.status), `${key} as a stranger: ${strangerResponse.status} ${strangerResponse.text}`);
    if (testCase.anonymous) {
      const anonymous = await call(app, operation!, undefined, testCase);
      assert.ok(testCase.anonymous.includes(anonymous.status), `${key} anonymously: ${anonymous.status}`);
    }
    const ownerResponse = await call(app, operation!, fixtures.owner.token, testCase);
    assert.ok(testCase.owner.includes(ownerResponse.status), `${key} as the owner: ${ownerResponse.status} ${ownerResponse.text}`);
  }
});

Matrix("self-scoped reads never show another user's resources", async ({ app, operations, fixtures }) => {
  const secrets = [fixtures.privateCollection, fixtures.order, fixtures.privateAssembly, fixtures.trashedAssembly, fixtures.owner.username];
  for (const operation of operations.filter((op) => op.method === 'GET' && SELF_SCOPED.has(keyOf(op)))) {
    const response = await call(app, operation, fixtures.stranger.token);
    assert.is(response.status, 200, keyOf(operation));
    for (const secret of secrets) assert.not.ok(response.text.includes(secret), `${keyOf(operation)} leaks ${secret}`);
  }
});

Matrix('native tRPC gives the same answers: 401 without a token, 403 for a non-admin, 404 for a stranger', async ({ app, fixtures }) => {
  const anonymous = app.trpc();
  const stranger = app.trpc(fixtures.stranger.token);
  const expectStatus = async (promise: Promise<unknown>, status: number, label: string) => {
    try {
      await promise;
      assert.unreachable(`${label} succeeded`);
    } catch (error) {
      assert.is((error as { data?: { httpStatus?: number } }).data?.httpStatus, status, label);
    }
  };
  await expectStatus(anonymous.user.me.query({}), 401, 'me');
  await expectStatus(anonymous.map.listOwn.query({}), 401, 'map list');
  await expectStatus(app.trpc('forged').assembly.listTrash.query({}), 401, 'trash with a forged token');
  await expectStatus(stranger.admin.subscription.expireOrders.mutate({}), 403, 'admin as a user');
  await expectStatus(stranger.map.get.query({ uuid: fixtures.privateCollection }), 404, 'private collection');
  const fresh = await app.trpc(fixtures.owner.token).assembly.publish.mutate({
    name: 'Another hidden one',
    shipId: 'cutter',
    weapons: [{ slot: 'frontWeapon', itemId: 'culverin1' }],
    isPublic: false,
  });
  await expectStatus(stranger.assembly.edit.mutate({ uuid: fresh.uuid, data: { name: 'x' } }), 403, 'edit');
  await expectStatus(stranger.assembly.getItem.query({ uuid: fresh.uuid }), 403, 'private item');
});

Matrix.run();
