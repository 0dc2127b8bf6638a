// Comments on assemblies (issue 19): the captcha (optional, used once) and the write limit, and concurrent
// deletions, per call: through httpBatchLink batches and concurrent REST requests (real clients).
import * as assert from 'uvu/assert';
import { openSvgAnswer } from '../../server/domains/captcha/service';
import { HULK } from '../support/community-sample';
import { batchClient, statusOf } from '../support/http-clients';
import { publish } from '../assembly/fixtures';
import { tally } from '../support/server-suite';
import { commentsSuite, deletesAtOnce, HMAC_KEY, listOf, post } from './fixtures';

const Captcha = commentsSuite('comments: the captcha, per call');

Captcha(
  'captcha: optional; when given it is verified and used once, in one tRPC batch and across concurrent REST calls',
  async ({ app, owner, fan }) => {
    const { uuid } = await publish(app, owner.token, HULK);
    const answer = async () => {
      const { hash } = (await app.rest('GET', '/api/captcha')).body.data;
      return {
        captchaType: 'svg' as const,
        encryptCaptcha: hash as string,
        response: openSvgAnswer(HMAC_KEY, hash)!.text,
      };
    };
    const captcha = await answer();
    assert.is((await post(app, fan.token, uuid, 'with a captcha', { captcha })).status, 200);
    const reused = await post(app, fan.token, uuid, 'again', { captcha });
    assert.equal([reused.status, reused.body.data.key], [400, 'captcha.wrong']);
    const wrong = await post(app, fan.token, uuid, 'wrong text', {
      captcha: { ...(await answer()), response: '!!!!' },
    });
    assert.equal([wrong.status, wrong.body.data.key], [400, 'captcha.wrong']);
    assert.is(
      (await post(app, fan.token, uuid, 'half', { captcha: { captchaType: 'svg', encryptCaptcha: 'abc' } })).status,
      400,
    );
    assert.is((await post(app, fan.token, uuid, 'both', { captcha: await answer(), captchaCode: 'x' })).status, 400);
    assert.is((await post(app, fan.token, uuid, 'none', { captcha: '' })).status, 200, "'' is no answer");
    // One answer, three calls at once: one accepted.
    const shared = await answer();
    const { client, sent } = batchClient(app.url, { token: fan.token, maxItems: 10 });
    const statuses = await Promise.all(
      Array.from({ length: 3 }, () =>
        statusOf(
          client.comment.create.mutate({ targetType: 'assembly', targetId: uuid, content: 'batched', captcha: shared }),
        ),
      ),
    );
    assert.is(sent.requests, 1, 'one batch');
    assert.equal(tally(statuses), { 200: 1, 400: 2 });
    const restShared = await answer();
    const rest = await Promise.all(
      Array.from({ length: 3 }, () =>
        post(app, fan.token, uuid, 'concurrent', { captcha: restShared }).then((response) => response.status),
      ),
    );
    assert.equal(tally(rest), { 200: 1, 400: 2 });
    const stored = (await listOf(app, uuid, '&pageSize=100')).body.data.data.map(
      (item: { content: string }) => item.content,
    );
    assert.equal(
      [
        stored.filter((content: string) => content === 'batched').length,
        stored.filter((content: string) => content === 'concurrent').length,
      ],
      [1, 1],
    );
  },
);

Captcha.run();

const LIMIT = 4;
const Limits = commentsSuite('comments: the write limit and concurrent deletions, per call', {
  RATE_LIMIT_COMMENTS: LIMIT,
});

Limits(
  `ten creates in one tRPC batch with a limit of ${LIMIT}: exactly ${LIMIT} accepted, the rest 429; concurrent REST the same`,
  async ({ app, owner, fan, other }) => {
    const { uuid } = await publish(app, owner.token, HULK);
    const { client, sent } = batchClient(app.url, { token: fan.token, maxItems: 10 });
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        statusOf(client.comment.create.mutate({ targetType: 'assembly', targetId: uuid, content: `batch ${index}` })),
      ),
    );
    assert.is(sent.requests, 1, 'one batch');
    assert.equal(tally(statuses), { 200: LIMIT, 429: 10 - LIMIT });
    const over = await post(app, fan.token, uuid, 'one more');
    assert.is(over.status, 429);
    assert.is(over.body.data.key, 'request.rateLimited');
    assert.ok(Number(over.headers.get('retry-after')) > 0, 'Retry-After');
    // Edits count against the same limit.
    const rest = await Promise.all(
      Array.from({ length: 10 }, (_, index) => post(app, other.token, uuid, `rest ${index}`)),
    );
    assert.equal(tally(rest.map((response) => response.status)), { 200: LIMIT, 429: 10 - LIMIT });
    const edit = await app.rest('POST', '/api/comment/edit', {
      token: other.token,
      body: { id: rest.find((response) => response.status === 200)!.body.data.id, content: 'edited' },
    });
    assert.is(edit.status, 429);
    assert.is(
      await statusOf(
        app.trpc(other.token).comment.edit.mutate({
          id: rest.find((response) => response.status === 200)!.body.data.id,
          content: 'edited',
        }),
      ),
      429,
    );
    assert.is(
      (await listOf(app, uuid, '&pageSize=100')).body.data.pagination.total,
      2 * LIMIT,
      'only the accepted ones were stored',
    );
    // Reads and deletions are not limited.
    assert.is(
      (
        await app.rest('POST', '/api/comment/delete', {
          token: fan.token,
          body: {
            id: (await listOf(app, uuid)).body.data.data.find((item: { userId: string }) => item.userId === fan.id).id,
          },
        })
      ).status,
      200,
    );
  },
);

Limits(
  'concurrent deletions of one comment by its author, the creator and an admin: one 200, the others 404',
  async ({ app, owner, admin }) => {
    const { uuid } = await publish(app, owner.token, HULK);
    const author = await app.signUp();
    for (const surface of ['REST', 'tRPC'] as const) {
      const { id } = (await post(app, author.token, uuid, `to delete on ${surface}`)).body.data;
      const tokens = [author.token, owner.token, admin.token, author.token];
      const statuses = await deletesAtOnce(app, surface, tokens, id);
      assert.equal(tally(statuses), { 200: 1, 404: 3 }, surface);
    }
    // Three of the author's deletions of one comment in one batch: one 200.
    const { id } = (await post(app, author.token, uuid, 'batched delete')).body.data;
    const { client, sent } = batchClient(app.url, { token: author.token, maxItems: 10 });
    const batched = await Promise.all(Array.from({ length: 3 }, () => statusOf(client.comment.delete.mutate({ id }))));
    assert.is(sent.requests, 1);
    assert.equal(tally(batched), { 200: 1, 404: 2 });
    assert.is((await listOf(app, uuid)).body.data.pagination.total, 0);
  },
);

Limits.run();
