// Comments on codex entries under the same limits as an assembly's (issue 34; test/comment/comments-limits.test.ts
// has the assembly's): the captcha answer used once, the write limit per account and concurrent
// deletions, each holding per call in one tRPC batch and across concurrent REST requests.
import * as assert from 'uvu/assert';
import { openSvgAnswer } from '../../server/domains/captcha/service';
import { startTestServer, type TTestServer } from '../support/helpers';
import { batchClient, statusOf } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { suite } from '../support/suite';
import type { TUser } from '../assembly/fixtures';
import { tally } from '../support/server-suite';
import { deletesAtOnce } from '../comment/fixtures';
import { importCarriedData } from './fixtures';

const HMAC_KEY = 'codex-comment-limits-key-0123';
const LIMIT = 4;

interface TContext {
  app: TTestServer;
  author: TUser;
  other: TUser;
  admin: TUser;
}

async function setUp(context: TContext, overrides: Parameters<typeof startTestServer>[0] = {}): Promise<void> {
  context.app = await startTestServer({ CAPTCHA_HMAC_KEY: HMAC_KEY, ...overrides });
  await importCarriedData(context.app);
  context.admin = await signUpAdmin(context.app);
  context.author = await context.app.signUp();
  context.other = await context.app.signUp();
}

const post = (app: TTestServer, token: string, content: string, extra: Record<string, unknown> = {}) =>
  app.rest('POST', '/api/comment', { token, body: { targetType: 'ultimate', targetId: 'hunter', content, ...extra } });
const total = async (app: TTestServer) =>
  (await app.rest('GET', '/api/comment/comments?targetType=ultimate&targetId=hunter&pageSize=100')).body.data;

const Captcha = suite<TContext>('comments on codex entries: the captcha, used once per answer');
Captcha.before((context) => setUp(context));
Captcha.after(async ({ app }) => app.stop());

Captcha('one answer, three calls in one tRPC batch or at once over REST: one accepted', async ({ app, author }) => {
  const answer = async () => {
    const { hash } = (await app.rest('GET', '/api/captcha')).body.data;
    return {
      captchaType: 'svg' as const,
      encryptCaptcha: hash as string,
      response: openSvgAnswer(HMAC_KEY, hash)!.text,
    };
  };
  const captcha = await answer();
  assert.is((await post(app, author.token, 'with a captcha', { captcha })).status, 200);
  const reused = await post(app, author.token, 'again', { captcha });
  assert.equal([reused.status, reused.body.data.key], [400, 'captcha.wrong']);
  const shared = await answer();
  const { client, sent } = batchClient(app.url, { token: author.token, maxItems: 10 });
  const statuses = await Promise.all(
    Array.from({ length: 3 }, () =>
      statusOf(
        client.comment.create.mutate({
          targetType: 'ultimate',
          targetId: 'hunter',
          content: 'batched',
          captcha: shared,
        }),
      ),
    ),
  );
  assert.is(sent.requests, 1, 'one batch');
  assert.equal(tally(statuses), { 200: 1, 400: 2 });
  const restShared = await answer();
  const rest = await Promise.all(
    Array.from({ length: 3 }, () =>
      post(app, author.token, 'concurrent', { captcha: restShared }).then((r) => r.status),
    ),
  );
  assert.equal(tally(rest), { 200: 1, 400: 2 });
  const stored = (await total(app)).data.map((comment: { content: string }) => comment.content);
  assert.equal(
    [stored.filter((c: string) => c === 'batched').length, stored.filter((c: string) => c === 'concurrent').length],
    [1, 1],
  );
});

Captcha.run();

const Limits = suite<TContext>('comments on codex entries: the write limit and concurrent deletions, per call');
Limits.before((context) => setUp(context, { RATE_LIMIT_COMMENTS: LIMIT }));
Limits.after(async ({ app }) => app.stop());

Limits(
  `ten creates in one tRPC batch with a limit of ${LIMIT}: exactly ${LIMIT} accepted, the rest 429; concurrent REST the same; edits count`,
  async ({ app, author, other }) => {
    const { client, sent } = batchClient(app.url, { token: author.token, maxItems: 10 });
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        statusOf(
          client.comment.create.mutate({ targetType: 'ultimate', targetId: 'hunter', content: `batch ${index}` }),
        ),
      ),
    );
    assert.is(sent.requests, 1, 'one batch');
    assert.equal(tally(statuses), { 200: LIMIT, 429: 10 - LIMIT });
    const over = await post(app, author.token, 'one more');
    assert.equal([over.status, over.body.data.key], [429, 'request.rateLimited']);
    assert.ok(Number(over.headers.get('retry-after')) > 0, 'Retry-After');
    const rest = await Promise.all(Array.from({ length: 10 }, (_, index) => post(app, other.token, `rest ${index}`)));
    assert.equal(tally(rest.map((response) => response.status)), { 200: LIMIT, 429: 10 - LIMIT });
    const id = rest.find((response) => response.status === 200)!.body.data.id;
    assert.is(
      (await app.rest('POST', '/api/comment/edit', { token: other.token, body: { id, content: 'edited' } })).status,
      429,
    );
    assert.is((await total(app)).pagination.total, 2 * LIMIT, 'only the accepted ones were stored');
    // Deletions are not limited.
    assert.is((await app.rest('POST', '/api/comment/delete', { token: other.token, body: { id } })).status, 200);
  },
);

Limits(
  'concurrent deletions of one comment by its author and admins: one 200, the others 404',
  async ({ app, admin }) => {
    const author = await app.signUp();
    for (const surface of ['REST', 'tRPC'] as const) {
      const { id } = (await post(app, author.token, `to delete on ${surface}`)).body.data;
      const tokens = [author.token, admin.token, admin.token, author.token];
      const statuses = await deletesAtOnce(app, surface, tokens, id);
      assert.equal(tally(statuses), { 200: 1, 404: 3 }, surface);
    }
    const { id } = (await post(app, author.token, 'batched delete')).body.data;
    const { client, sent } = batchClient(app.url, { token: author.token, maxItems: 10 });
    const batched = await Promise.all(Array.from({ length: 3 }, () => statusOf(client.comment.delete.mutate({ id }))));
    assert.is(sent.requests, 1);
    assert.equal(tally(batched), { 200: 1, 404: 2 });
  },
);

Limits.run();
