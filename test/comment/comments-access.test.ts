// Comments on assemblies (issue 19): who reads and writes them: a private assembly (its creator, or its
// password), a trashed one (its creator only), an admin (deletes any comment), and an assembly whose comments
// are switched off (attr.isComment false); over HTTP on REST and on native tRPC (real clients).
import * as assert from 'uvu/assert';
import { HULK } from '../support/community-sample';
import { trpcError } from '../support/http-clients';
import { publish } from '../assembly/fixtures';
import { commentsSuite, listOf, post } from './fixtures';

const Comments = commentsSuite('comments: private, trashed and switched-off assemblies, admins');

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

Comments.run();
