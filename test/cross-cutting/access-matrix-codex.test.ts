/**
 * The access matrix's rows of the comments and likes of a codex entry (issue 34), beside the
 * assembly's rows of test/cross-cutting/access-matrix.test.ts: each call as anonymous, a signed-in
 * stranger, the comment's author and an admin, on REST and on its procedure on native tRPC, which must
 * answer alike (status, code, message, data). A codex entry is public and has no creator: anyone reads,
 * any signed-in user writes and likes, a comment is its author's to edit and its author's or an
 * admin's to delete.
 */
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { signUpAdmin } from '../support/sign-up';
import { documentOperations, type TDocumentOperation } from '../support/openapi-operations';
import { differences, Findings } from '../support/surface-compare';
import { TrpcSurface } from '../support/surface-trpc';
import { restCall, type TCase } from '../support/surfaces';
import { suite } from '../support/suite';
import { importCarriedData } from '../codex/fixtures';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
type TWho = 'anonymous' | 'stranger' | 'author' | 'admin';

interface TRow extends TCase {
  expected: Partial<Record<TWho, number[]>>;
  /** How the two surfaces' data compare when not equal: a write answering a new id, a toggle's flip. */
  data?: 'shape';
}

const PLACEHOLDER = '00000000-0000-4000-8000-000000000000';
const TARGET = { targetType: 'cosmetic', targetId: 'garishSheen' };

/** The rows, on one comment of the author's (`comment`); the tRPC twin of each case gets a comment of its own. */
function rows(comment: string): Record<string, TRow> {
  return {
    'GET /comment/comments': { query: TARGET, expected: { anonymous: [200], stranger: [200], author: [200] } },
    'POST /comment': {
      body: { ...TARGET, content: 'matrix' },
      expected: { anonymous: [401], stranger: [200], author: [200] },
      data: 'shape',
    },
    'POST /comment/edit': {
      body: { id: comment, content: 'edited' },
      expected: { anonymous: [401], stranger: [403], admin: [403], author: [200] },
      data: 'shape',
    },
    'GET /likes/check': { query: TARGET, expected: { anonymous: [401], stranger: [200], author: [200] } },
    'GET /likes/count': { query: TARGET, expected: { anonymous: [200], stranger: [200] } },
    'POST /likes/toggle': {
      body: TARGET,
      expected: { anonymous: [401], stranger: [200], author: [200] },
      data: 'shape',
    },
    'POST /comment/delete': { body: { id: comment }, expected: { anonymous: [401], stranger: [403], author: [200] } },
  };
}

const Matrix = suite<{
  app: TTestServer;
  trpc: TrpcSurface;
  operations: TDocumentOperation[];
  users: Record<TWho, TUser | undefined>;
}>('access matrix: comments and likes of a codex entry, on REST and native tRPC');

Matrix.before(async (context) => {
  const app = await startTestServer();
  await importCarriedData(app);
  context.app = app;
  context.trpc = new TrpcSurface(app);
  context.operations = documentOperations((await app.rest('GET', '/api/openapi.json')).body);
  context.users = {
    anonymous: undefined,
    stranger: await app.signUp(),
    author: await app.signUp(),
    admin: await signUpAdmin(app),
  };
});
Matrix.after(async ({ app }) => app.stop());

async function commentOf(app: TTestServer, author: TUser): Promise<string> {
  const response = await app.rest('POST', '/api/comment', {
    token: author.token,
    body: { ...TARGET, content: 'by its author' },
  });
  assert.is(response.status, 200, response.text);
  return response.body.data.id;
}

Matrix('each caller gets its row, alike on REST and on tRPC', async ({ app, trpc, operations, users }) => {
  const findings = new Findings();
  const byKey = new Map(operations.map((operation) => [operation.key, operation]));
  for (const who of ['anonymous', 'stranger', 'admin', 'author'] as const) {
    // A comment for the REST case and one for its tRPC twin: the case may change or delete it.
    const [mine, twins] = [await commentOf(app, users.author!), await commentOf(app, users.author!)];
    const [restRows, twinRows] = [rows(mine), rows(twins)];
    for (const [key, row] of Object.entries(restRows)) {
      const expected = row.expected[who];
      if (!expected) continue;
      const operation = byKey.get(key);
      assert.ok(operation, `${key} is in the document`);
      const token = users[who]?.token;
      const response = await restCall(app, operation!, token, row, PLACEHOLDER);
      findings.expect(
        expected.includes(response.status!),
        `${key} as ${who} on REST`,
        `${response.status} ${response.text}`,
      );
      const twin = await trpc.call(operation!, token, twinRows[key]!, PLACEHOLDER, 'httpLink');
      findings.add(
        `${key} as ${who}, tRPC vs REST`,
        differences(response, twin, {
          data: row.data,
          normalize: (data) => JSON.parse(JSON.stringify(data ?? {}).replaceAll(twins, mine)),
          normalizeMessage: (message) => message?.replaceAll(twins, mine),
        }),
      );
    }
  }
  // An admin deletes anyone's comment.
  const comment = await commentOf(app, users.author!);
  const deleted = await restCall(
    app,
    byKey.get('POST /comment/delete')!,
    users.admin!.token,
    { body: { id: comment } },
    PLACEHOLDER,
  );
  findings.expect(deleted.status === 200, 'POST /comment/delete as admin on REST', `${deleted.status} ${deleted.text}`);
  const twinComment = await commentOf(app, users.author!);
  const twin = await trpc.call(
    byKey.get('POST /comment/delete')!,
    users.admin!.token,
    { body: { id: twinComment } },
    PLACEHOLDER,
    'httpLink',
  );
  findings.expect(twin.status === 200, 'POST /comment/delete as admin on tRPC', `${twin.status} ${twin.text}`);
  findings.assertNone();
});

Matrix.run();
