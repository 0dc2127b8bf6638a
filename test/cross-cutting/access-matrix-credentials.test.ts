/**
 * The access matrix's credentials, generated from the OpenAPI document and run on both surfaces: every
 * endpoint marked with a token is called with no token, a forged token and an expired token (401), admin
 * endpoints with a user token (403); public endpoints answer without a token. Each case goes to REST and
 * to its procedure on native tRPC (test/support/surface-trpc.ts), which must answer alike: status, code,
 * message, data.
 */
import * as assert from 'uvu/assert';
import { call, callTwins, keyOf, ownedCases, PUBLIC_WITH_OWN_PROOF } from '../support/access-matrix';
import { differences, Findings, VOLATILE_DATA } from '../support/surface-compare';
import { accessMatrixSuite } from './access-matrix-fixtures';

const Matrix = accessMatrixSuite(
  'access matrix: no token, bad tokens, admin and public endpoints, on REST and native tRPC',
);

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

Matrix.run();
