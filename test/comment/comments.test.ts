// Comments on assemblies (issue 19): creating, listing, editing and deleting them, your own comments
// (GET /comment/comments, POST /comment, /comment/edit, /comment/delete, GET /user/comments), and paging,
// over HTTP on REST and on native tRPC (real clients). Bad input and errors: comments-input.test.ts; private,
// trashed and switched-off assemblies: comments-access.test.ts; the captcha and the write limit:
// comments-limits.test.ts.
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { users } from '../../db/schema';
import { HULK } from '../support/community-sample';
import { trpcError } from '../support/http-clients';
import { publish } from '../assembly/fixtures';
import { commentsSuite, listOf, post } from './fixtures';

const Comments = commentsSuite('comments: create, list, edit, delete, your comments');

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

Comments.run();
