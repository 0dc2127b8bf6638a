/**
 * The access matrix, generated from the OpenAPI document and run on both surfaces: every endpoint
 * marked with a token is called with no token, a forged token and an expired token (401), admin
 * endpoints with a user token (403), owner-scoped endpoints with someone else's token (403/404) and the
 * owner's (2xx); public endpoints answer without a token. Each case goes to REST and to its procedure
 * on native tRPC (test/support/surfaces.ts), which must answer alike: status, code, message, data. An endpoint
 * the tables below do not classify fails the test, so a new endpoint cannot ship without its access
 * rule being stated here.
 */
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { sessions } from '../../db/schema';
import { readDemoCatalog } from '../../server/seed/assemblies';
import { DEMO_SUBSCRIPTION_CATALOG } from '../../server/seed/subscription';
import { setRole } from '../../server/domains/user/account';
import { generateSessionToken, sessionIdFromToken } from '../../server/domains/user/session';
import { startTestServer, type TTestServer } from '../support/helpers';
import { documentOperations, type TDocumentOperation } from '../support/openapi-operations';
import { PRIVILEGE_MATRIX_KEYS } from '../support/privilege-matrix';
import {
  differences,
  Findings,
  procedureOf,
  restCall,
  TrpcSurface,
  VOLATILE_DATA,
  type TAnswer,
  type TCase,
  type TLink,
} from '../support/surfaces';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
type TOperation = TDocumentOperation;
/** What another user gets, and what the owner gets, for one owned resource. */
interface TOwnedCase extends TCase {
  stranger: number[];
  owner: number[];
  anonymous?: number[];
  /** How the two surfaces' successful data compare, when not equal (a write answering a new random id: by shape). */
  data?: 'shape';
}

const PLACEHOLDER_UUID = '00000000-0000-4000-8000-000000000000';

/** Endpoints that act only on the caller's own data: another user's token simply sees its own. */
const SELF_SCOPED = new Set([
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
interface TOwned {
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

interface TFixtures extends TOwned {
  owner: TUser;
  stranger: TUser;
  admin: TUser;
  /** A second set, alike, for the tRPC twins of the cases that change or delete their resource. */
  twin: TOwned;
}

/** Owner-scoped endpoints: each names the resource it is tried on and the answers expected. */
function ownedCases(f: TOwned): Record<string, TOwnedCase> {
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
const PUBLIC_WITH_OWN_PROOF: Record<string, number[]> = {
  // The webhook authenticates the provider by an HMAC signature instead of a token.
  'POST /subscription/webhook/{payType}': [400, 401, 404],
};

function keyOf(operation: TOperation): string {
  return operation.key;
}

function call(app: TTestServer, operation: TOperation, token: string | undefined, input: TCase = {}): Promise<TAnswer> {
  return restCall(app, operation, token, input, PLACEHOLDER_UUID);
}

/** The tRPC twins of `cases`, started together: through httpBatchLink they go out in batches (by procedure type, at most TRPC_MAX_BATCH_SIZE each). */
function callTwins(
  trpc: TrpcSurface,
  cases: { operation: TOperation; token: string | undefined; input?: TCase }[],
  link: TLink,
): Promise<TAnswer[]> {
  return Promise.all(
    cases.map(({ operation, token, input }) => trpc.call(operation, token, input ?? {}, PLACEHOLDER_UUID, link)),
  );
}

/** Replaces in an answer's data the ids of `from` by those of `to`, and every timestamp by one marker. */
function sameResources(from: TOwned, to: TOwned): (data: unknown) => unknown {
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
function sameResourcesInText(from: TOwned, to: TOwned): (message: string | undefined) => string | undefined {
  const pairs = Object.keys(from).map(
    (name) => [String(from[name as keyof TOwned]), String(to[name as keyof TOwned])] as const,
  );
  return (message) =>
    message === undefined
      ? undefined
      : pairs.reduce((text, [twin, original]) => text.replaceAll(twin, original), message);
}

/** Publishes the owner's private collection, pending order, private assembly and trashed assembly. */
async function createOwned(
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

const Matrix = suite<{
  app: TTestServer;
  trpc: TrpcSurface;
  operations: TOperation[];
  fixtures: TFixtures;
  expiredToken: string;
}>('access matrix generated from the OpenAPI document, on REST and native tRPC');

Matrix.before(async (context) => {
  const app = await startTestServer();
  context.app = app;
  context.trpc = new TrpcSurface(app);
  context.operations = documentOperations((await app.rest('GET', '/api/openapi.json')).body);

  const owner = await app.signUp();
  const stranger = await app.signUp();
  const admin = await app.signUp();
  await setRole({ db: app.database.db }, { username: admin.username, role: 'admin' });
  const catalog = await app.rest('POST', '/api/admin/catalog/import', {
    token: admin.token,
    body: readDemoCatalog() as Record<string, unknown>,
  });
  assert.is(catalog.status, 200, catalog.text);

  const plansImport = await app.rest('POST', '/api/admin/subscription/import', {
    token: admin.token,
    body: DEMO_SUBSCRIPTION_CATALOG as unknown as Record<string, unknown>,
  });
  assert.is(plansImport.status, 200, plansImport.text);
  const plans = await app.rest('GET', '/api/subscription/plans');
  const tierId = plans.body.data.plans?.[0]?.tiers?.[0]?.tierId ?? plans.body.data.tiers?.[0]?.tierId;
  const payType = plans.body.data.payTypes?.[0]?.payType ?? plans.body.data.payTypes?.[0]?.id ?? 'manual';
  context.fixtures = {
    owner,
    stranger,
    admin,
    ...(await createOwned(app, owner, { tierId, payType })),
    twin: await createOwned(app, owner, { tierId, payType }),
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
Matrix.after(async ({ app, trpc }) => {
  console.log(`      access matrix on tRPC: ${trpc.calls} calls in ${trpc.requests} HTTP requests`);
  await app.stop();
});

Matrix('the document lists the contract paths with their auth requirement', ({ operations }) => {
  const keys = new Set(operations.map(keyOf));
  for (const expected of [
    'GET /assembly/list',
    'GET /assembly/item',
    'POST /assembly/publish',
    'POST /assembly/edit',
    'POST /assembly/delete',
    'GET /assembly/attr',
    'GET /assembly/trash',
    'POST /assembly/restore',
    'GET /map/collections',
    'GET /map/collection/{uuid}',
    'POST /map/collection',
    'PUT /map/collection/{uuid}',
    'DELETE /map/collection/{uuid}',
    'GET /subscription/plans',
    'GET /subscription/progress',
    'GET /subscription/hall',
    'GET /subscription/my-status',
    'GET /subscription/my-orders',
    'POST /subscription/orders/create',
    'POST /subscription/orders/{orderId}/cancel',
    'POST /user/signin',
    'POST /user/signup',
    'GET /user/me',
    'GET /user/info',
    'GET /captcha',
  ]) {
    assert.ok(keys.has(expected), `${expected} documented`);
  }
  const secured = new Set(operations.filter((op) => op.secured).map(keyOf));
  for (const token of [
    'GET /user/me',
    'POST /assembly/publish',
    'GET /map/collections',
    'POST /subscription/orders/create',
  ]) {
    assert.ok(secured.has(token), `${token} marked as needing a token`);
  }
  for (const open of ['GET /assembly/list', 'GET /user/info', 'GET /captcha', 'POST /user/signin']) {
    assert.not.ok(secured.has(open), `${open} marked public`);
  }
});

Matrix(
  'every token endpoint: no token, forged token, expired token are 401 on REST and on tRPC (batched)',
  async ({ app, trpc, operations, expiredToken }) => {
    const findings = new Findings();
    const secured = operations.filter((op) => op.secured);
    let checked = 0;
    for (const [label, token] of [
      ['no token', undefined],
      ['forged token', 'forgedtokenforgedtokenforgedtoke'],
      ['expired token', expiredToken],
    ] as const) {
      // A front end's calls of one moment: every token endpoint at once, in batches (httpBatchLink).
      const twins = await callTwins(
        trpc,
        secured.map((operation) => ({ operation, token })),
        'httpBatchLink',
      );
      for (const [index, operation] of secured.entries()) {
        const response = await call(app, operation, token);
        const where = `${keyOf(operation)} with ${label}`;
        findings.expect(
          response.status === 401 && response.code === 401 && !response.malformed,
          `${where} on REST`,
          `${response.status} ${response.text}`,
        );
        findings.expect(
          twins[index]!.status === 401,
          `${where} on tRPC`,
          `${twins[index]!.status} ${twins[index]!.text}`,
        );
        findings.add(`${where}, tRPC vs REST`, differences(response, twins[index]!));
        checked++;
      }
    }
    findings.assertNone();
    assert.ok(checked >= 3 * 20, `checked ${checked}`);
    console.log(
      `      access matrix: ${secured.length} token endpoints x 3 bad credentials = ${checked} cases refused with 401 on each surface`,
    );
  },
);

Matrix(
  'every admin endpoint refuses a signed-in non-admin with 403 on REST and on tRPC (batched)',
  async ({ app, trpc, operations, fixtures }) => {
    const findings = new Findings();
    const admins = operations.filter((op) => op.path.startsWith('/admin/'));
    assert.ok(admins.length >= 3);
    const twins = await callTwins(
      trpc,
      admins.map((operation) => ({ operation, token: fixtures.stranger.token })),
      'httpBatchLink',
    );
    for (const [index, operation] of admins.entries()) {
      assert.ok(operation.secured, `${keyOf(operation)} marked as needing a token`);
      const response = await call(app, operation, fixtures.stranger.token);
      findings.expect(response.status === 403, `${keyOf(operation)} on REST`, `${response.status} ${response.text}`);
      findings.expect(
        twins[index]!.status === 403,
        `${keyOf(operation)} on tRPC`,
        `${twins[index]!.status} ${twins[index]!.text}`,
      );
      findings.add(`${keyOf(operation)}, tRPC vs REST`, differences(response, twins[index]!));
    }
    findings.assertNone();
  },
);

Matrix(
  'every public endpoint answers without a token, alike on REST and on tRPC (batched)',
  async ({ app, trpc, operations, fixtures }) => {
    const findings = new Findings();
    const owned = ownedCases(fixtures);
    // Owner-scoped ones are checked with their resource below.
    const publics = operations.filter((op) => !op.secured && !owned[keyOf(op)]);
    const twins = await callTwins(
      trpc,
      publics.map((operation) => ({ operation, token: undefined })),
      'httpBatchLink',
    );
    for (const [index, operation] of publics.entries()) {
      const key = keyOf(operation);
      const response = await call(app, operation, undefined);
      const allowed = PUBLIC_WITH_OWN_PROOF[key];
      if (allowed)
        findings.expect(allowed.includes(response.status!), `${key} on REST`, `${response.status} ${response.text}`);
      else
        findings.expect(
          response.status !== 401 && response.status !== 403 && response.status! < 500,
          `${key} on REST`,
          `${response.status} ${response.text}`,
        );
      findings.add(
        `${key}, tRPC vs REST`,
        differences(response, twins[index]!, { data: VOLATILE_DATA.has(key) ? 'shape' : 'equal' }),
      );
    }
    findings.assertNone();
  },
);

Matrix(
  'every token endpoint is classified: self-scoped, admin, or owner-scoped with a case; every endpoint has its procedure',
  ({ operations, fixtures }) => {
    const owned = ownedCases(fixtures);
    const unclassified = operations
      .filter((op) => op.secured && !op.path.startsWith('/admin/'))
      .map(keyOf)
      // Privileges and the smugglers' reports (issue 35): their rows are in access-matrix-privileges.test.ts.
      .filter((key) => !SELF_SCOPED.has(key) && !owned[key] && !PRIVILEGE_MATRIX_KEYS.has(key));
    assert.equal(
      unclassified,
      [],
      'state the access rule of these endpoints in test/cross-cutting/access-matrix.test.ts',
    );
    for (const operation of operations) procedureOf(operation);
  },
);

Matrix(
  "owner-scoped endpoints: someone else's token is refused, the owner's works, alike on REST and on tRPC",
  async ({ app, trpc, operations, fixtures }) => {
    const findings = new Findings();
    const owned = ownedCases(fixtures);
    // The tRPC twin of each case acts on a resource of its own (the twin set): the REST case may have changed or deleted its.
    const twinCases = ownedCases(fixtures.twin);
    const sameData = {
      normalize: sameResources(fixtures.twin, fixtures),
      normalizeMessage: sameResourcesInText(fixtures.twin, fixtures),
    };
    const byKey = new Map(operations.map((op) => [keyOf(op), op]));
    // Destructive cases last, in this order, so each finds its resource.
    const order = Object.keys(owned).sort((a, b) => Number(/DELETE|delete/.test(a)) - Number(/DELETE|delete/.test(b)));
    for (const key of order) {
      const operation = byKey.get(key);
      assert.ok(operation, `${key} is in the document`);
      const testCase = owned[key]!;
      const twinCase = twinCases[key]!;
      const tokens: [string, string | undefined, number[] | undefined][] = [
        ['a stranger', fixtures.stranger.token, testCase.stranger],
        ['anonymous', undefined, testCase.anonymous],
        ['the owner', fixtures.owner.token, testCase.owner],
      ];
      for (const [who, token, expected] of tokens) {
        if (!expected) continue;
        const response = await call(app, operation!, token, testCase);
        findings.expect(
          expected.includes(response.status!),
          `${key} as ${who} on REST`,
          `${response.status} ${response.text}`,
        );
        const twin = await trpc.call(operation!, token, twinCase, PLACEHOLDER_UUID, 'httpLink');
        findings.add(
          `${key} as ${who}, tRPC vs REST`,
          differences(response, twin, { ...sameData, data: testCase.data }),
        );
      }
    }
    findings.assertNone();
  },
);

Matrix(
  "self-scoped reads never show another user's resources, on REST or on tRPC",
  async ({ app, trpc, operations, fixtures }) => {
    const findings = new Findings();
    const secrets = [
      ...Object.values(fixtures.twin),
      fixtures.privateCollection,
      fixtures.order,
      fixtures.privateAssembly,
      fixtures.trashedAssembly,
      fixtures.privatePoint,
      fixtures.owner.username,
    ];
    for (const operation of operations.filter((op) => op.method === 'GET' && SELF_SCOPED.has(keyOf(op)))) {
      const response = await call(app, operation, fixtures.stranger.token);
      const twin = await trpc.call(operation, fixtures.stranger.token, {}, PLACEHOLDER_UUID, 'httpLink');
      findings.expect(response.status === 200, `${keyOf(operation)} on REST`, `${response.status} ${response.text}`);
      findings.add(`${keyOf(operation)}, tRPC vs REST`, differences(response, twin));
      for (const answer of [response, twin]) {
        for (const secret of secrets)
          findings.expect(!answer.text.includes(secret), `${keyOf(operation)} on ${answer.surface}`, `leaks ${secret}`);
      }
    }
    findings.assertNone();
  },
);

Matrix(
  "a user's public space (issue 19) never shows their private or trashed assemblies, to anyone, on REST or on tRPC",
  async ({ app, trpc, operations, fixtures }) => {
    const findings = new Findings();
    const hidden = [
      fixtures.privateAssembly,
      fixtures.trashedAssembly,
      fixtures.twin.privateAssembly,
      fixtures.twin.trashedAssembly,
    ];
    const spaces = operations.filter((op) => op.method === 'GET' && op.path.startsWith('/user/space/'));
    assert.ok(spaces.length >= 2, 'user/space/assemblys and user/space/likes are documented');
    for (const operation of spaces) {
      for (const [who, token] of [
        ['anonymous', undefined],
        ['a stranger', fixtures.stranger.token],
        ['the owner', fixtures.owner.token],
      ] as const) {
        const input = { query: { userId: fixtures.owner.id } };
        const response = await call(app, operation, token, input);
        const twin = await trpc.call(operation, token, input, PLACEHOLDER_UUID, 'httpBatchLink');
        findings.expect(
          response.status === 200,
          `${keyOf(operation)} as ${who} on REST`,
          `${response.status} ${response.text}`,
        );
        findings.add(`${keyOf(operation)} as ${who}, tRPC vs REST`, differences(response, twin));
        for (const answer of [response, twin]) {
          for (const uuid of hidden)
            findings.expect(
              !answer.text.includes(uuid),
              `${keyOf(operation)} as ${who} on ${answer.surface}`,
              `shows ${uuid}`,
            );
        }
      }
    }
    findings.assertNone();
  },
);

Matrix.run();
