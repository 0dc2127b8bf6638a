/**
 * The access matrix's owner-scoped rows, generated from the OpenAPI document and run on both surfaces:
 * owner-scoped endpoints with someone else's token (403/404), anonymously and with the owner's (2xx);
 * self-scoped reads and a user's public space (issue 19) never show another user's private resources.
 * Each case goes to REST and to its procedure on native tRPC (test/support/surface-trpc.ts), which must
 * answer alike: status, code, message, data. The document's classification of every endpoint is in
 * access-matrix-document.test.ts; no token, bad tokens, admin and public endpoints in
 * access-matrix-credentials.test.ts.
 */
import * as assert from 'uvu/assert';
import {
  call,
  keyOf,
  ownedCases,
  PLACEHOLDER_UUID,
  SELF_SCOPED,
  sameResources,
  sameResourcesInText,
} from '../support/access-matrix';
import { differences, Findings } from '../support/surface-compare';
import { accessMatrixSuite } from './access-matrix-fixtures';

const Matrix = accessMatrixSuite('access matrix: owner-scoped and self-scoped endpoints, on REST and native tRPC');

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
