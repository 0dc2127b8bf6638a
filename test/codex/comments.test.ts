// Comments on codex entries (issue 34): the same mechanism as an assembly's (GET /comment/comments,
// POST /comment, /comment/edit, /comment/delete, GET /user/comments), on every codex target type, over
// HTTP on REST and on native tRPC. A codex entry is public and has no creator: its comments are
// moderated by their authors and the admins; an id the imported data set lacks is a 404.
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { suite } from '../support/suite';
import { publish, type TUser } from '../assembly/fixtures';
import { CODEX_TARGETS, importCarriedData } from './fixtures';

interface TContext {
  app: TTestServer;
  author: TUser;
  other: TUser;
  admin: TUser;
}

const Codex = suite<TContext>('comments on codex entries: every target type, both surfaces');
Codex.before(async (context) => {
  context.app = await startTestServer();
  await importCarriedData(context.app);
  context.admin = await signUpAdmin(context.app);
  context.author = await context.app.signUp();
  context.other = await context.app.signUp();
});
Codex.after(async ({ app }) => app.stop());

const list = (app: TTestServer, targetType: string, targetId: string) =>
  app.rest('GET', `/api/comment/comments?targetType=${targetType}&targetId=${encodeURIComponent(targetId)}`);

Codex(
  'every codex target type: post, list, edit on REST and tRPC, kept under the type of the entry found',
  async ({ app, author }) => {
    for (const { targetType, targetId, stored } of CODEX_TARGETS) {
      const label = `${targetType} ${targetId}`;
      const created = await app.rest('POST', '/api/comment', {
        token: author.token,
        body: { targetType, targetId, content: `On ${label}`, captcha: {} },
      });
      assert.is(created.status, 200, `${label}: ${created.text}`);
      assert.equal([created.body.data.targetType, created.body.data.targetId], [stored, targetId], label);
      const viaTrpc = await app
        .trpc(author.token)
        .comment.create.mutate({ targetType: targetType as 'ship', targetId, content: `Again on ${label}` });
      assert.is(viaTrpc.targetType, stored);
      // Listed by the type the page sends, and by the type it is kept under: one list.
      for (const type of new Set([targetType, stored])) {
        const listed = await list(app, type, targetId);
        assert.is(listed.status, 200, listed.text);
        assert.equal(
          listed.body.data.data.map((comment: { content: string }) => comment.content).slice(0, 2),
          [`Again on ${label}`, `On ${label}`],
          `${label} listed as ${type}`,
        );
        assert.equal(await app.trpc().comment.list.query({ targetType: type as 'ship', targetId }), listed.body.data);
      }
      const edited = await app.rest('POST', '/api/comment/edit', {
        token: author.token,
        body: { id: created.body.data.id, content: `Edited on ${label}` },
      });
      assert.is(edited.status, 200, edited.text);
      assert.is((await app.trpc(author.token).comment.edit.mutate({ id: viaTrpc.id, content: 'x' })).content, 'x');
    }
  },
);

Codex(
  'moderation: the author and the admins delete; nobody else, since a codex entry has no creator',
  async ({ app, author, other, admin }) => {
    const post = async (content: string) =>
      (
        await app.rest('POST', '/api/comment', {
          token: author.token,
          body: { targetType: 'ship', targetId: 'bedar', content },
        })
      ).body.data.id as string;
    const [first, second, third] = [await post('one'), await post('two'), await post('three')];
    const refused = await app.rest('POST', '/api/comment/delete', { token: other.token, body: { id: first } });
    assert.equal([refused.status, refused.body.data.key], [403, 'request.forbidden']);
    assert.is((await trpcError(app.trpc(other.token).comment.delete.mutate({ id: first }))).status, 403);
    assert.is(
      (await app.rest('POST', '/api/comment/edit', { token: other.token, body: { id: first, content: 'x' } })).status,
      403,
    );
    assert.is(
      (await trpcError(app.trpc(admin.token).comment.edit.mutate({ id: first, content: 'x' }))).status,
      403,
      "editing stays the author's",
    );
    assert.is(
      (await app.rest('POST', '/api/comment/delete', { token: author.token, body: { id: first } })).status,
      200,
    );
    assert.is(
      (await app.rest('POST', '/api/comment/delete', { token: admin.token, body: { id: second } })).status,
      200,
    );
    assert.equal(await app.trpc(admin.token).comment.delete.mutate({ id: third }), { id: third, deleted: true });
    assert.is((await list(app, 'ship', 'bedar')).body.data.pagination.total, 0);
  },
);

Codex(
  'a codex entry is public: anyone reads its comments, no password; an id the data set lacks is a 404',
  async ({ app, author }) => {
    await app.rest('POST', '/api/comment', {
      token: author.token,
      body: { targetType: 'mod', targetId: 'direElectric', content: 'Public' },
    });
    const anonymous = await list(app, 'mod', 'direElectric');
    assert.equal([anonymous.status, anonymous.body.data.data[0].content], [200, 'Public']);
    for (const [targetType, targetId] of [
      ['ship', 'noSuchShip'],
      ['item', 'noSuchItem'],
      // Each type finds its own kinds only: a ship's id is no cosmetic.
      ['cosmetic', 'dhow'],
    ]) {
      const missing = await list(app, targetType!, targetId!);
      assert.equal([missing.status, missing.body.data.key], [404, 'request.notFound'], `${targetType} ${targetId}`);
      assert.is(missing.body.message, `Codex ${targetType} "${targetId}" not found`);
      const posted = await app.rest('POST', '/api/comment', {
        token: author.token,
        body: { targetType, targetId, content: 'x' },
      });
      assert.is(posted.status, 404);
      assert.is(
        (await trpcError(app.trpc().comment.list.query({ targetType: targetType as 'ship', targetId: targetId! })))
          .status,
        404,
      );
    }
    // A codex id's form: 1-100 of letters, digits, _ . -.
    const bad = await app.rest('POST', '/api/comment', {
      token: author.token,
      body: { targetType: 'ship', targetId: 'no such ship', content: 'x' },
    });
    assert.equal([bad.status, bad.body.data.issues[0].path], [400, 'targetId']);
  },
);

Codex('user/comments lists yours across target types, newest first, each with its target', async ({ app }) => {
  const fan = await app.signUp();
  const { uuid, name } = await publish(app, fan.token, {
    name: 'Talked-about dhow',
    shipId: 'dhow',
    weapons: [],
  });
  const say = async (targetType: string, targetId: string, content: string) => {
    app.clock.advance(1000);
    const response = await app.rest('POST', '/api/comment', {
      token: fan.token,
      body: { targetType, targetId, content },
    });
    assert.is(response.status, 200, response.text);
  };
  await say('assembly', uuid, 'on my assembly');
  await say('ship', 'dhow', 'on the dhow');
  await say('item', 'cookery', 'on the cookery, from the NPC page');
  const mine = await app.rest('GET', '/api/user/comments', { token: fan.token });
  assert.is(mine.status, 200, mine.text);
  assert.equal(
    mine.body.data.data.map((comment: any) => [comment.targetType, comment.targetId, comment.target, comment.assembly]),
    [
      ['npc', 'cookery', { type: 'npc', id: 'cookery', name: 'Cookery' }, null],
      ['ship', 'dhow', { type: 'ship', id: 'dhow', name: 'Dhow' }, null],
      ['assembly', uuid, { type: 'assembly', id: uuid, name }, { uuid, name }],
    ],
  );
  assert.equal(mine.body.data.pagination.total, 3);
  assert.equal(await app.trpc(fan.token).comment.mine.query(), mine.body.data);
});

Codex.run();
