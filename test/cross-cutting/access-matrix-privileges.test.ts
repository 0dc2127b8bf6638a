/**
 * The access matrix's rows of privileges and the smugglers' reports (issue 35; the rows are in
 * test/support/privilege-matrix.ts): each endpoint called by no token, an ordinary account, an
 * expired grant, a suspended grant, the author (a grant in force), an admin and a blacklisted account,
 * on REST and on its procedure over native tRPC, which must answer alike (status, code, message, data).
 * Each call acts on resources of its own, so a row that changes or deletes them finds them.
 */
import * as assert from 'uvu/assert';
import { createTRPCClient, httpBatchStreamLink } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../server/router';
import { startTestServer, type TTestServer } from '../support/helpers';
import { statusOf } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { documentOperations, type TDocumentOperation } from '../support/openapi-operations';
import { CALLERS, grantCallers, PRIVILEGE_ROWS, type TMatrixFixtures } from '../support/privilege-matrix';
import { differences, Findings } from '../support/surface-compare';
import { TrpcSurface } from '../support/surface-trpc';
import { restCall } from '../support/surfaces';
import { suite } from '../support/suite';

const PLACEHOLDER = '00000000-0000-4000-8000-000000000000';

/** Ids and times of each surface's own resources read alike. */
function sameShape(text: string | undefined): string | undefined {
  return text
    ?.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\b\d+\b/g, '<n>');
}

/** `sameShape` on every string of an answer's data, every number 0. */
function sameData(value: unknown): unknown {
  if (typeof value === 'string') return sameShape(value);
  if (typeof value === 'number') return 0;
  if (Array.isArray(value)) return value.map(sameData);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, sameData(inner)]));
  return value;
}

const Matrix = suite<TMatrixFixtures & { trpc: TrpcSurface; operations: TDocumentOperation[] }>(
  "access matrix: privileges and the smugglers' reports, for every caller, on REST and native tRPC",
);

Matrix.before(async (context) => {
  const app: TTestServer = await startTestServer();
  context.app = app;
  context.trpc = new TrpcSurface(app);
  context.operations = documentOperations((await app.rest('GET', '/api/openapi.json')).body);
  context.users = {
    ordinary: await app.signUp(),
    expired: await app.signUp(),
    suspended: await app.signUp(),
    author: await app.signUp(),
    admin: await signUpAdmin(app),
    blacklisted: await app.signUp(),
  };
  context.reporter = await app.signUp();
  await grantCallers(context);
  // A published report, for byTime.
  const published = await app.rest('POST', '/api/smugglers/reports', {
    token: context.reporter.token,
    body: { title: 'This week', content: {}, startTime: '2026-01-01', endTime: '2026-01-08', status: 'published' },
  });
  assert.is(published.status, 200, published.text);
});
Matrix.after(async ({ app }) => app.stop());

Matrix('the document has every endpoint of the rows, each with its procedure', ({ operations }) => {
  const keys = new Set(operations.map((operation) => operation.key));
  for (const key of Object.keys(PRIVILEGE_ROWS)) assert.ok(keys.has(key), `${key} is documented`);
  const privilegeAndReports = operations
    .filter((operation) => /^\/(privilege|smugglers)\//.test(operation.path))
    .map((operation) => operation.key)
    .filter((key) => !(key in PRIVILEGE_ROWS) && key !== 'GET /privilege/export');
  assert.equal(privilegeAndReports, [], 'state their access rule in test/support/privilege-matrix.ts');
});

Matrix('each caller gets its row, alike on REST and on tRPC', async (context) => {
  const findings = new Findings();
  const byKey = new Map(context.operations.map((operation) => [operation.key, operation]));
  let cases = 0;
  for (const [key, row] of Object.entries(PRIVILEGE_ROWS)) {
    const operation = byKey.get(key)!;
    for (const who of CALLERS) {
      const token = who === 'anonymous' ? undefined : context.users[who].token;
      const response = await restCall(context.app, operation, token, await row.prepare(context, who), PLACEHOLDER);
      findings.expect(
        row.expected[who].includes(response.status!),
        `${key} as ${who} on REST`,
        `${response.status} ${response.text.slice(0, 200)}`,
      );
      const twin = await context.trpc.call(operation, token, await row.prepare(context, who), PLACEHOLDER, 'httpLink');
      findings.add(
        `${key} as ${who}, tRPC vs REST`,
        differences(response, twin, {
          data: 'shape',
          normalize: sameData,
          normalizeMessage: sameShape,
        }),
      );
      cases++;
    }
  }
  findings.assertNone();
  console.log(`      ${cases} cases, each on REST and on tRPC`);
});

Matrix('a blacklisted account writes nothing: its 403 says why, on both surfaces', async (context) => {
  const token = context.users.blacklisted.token;
  const create = await context.app.rest('POST', '/api/smugglers/reports', {
    token,
    body: { title: 'No', content: {}, startTime: '2026-01-01', endTime: '2026-01-02' },
  });
  assert.equal([create.status, create.body.data.key], [403, 'user.blacklisted']);
  const status = await statusOf(
    context.app
      .trpc(token)
      .smugglers.reports.create.mutate({ title: 'No', content: {}, startTime: '2026-01-01', endTime: '2026-01-02' }),
  );
  assert.is(status, 403);
});

Matrix('GET /privilege/export: admins only, a stream on both surfaces (tRPC: httpBatchStreamLink)', async (context) => {
  for (const who of CALLERS) {
    const token = who === 'anonymous' ? undefined : context.users[who].token;
    const response = await fetch(`${context.app.url}/api/privilege/export?format=csv`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const text = await response.text();
    const streamClient = createTRPCClient<AppRouter>({
      links: [
        httpBatchStreamLink({
          url: `${context.app.url}/trpc`,
          transformer: superjson,
          headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
        }),
      ],
    });
    if (who === 'admin') {
      assert.is(response.status, 200, text);
      assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
      const answer = await streamClient.privilege.export.query({ format: 'csv' });
      let streamed = '';
      for await (const chunk of answer.chunks) streamed += chunk;
      assert.is(streamed, text, 'the same text on both surfaces');
      continue;
    }
    const expected = who === 'anonymous' ? 401 : 403;
    assert.is(response.status, expected, `${who} on REST: ${text}`);
    assert.is(await statusOf(streamClient.privilege.export.query({ format: 'csv' })), expected, `${who} on tRPC`);
  }
});

Matrix.run();
