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
import { documentOperations } from '../support/openapi-operations';
import { PRIVILEGE_MATRIX_KEYS } from '../support/privilege-matrix';
import { differences, Findings, procedureOf, TrpcSurface, VOLATILE_DATA } from '../support/surfaces';

import {
  type TOperation,
  PLACEHOLDER_UUID,
  SELF_SCOPED,
  type TFixtures,
  ownedCases,
  PUBLIC_WITH_OWN_PROOF,
  keyOf,
  call,
  callTwins,
  sameResources,
  sameResourcesInText,
  createOwned,
} from '../support/access-matrix';

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
