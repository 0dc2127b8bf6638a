// GET /privilege/export (issue 35): CSV (csv-stringify, a header row, cells a spreadsheet would run as a
// formula written as text) or a JSON array, of the grants or of the log, with the list's filters;
// streamed a batch of rows at a time on REST and on native tRPC (httpBatchStreamLink), and bounded:
// more than MAX_EXPORT_ROWS rows is a 400 before anything is sent.
import * as assert from 'uvu/assert';
import { createTRPCClient, httpBatchStreamLink } from '@trpc/client';
import superjson from 'superjson';
import { privilegeAudit } from '../../db/schema';
import { MAX_EXPORT_ROWS } from '../../server/domains/privilege/schemas';
import type { AppRouter } from '../../server/router';
import { startTestServer, type TTestServer } from '../support/helpers';
import { trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { suite } from '../support/suite';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

const Export = suite<{ app: TTestServer; admin: TUser; dash: TUser }>('privileges: the export, streamed and bounded');

Export.before(async (context) => {
  context.app = await startTestServer();
  context.admin = await signUpAdmin(context.app);
  // A username a spreadsheet would read as a formula.
  context.dash = await context.app.signUp(`-2-3x${process.pid % 1000}`);
  await context.app.rest('POST', '/api/privilege/grant', {
    token: context.admin.token,
    body: { userId: context.dash.id, privilegeType: 'smuggler' },
  });
});
Export.after(async ({ app }) => app.stop());

const download = (app: TTestServer, token: string, query: string) =>
  fetch(`${app.url}/api/privilege/export?${query}`, { headers: { authorization: `Bearer ${token}` } });

function streamClient(app: TTestServer, token: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchStreamLink({
        url: `${app.url}/trpc`,
        transformer: superjson,
        headers: () => ({ authorization: `Bearer ${token}` }),
      }),
    ],
  });
}

Export(
  'CSV: a header row, one row a grant, formula-like cells as text; an attachment',
  async ({ app, admin, dash }) => {
    const response = await download(app, admin.token, `userId=${dash.id}`);
    assert.is(response.status, 200);
    assert.is(response.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.is(response.headers.get('content-disposition'), 'attachment; filename="privileges.csv"');
    assert.is(response.headers.get('cache-control'), 'no-store');
    const lines = (await response.text()).trimEnd().split('\n');
    assert.is(lines[0], 'userId,username,privilegeType,status,grantedBy,grantedTime,expiryTime,suspendedTime');
    assert.is(lines.length, 2);
    assert.ok(lines[1]!.startsWith(`${dash.id},'${dash.username},smuggler,active,${admin.id},`), lines[1]);
  },
);

Export(
  'JSON: an array of the log entries, the same on REST and through httpBatchStreamLink',
  async ({ app, admin, dash }) => {
    const response = await download(app, admin.token, `format=json&view=log&userId=${dash.id}`);
    assert.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
    const text = await response.text();
    const entries = JSON.parse(text);
    assert.equal(
      entries.map((entry: { action: string; username: string }) => [entry.action, entry.username]),
      [['grant', dash.username]],
    );
    const answer = await streamClient(app, admin.token).privilege.export.query({
      format: 'json',
      view: 'log',
      userId: dash.id,
    });
    let streamed = '';
    for await (const chunk of answer.chunks) streamed += chunk;
    assert.is(streamed, text);
    assert.equal([answer.contentType, answer.filename], ['application/json; charset=utf-8', 'privilege-log.json']);
    // Other links than the streaming one: tRPC's own 415.
    const plain = await trpcError(app.trpc(admin.token).privilege.export.query({}));
    assert.is(plain.status, 415);
  },
);

Export('streamed: the rows go out a batch of 500 at a time', async ({ app, admin }) => {
  const now = app.clock.now();
  await app.database.db
    .insert(privilegeAudit)
    .values(
      Array.from({ length: 1_200 }, (_, index) => ({
        userId: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
        type: 'smuggler',
        action: 'grant' as const,
        actorId: admin.id,
        at: now,
      })),
    )
    .run();
  const answer = await streamClient(app, admin.token).privilege.export.query({
    view: 'log',
    privilegeType: 'smuggler',
  });
  const chunks: string[] = [];
  for await (const chunk of answer.chunks) chunks.push(chunk);
  // The header, then the batches: 500, 500 and the rest.
  assert.is(chunks.length, 4);
  assert.is(chunks.join('').trimEnd().split('\n').length, 1 + 1_201);
  const rest = await (await download(app, admin.token, 'view=log&privilegeType=smuggler')).text();
  assert.is(rest, chunks.join(''));
});

Export(
  `bounded: more than ${MAX_EXPORT_ROWS} rows is a 400 before anything is sent; a filter narrows it`,
  async ({ app, admin }) => {
    const now = app.clock.now();
    const rows = Array.from({ length: MAX_EXPORT_ROWS + 1 }, (_, index) => ({
      userId: `00000000-0000-4000-9000-${String(index).padStart(12, '0')}`,
      type: 'smuggler_weekly_report_delete',
      action: 'revoke' as const,
      actorId: admin.id,
      at: now,
    }));
    for (let start = 0; start < rows.length; start += 1_000)
      await app.database.db
        .insert(privilegeAudit)
        .values(rows.slice(start, start + 1_000))
        .run();
    const refused = await download(app, admin.token, 'view=log');
    assert.is(refused.status, 400);
    const body = (await refused.json()) as any;
    assert.match(body.message, /more than 10000/);
    assert.is(body.data.issues[0].path, 'view');
    const native = await trpcError(streamClient(app, admin.token).privilege.export.query({ view: 'log' }));
    assert.equal([native.status, native.message], [400, body.message]);
    const narrowed = await download(app, admin.token, 'view=log&privilegeType=smuggler');
    assert.is(narrowed.status, 200);
  },
);

Export('a bad format is a 400 in the envelope', async ({ app, admin }) => {
  const response = await download(app, admin.token, 'format=xlsx');
  assert.is(response.status, 400);
  assert.is(((await response.json()) as any).data.issues[0].path, 'format');
});

Export.run();
