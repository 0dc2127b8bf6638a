// Comments on assemblies (issue 19): GET /comment/comments, POST /comment, /comment/edit,
// /comment/delete, GET /user/comments, over HTTP on REST and on native tRPC (real clients; writes and
// limits through httpBatchLink batches and concurrent REST requests).
import { eq } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { users } from '../../db/schema';
import { openSvgAnswer } from '../../server/domains/captcha/service';
import {
  batchClient,
  HULK,
  importCommunitySample,
  signUpAdmin,
  startTestServer,
  statusOf,
  trpcError,
  type TTestServer,
} from '../support/helpers';
import { publish, type TUser } from '../assembly/fixtures';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const HMAC_KEY = 'comment-suite-captcha-key-0123';

interface TContext {
  app: TTestServer;
  owner: TUser;
  fan: TUser;
  other: TUser;
  admin: TUser;
}

async function setUp(context: TContext, overrides: Parameters<typeof startTestServer>[0] = {}): Promise<void> {
  context.app = await startTestServer({ CAPTCHA_HMAC_KEY: HMAC_KEY, ...overrides });
  context.admin = await signUpAdmin(context.app);
  await importCommunitySample(context.app, context.admin);
  context.owner = await context.app.signUp();
  context.fan = await context.app.signUp();
  context.other = await context.app.signUp();
}

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

const post = (
  app: TTestServer,
  token: string | undefined,
  targetId: string,
  content: string,
  extra: Record<string, unknown> = {},
) => app.rest('POST', '/api/comment', { token, body: { targetId, targetType: 'assembly', content, ...extra } });
const listOf = (app: TTestServer, targetId: string, query = '', token?: string) =>
  app.rest('GET', `/api/comment/comments?targetType=assembly&targetId=${targetId}${query}`, { token });

const Comments = suite<TContext>('comments: create, list, edit, delete, your comments');
Comments.before((context) => setUp(context));
Comments.after(async ({ app }) => app.stop());

Comments(
  "create and list on both surfaces, in the client's shape; edit by the author; user/comments",
  async ({ app, owner, fan }) => {
    const { uuid, name } = await publish(app, owner.token, { ...HULK, name: 'Talked-about hulk' });
    // The web client's body: {targetId, targetType, content, captcha} with an untouched widget ({}).
    const created = await post(app, fan.token, uuid, 'Nice broadside', { captcha: {} });
    assert.is(created.status, 200, created.text);
    assert.is(created.headers.get('cache-control'), 'no-store');
    const comment = created.body.data;
    assert.match(comment.id, /^[0-9a-f-]{36}$/);
    assert.equal(
      { ...comment, id: 'x', createTime: 't', createdTime: 't', updatedTime: 't' },
      {
        id: 'x',
        content: 'Nice broadside',
        targetType: 'assembly',
        targetId: uuid,
        userId: fan.id,
        userName: fan.username,
        username: fan.username,
        userAvatar: null,
        createTime: 't',
        createdTime: 't',
        updatedTime: 't',
      },
    );
    assert.is(comment.createTime, comment.createdTime);
    assert.is(comment.updatedTime, comment.createdTime);
    // Native tRPC, then the list on both surfaces: newest first.
    app.clock.advance(1000);
    const second = await app
      .trpc(owner.token)
      .comment.create.mutate({ targetType: 'assembly', targetId: uuid, content: 'Thanks!' });
    assert.is(second.userId, owner.id);
    const listed = await listOf(app, uuid);
    assert.is(listed.status, 200, listed.text);
    assert.equal(
      listed.body.data.data.map((item: { id: string }) => item.id),
      [second.id, comment.id],
    );
    assert.equal(listed.body.data.pagination, { page: 1, pageSize: 20, total: 2, totalPages: 1 });
    assert.is(listed.headers.get('cache-control'), 'private, no-cache', 'never kept by shared caches');
    // Revalidation: the ETag of an unchanged list answers 304.
    const etag = listed.headers.get('etag');
    assert.ok(etag, 'ETag');
    assert.is(
      (
        await app.rest('GET', `/api/comment/comments?targetType=assembly&targetId=${uuid}`, {
          headers: { 'if-none-match': etag! },
        })
      ).status,
      304,
    );
    const viaTrpc = await app.trpc().comment.list.query({ targetType: 'assembly', targetId: uuid });
    assert.equal(viaTrpc, listed.body.data);

    // The display name and avatar are read from the author's profile columns; `username` stays the sign-in name.
    await app.database.db
      .update(users)
      .set({ alternativeName: 'Fan of hulls', avatarUrl: 'https://example.com/fan.png' })
      .where(eq(users.id, fan.id));
    const renamed = (await listOf(app, uuid)).body.data.data[1];
    assert.equal(
      [renamed.userName, renamed.username, renamed.userAvatar],
      ['Fan of hulls', fan.username, 'https://example.com/fan.png'],
    );

    // Edit by the author: content and updatedTime change, createdTime stays.
    app.clock.advance(60_000);
    const edited = await app.rest('POST', '/api/comment/edit', {
      token: fan.token,
      body: { id: comment.id, content: 'Nice broadside, edited' },
    });
    assert.is(edited.status, 200, edited.text);
    assert.is(edited.body.data.content, 'Nice broadside, edited');
    assert.is(edited.body.data.createdTime, comment.createdTime);
    assert.ok(Date.parse(edited.body.data.updatedTime) >= Date.parse(comment.createdTime) + 60_000);
    const trpcEdited = await app
      .trpc(fan.token)
      .comment.edit.mutate({ id: comment.id.toUpperCase(), content: 'Edited twice' });
    assert.is(trpcEdited.content, 'Edited twice', 'ids are read without case');

    // user/comments: the caller's own, with the assembly's uuid and name; nobody else's.
    const mine = await app.rest('GET', '/api/user/comments', { token: fan.token });
    assert.is(mine.status, 200, mine.text);
    assert.equal(
      mine.body.data.data.map((item: any) => [item.id, item.content, item.targetType, item.targetId, item.assembly]),
      [[comment.id, 'Edited twice', 'assembly', uuid, { uuid, name }]],
    );
    assert.is(mine.headers.get('cache-control'), 'private, no-cache');
    assert.equal(
      (await app.trpc(owner.token).comment.mine.query()).data.map((item) => item.id),
      [second.id],
    );
    assert.equal((await app.trpc(fan.token).comment.mine.query({ page: 1, pageSize: 5 })).pagination, {
      page: 1,
      pageSize: 5,
      total: 1,
      totalPages: 1,
    });

    // Delete by the author (REST) and by the creator (tRPC): gone from both lists.
    const deleted = await app.rest('POST', '/api/comment/delete', { token: fan.token, body: { id: comment.id } });
    assert.is(deleted.status, 200, deleted.text);
    assert.equal(deleted.body.data, { id: comment.id, deleted: true });
    assert.equal(await app.trpc(owner.token).comment.delete.mutate({ id: second.id }), {
      id: second.id,
      deleted: true,
    });
    assert.equal((await listOf(app, uuid)).body.data.pagination.total, 0);
    assert.equal((await app.rest('GET', '/api/user/comments', { token: fan.token })).body.data.data, []);
  },
);

Comments(
  'paging: newest first by default, oldest first with sortOrder=asc, totals, and the window',
  async ({ app, owner, fan }) => {
    const { uuid } = await publish(app, owner.token, HULK);
    const trpc = app.trpc(fan.token);
    // One after the other, on both surfaces, often in the same millisecond: listed in the order they were written.
    for (let index = 0; index < 30; index++) {
      const content = `comment ${index}`;
      if (index % 2 === 0) assert.is((await post(app, fan.token, uuid, content)).status, 200);
      else await trpc.comment.create.mutate({ targetType: 'assembly', targetId: uuid, content });
      if (index % 10 === 9) app.clock.advance(1000);
    }
    const page = async (query: string) => (await listOf(app, uuid, query)).body.data;
    const first = await page('&page=1&pageSize=12');
    assert.equal(first.pagination, { page: 1, pageSize: 12, total: 30, totalPages: 3 });
    const all = [
      ...first.data,
      ...(await page('&page=2&pageSize=12')).data,
      ...(await page('&page=3&pageSize=12')).data,
    ].map((item: { id: string }) => item.id);
    assert.is(new Set(all).size, 30);
    const contents = async (query: string) => (await page(query)).data.map((item: { content: string }) => item.content);
    assert.equal(await contents('&pageSize=3'), ['comment 29', 'comment 28', 'comment 27']);
    assert.equal(await contents('&pageSize=3&sortOrder=asc'), ['comment 0', 'comment 1', 'comment 2']);
    assert.equal(await contents('&page=10&pageSize=3&sortOrder=asc'), ['comment 27', 'comment 28', 'comment 29']);
    assert.equal((await page('&page=11&pageSize=3')).data, []);
    const viaTrpc = await app
      .trpc()
      .comment.list.query({ targetType: 'assembly', targetId: uuid, page: 2, pageSize: 5, sortOrder: 'asc' });
    assert.equal(
      viaTrpc.data.map((item) => item.content),
      ['comment 5', 'comment 6', 'comment 7', 'comment 8', 'comment 9'],
    );
    // The window, page size and order: 400 naming the field, on both surfaces.
    for (const [query, field] of [
      ['&page=101&pageSize=100', 'page'],
      ['&pageSize=101', 'pageSize'],
      ['&sortOrder=up', 'sortOrder'],
      ['&page=0', 'page'],
    ] as const) {
      const refused = await listOf(app, uuid, query);
      assert.is(refused.status, 400, query);
      assert.is(refused.body.data.issues[0].path, field, query);
    }
    assert.is(
      (
        await trpcError(
          app.trpc().comment.list.query({ targetType: 'assembly', targetId: uuid, page: 101, pageSize: 100 }),
        )
      ).status,
      400,
    );
    assert.is((await app.rest('GET', '/api/user/comments?page=101&pageSize=100', { token: fan.token })).status, 400);
    const mine = await app.trpc(fan.token).comment.mine.query({ pageSize: 4 });
    assert.equal(
      mine.data.map((item) => item.content),
      ['comment 29', 'comment 28', 'comment 27', 'comment 26'],
    );
    assert.equal(mine.pagination, { page: 1, pageSize: 4, total: 30, totalPages: 8 });
  },
);

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

Comments(
  'a private assembly: its creator, or its password; a trashed one: its creator only; an admin deletes any comment',
  async ({ app, owner, fan, other, admin }) => {
    const hidden = await publish(app, owner.token, { ...HULK, isPublic: false, password: 'open-sesame' });
    const secret = { password: 'open-sesame' };
    // Without the password: 403 for strangers and anonymous callers, on both surfaces; with it, or as the creator, 200.
    assert.is((await listOf(app, hidden.uuid)).status, 403);
    assert.is((await listOf(app, hidden.uuid, '', fan.token)).status, 403);
    assert.is((await listOf(app, hidden.uuid, '&password=wrong', fan.token)).status, 403);
    assert.is(
      (await trpcError(app.trpc(fan.token).comment.list.query({ targetType: 'assembly', targetId: hidden.uuid })))
        .status,
      403,
    );
    assert.is((await post(app, fan.token, hidden.uuid, 'let me in')).status, 403);
    assert.is(
      (
        await trpcError(
          app.trpc(fan.token).comment.create.mutate({ targetType: 'assembly', targetId: hidden.uuid, content: 'x' }),
        )
      ).status,
      403,
    );
    const fans = await post(app, fan.token, hidden.uuid, 'I know the password', secret);
    assert.is(fans.status, 200, fans.text);
    const owners = await app
      .trpc(owner.token)
      .comment.create.mutate({ targetType: 'assembly', targetId: hidden.uuid, content: 'Welcome aboard' });
    assert.is(
      (await listOf(app, hidden.uuid, '&password=open-sesame')).body.data.pagination.total,
      2,
      'anonymous with the password',
    );
    assert.is(
      (await app.trpc(owner.token).comment.list.query({ targetType: 'assembly', targetId: hidden.uuid })).pagination
        .total,
      2,
      'the creator',
    );
    // The author edits and deletes with the password too; without it, 403.
    assert.is(
      (
        await app.rest('POST', '/api/comment/edit', {
          token: fan.token,
          body: { id: fans.body.data.id, content: 'edited' },
        })
      ).status,
      403,
    );
    assert.is(
      (
        await app.rest('POST', '/api/comment/edit', {
          token: fan.token,
          body: { id: fans.body.data.id, content: 'edited', ...secret },
        })
      ).status,
      200,
    );
    assert.is(
      (await app.rest('POST', '/api/comment/delete', { token: fan.token, body: { id: fans.body.data.id } })).status,
      403,
    );
    // Your own comments list only what you can read without a password.
    assert.equal(
      (await app.trpc(fan.token).comment.mine.query()).data.filter((item) => item.targetId === hidden.uuid),
      [],
    );
    assert.equal(
      (await app.trpc(owner.token).comment.mine.query()).data
        .filter((item) => item.targetId === hidden.uuid)
        .map((item) => item.id),
      [owners.id],
    );

    // In the trash: the creator still lists its comments; everyone else gets a 404, password or not.
    const trashed = await publish(app, owner.token, HULK);
    const before = (await post(app, fan.token, trashed.uuid, 'before the trash')).body.data;
    const second = (await post(app, fan.token, trashed.uuid, 'another')).body.data;
    const byOther = (await post(app, other.token, trashed.uuid, 'a third')).body.data;
    assert.is(
      (await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: trashed.uuid } })).status,
      200,
    );
    assert.is((await listOf(app, trashed.uuid)).status, 404);
    assert.is((await listOf(app, trashed.uuid, '', fan.token)).status, 404);
    assert.is(
      (await trpcError(app.trpc(fan.token).comment.list.query({ targetType: 'assembly', targetId: trashed.uuid })))
        .status,
      404,
    );
    const ownersView = await listOf(app, trashed.uuid, '', owner.token);
    assert.is(ownersView.status, 200, ownersView.text);
    assert.is(ownersView.body.data.pagination.total, 3);
    // No new comments in the trash, the creator's included; its author cannot edit or delete it there (404, naming the comment only).
    assert.is((await post(app, owner.token, trashed.uuid, 'x')).status, 404);
    assert.is((await post(app, fan.token, trashed.uuid, 'x')).status, 404);
    const hiddenEdit = await app.rest('POST', '/api/comment/edit', {
      token: fan.token,
      body: { id: before.id, content: 'x' },
    });
    assert.is(hiddenEdit.status, 404);
    assert.not.ok(hiddenEdit.text.includes(trashed.uuid), 'does not name the assembly');
    assert.is(
      (await app.rest('POST', '/api/comment/delete', { token: fan.token, body: { id: before.id } })).status,
      404,
    );
    assert.equal(
      (await app.trpc(fan.token).comment.mine.query()).data.filter((item) => item.targetId === trashed.uuid),
      [],
    );
    // The creator and an admin delete there.
    assert.is(
      (await app.rest('POST', '/api/comment/delete', { token: owner.token, body: { id: before.id } })).status,
      200,
    );
    assert.is(
      (await app.rest('POST', '/api/comment/delete', { token: admin.token, body: { id: second.id } })).status,
      200,
    );
    // Restored: the rest is back for everyone, in your own list too.
    assert.is(
      (await app.rest('POST', '/api/assembly/restore', { token: owner.token, body: { uuid: trashed.uuid } })).status,
      200,
    );
    assert.equal(
      (await listOf(app, trashed.uuid)).body.data.data.map((item: { id: string }) => item.id),
      [byOther.id],
    );
    assert.equal(
      (await app.trpc(other.token).comment.mine.query()).data.map((item) => item.id),
      [byOther.id],
    );
    // An admin deletes any comment, on a private assembly too, without its password; an admin's list reads as anyone's.
    assert.is((await listOf(app, hidden.uuid, '', admin.token)).status, 403);
    assert.equal(await app.trpc(admin.token).comment.delete.mutate({ id: owners.id }), {
      id: owners.id,
      deleted: true,
    });
    assert.is(
      (await app.rest('POST', '/api/comment/delete', { token: admin.token, body: { id: byOther.id } })).status,
      200,
    );
    assert.is((await listOf(app, trashed.uuid)).body.data.pagination.total, 0);
  },
);

Comments(
  'comments switched off (attr.isComment false): no new comments or edits (403 comment.disabled); the existing stay listed and can be deleted',
  async ({ app, owner, fan }) => {
    const { uuid } = await publish(app, owner.token, HULK);
    const kept = (await post(app, fan.token, uuid, 'said before')).body.data;
    const other = (await post(app, fan.token, uuid, 'also before')).body.data;
    const setComments = async (isComment: boolean) =>
      assert.is(
        (
          await app.rest('POST', '/api/assembly/attr/edit', {
            token: owner.token,
            body: { uuid, assembly: { attr: { isComment } } },
          })
        ).status,
        200,
      );
    await setComments(false);
    for (const token of [fan.token, owner.token]) {
      const refused = await post(app, token, uuid, 'after');
      assert.is(refused.status, 403, refused.text);
      assert.is(refused.body.data.key, 'comment.disabled');
    }
    const trpcRefused = await trpcError(
      app.trpc(fan.token).comment.create.mutate({ targetType: 'assembly', targetId: uuid, content: 'after' }),
    );
    assert.equal([trpcRefused.status, trpcRefused.data.key], [403, 'comment.disabled']);
    const edit = await app.rest('POST', '/api/comment/edit', {
      token: fan.token,
      body: { id: kept.id, content: 'changed' },
    });
    assert.equal([edit.status, edit.body.data.key], [403, 'comment.disabled']);
    assert.equal(
      (await listOf(app, uuid)).body.data.data.map((item: { content: string }) => item.content),
      ['also before', 'said before'],
    );
    assert.is(
      (await app.rest('POST', '/api/comment/delete', { token: fan.token, body: { id: other.id } })).status,
      200,
    );
    await setComments(true);
    assert.is((await post(app, fan.token, uuid, 'open again')).status, 200);
  },
);

Comments(
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

Comments.run();

const LIMIT = 4;
const Limits = suite<TContext>('comments: the write limit and concurrent deletions, per call');
Limits.before((context) => setUp(context, { RATE_LIMIT_COMMENTS: LIMIT }));
Limits.after(async ({ app }) => app.stop());

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
      const statuses =
        surface === 'REST'
          ? await Promise.all(
              tokens.map((token) =>
                app.rest('POST', '/api/comment/delete', { token, body: { id } }).then((response) => response.status),
              ),
            )
          : await Promise.all(
              tokens.map((token) =>
                statusOf(batchClient(app.url, { token, maxItems: 10 }).client.comment.delete.mutate({ id })),
              ),
            );
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
