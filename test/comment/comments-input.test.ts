// Comments on assemblies (issue 19): what a comment's content may be (plain text, trimmed, bounded, no control
// characters) and the errors (400 bad input, 401 without a token, 403 not yours, 404 unknown) of
// GET /comment/comments, POST /comment, /comment/edit, /comment/delete and GET /user/comments, over HTTP on
// REST and on native tRPC (real clients).
import * as assert from 'uvu/assert';
import { HULK } from '../support/community-sample';
import { statusOf, trpcError } from '../support/http-clients';
import { publish } from '../assembly/fixtures';
import { commentsSuite, listOf, post } from './fixtures';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const Comments = commentsSuite('comments: content and errors');

Comments(
  'content is plain text: stored and answered verbatim as JSON, trimmed, bounded, no control characters',
  async ({ app, owner, fan }) => {
    const { uuid } = await publish(app, owner.token, HULK);
    const hostile = '<script>alert("x")</script> <img src=x onerror=alert(1)> &amp; 🏴‍☠️\n\tindented';
    const created = await post(app, fan.token, uuid, `  ${hostile}\r\n `);
    assert.is(created.status, 200, created.text);
    assert.is(created.body.data.content, hostile, 'trimmed, otherwise as written');
    const listed = await listOf(app, uuid);
    assert.match(listed.headers.get('content-type') ?? '', /^application\/json/);
    assert.is(listed.body.data.data[0].content, hostile);
    assert.ok(
      listed.text.includes('<script>alert(\\"x\\")</script>'),
      'the JSON string, not escaped into HTML entities',
    );
    assert.is(
      (await app.trpc().comment.list.query({ targetType: 'assembly', targetId: uuid })).data[0]!.content,
      hostile,
    );
    assert.is((await post(app, fan.token, uuid, 'one\r\ntwo\rthree')).body.data.content, 'one\ntwo\nthree');
    assert.is((await post(app, fan.token, uuid, 'x'.repeat(2000))).status, 200);
    assert.is(
      (await post(app, fan.token, uuid, `  ${'y'.repeat(2000)}  `)).status,
      200,
      'the limit counts after trimming',
    );
    for (const [label, content] of [
      ['empty', ''],
      ['blank', ' \n\t '],
      ['too long', 'x'.repeat(2001)],
      ['NUL', 'a\u0000b'],
      ['escape', 'a\u001b[31mred'],
      ['C1 control', 'a\u0085b'],
      ['unpaired surrogate', 'a\ud800b'],
      ['not a string', 42],
    ] as const) {
      const refused = await post(app, fan.token, uuid, content as string);
      assert.is(refused.status, 400, `${label}: ${refused.text}`);
      assert.is(refused.body.data.issues[0].path, 'content', label);
      assert.is(
        await statusOf(
          app
            .trpc(fan.token)
            .comment.create.mutate({ targetType: 'assembly', targetId: uuid, content: content as string }),
        ),
        400,
        `${label} on tRPC`,
      );
    }
    assert.is((await listOf(app, uuid)).body.data.pagination.total, 4, 'nothing refused was stored');
  },
);

Comments(
  'errors: 400 bad input, 401 without a token, 403 not yours, 404 unknown',
  async ({ app, owner, fan, other }) => {
    const { uuid } = await publish(app, owner.token, HULK);
    const comment = (await post(app, fan.token, uuid, 'mine')).body.data;
    // 400: strict inputs, a target type nobody sends.
    for (const [label, body] of [
      ['targetType', { targetType: 'planet' }],
      ['targetId', { targetId: 'nope' }],
      ['Unrecognized', { extra: 1 }],
      ['content', { content: undefined }],
    ] as const) {
      const base: Record<string, unknown> = { targetType: 'assembly', targetId: uuid, content: 'x' };
      const response = await app.rest('POST', '/api/comment', { token: fan.token, body: { ...base, ...body } });
      assert.is(response.status, 400, label);
      assert.match(response.text, label);
    }
    assert.is((await app.rest('GET', `/api/comment/comments?targetType=planet&targetId=${uuid}`)).status, 400);
    // A codex type takes a codex id: an assembly's uuid is one in form, and no codex entry has it (issue 34).
    assert.is((await app.rest('GET', `/api/comment/comments?targetType=item&targetId=${uuid}`)).status, 404);
    assert.is(
      (await app.rest('GET', `/api/comment/comments?targetType=assembly&targetId=${uuid}&userId=1`)).status,
      400,
    );
    assert.is((await app.rest('GET', '/api/comment/comments?targetType=assembly')).status, 400);
    assert.is(
      (await app.rest('POST', '/api/comment/edit', { token: fan.token, body: { id: 'not-an-id', content: 'x' } }))
        .status,
      400,
    );
    assert.is(
      (await app.rest('POST', '/api/comment/delete', { token: fan.token, body: { id: comment.id, extra: true } }))
        .status,
      400,
    );
    assert.is(
      (
        await trpcError(
          app
            .trpc(fan.token)
            .comment.create.mutate({ targetType: 'planet' as 'assembly', targetId: uuid, content: 'x' }),
        )
      ).status,
      400,
    );
    assert.is(
      (await trpcError(app.trpc().comment.list.query({ targetType: 'planet' as 'assembly', targetId: uuid }))).status,
      400,
    );
    assert.is(
      (await trpcError(app.trpc().comment.list.query({ targetType: 'item', targetId: uuid }))).status,
      404,
      'no codex item has that id',
    );
    // 401: every write and your own comments.
    const unauthorised = [
      app.rest('POST', '/api/comment', { body: { targetType: 'assembly', targetId: uuid, content: 'x' } }),
      app.rest('POST', '/api/comment/edit', { body: { id: comment.id, content: 'x' } }),
      app.rest('POST', '/api/comment/delete', { body: { id: comment.id } }),
      app.rest('GET', '/api/user/comments'),
      app.rest('GET', '/api/user/comments', { token: 'forgedtokenforgedtokenforgedtoke' }),
    ];
    for (const response of await Promise.all(unauthorised)) assert.is(response.status, 401, response.text);
    const anonymous = app.trpc();
    for (const call of [
      () => anonymous.comment.create.mutate({ targetType: 'assembly', targetId: uuid, content: 'x' }),
      () => anonymous.comment.edit.mutate({ id: comment.id, content: 'x' }),
      () => anonymous.comment.delete.mutate({ id: comment.id }),
      () => anonymous.comment.mine.query(),
    ]) {
      assert.is((await trpcError(call())).status, 401);
    }
    // 403: someone else's comment (edit: even the assembly's creator; delete: a stranger).
    for (const token of [owner.token, other.token]) {
      const refused = await app.rest('POST', '/api/comment/edit', {
        token,
        body: { id: comment.id, content: 'hijacked' },
      });
      assert.is(refused.status, 403, refused.text);
      assert.is(refused.body.data.key, 'request.forbidden');
      assert.is(
        (await trpcError(app.trpc(token).comment.edit.mutate({ id: comment.id, content: 'hijacked' }))).status,
        403,
      );
    }
    assert.is(
      (await app.rest('POST', '/api/comment/delete', { token: other.token, body: { id: comment.id } })).status,
      403,
    );
    assert.is((await trpcError(app.trpc(other.token).comment.delete.mutate({ id: comment.id }))).status, 403);
    assert.is((await listOf(app, uuid)).body.data.data[0].content, 'mine', 'nothing changed');
    // 404: unknown assembly or comment.
    assert.is((await post(app, fan.token, UNKNOWN, 'x')).status, 404);
    assert.is((await listOf(app, UNKNOWN)).status, 404);
    assert.is(
      (await trpcError(app.trpc().comment.list.query({ targetType: 'assembly', targetId: UNKNOWN }))).status,
      404,
    );
    assert.is(
      (
        await trpcError(
          app.trpc(fan.token).comment.create.mutate({ targetType: 'assembly', targetId: UNKNOWN, content: 'x' }),
        )
      ).status,
      404,
    );
    assert.is(
      (await app.rest('POST', '/api/comment/edit', { token: fan.token, body: { id: UNKNOWN, content: 'x' } })).status,
      404,
    );
    assert.is((await app.rest('POST', '/api/comment/delete', { token: fan.token, body: { id: UNKNOWN } })).status, 404);
    assert.is((await trpcError(app.trpc(fan.token).comment.delete.mutate({ id: UNKNOWN }))).status, 404);
  },
);

Comments.run();
