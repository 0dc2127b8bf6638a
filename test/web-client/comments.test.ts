// Client replay (issue 19): the community web client's comment calls, sent as it sends them
// (test/web-client/client-request.ts), against a server with the demo data. CommentWidget.vue (on the
// assembly page, src/views/assembly/Detail.vue:288) calls comment_service.ts getComments,
// createComment (with the SVG captcha of src/components/captcha), editComment and deleteComment;
// src/views/user/account/comments.vue calls user_service.ts getUserComments. docs/compatibility.md
// ("Comments") and docs/comments.md list the same fields.
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { openSvgAnswer } from '../../server/domains/captcha/service';
import { startTestServer, type TTestServer } from '../support/helpers';
import { DEMO_PASSWORD, send, signIn } from './client-request';

const HMAC_KEY = 'web-client-comments-key-0123';

const Client = suite<{ app: TTestServer; captain: string; deckhand: string; deckhandId: string; uuid: string }>(
  'web client: comments on assemblies',
);

Client.before(async (context) => {
  context.app = await startTestServer({ SEED_DEMO: true, CAPTCHA_HMAC_KEY: HMAC_KEY });
  context.captain = await signIn(context.app, 'captain');
  // stores/userAccountStore.ts keeps the sign-in answer: token and userId (authStore.user.userId).
  const deckhand = await send(context.app, 'POST', 'user/signin', {
    data: { username: 'deckhand', password: DEMO_PASSWORD, captcha: {} },
  });
  assert.is(deckhand.status, 200, deckhand.text);
  context.deckhand = deckhand.body.data.token;
  context.deckhandId = deckhand.body.data.userId;
  const page = await send(context.app, 'GET', 'assembly/list', {
    params: { page: 1, pageSize: 6, sortField: 'createdTime', sortOrder: 'desc' },
  });
  context.uuid = page.body.data.data.find((item: { username: string }) => item.username === 'captain').uuid;
});
Client.after(async ({ app }) => app.stop());

/** The captcha widget (src/components/captcha/svg.vue): GET captcha?t=…, the person reads the picture. */
async function solveWidget(app: TTestServer) {
  const { hash } = (await send(app, 'GET', 'captcha', { params: { t: Math.random() } })).body.data;
  return { captchaType: 'svg', encryptCaptcha: hash, response: openSvgAnswer(HMAC_KEY, hash)!.text };
}

/** CommentWidget.vue:56-66 getComment: `getComments({targetId: props.id, targetType: props.type})`, then `commentListData = d.data.data`. */
async function widgetList(app: TTestServer, uuid: string, token?: string) {
  const result = await send(app, 'GET', 'comment/comments', {
    token,
    params: { targetId: uuid, targetType: 'assembly' },
  });
  assert.is(result.status, 200, result.text);
  const d = result.body;
  return d.data.data as any[];
}

Client(
  'CommentWidget: list on mount, post with the captcha, edit and delete your own',
  async ({ app, deckhand, deckhandId, uuid }) => {
    // Mounted for everyone, signed in or not (CommentWidget.vue:48-50).
    const before = await widgetList(app, uuid);
    // onPushComment (CommentWidget.vue:82-104): createComment({targetId, targetType, content, captcha}); d.data.id is pushed to the list.
    const content = 'Good use of the demi-cannons <b>here</b>';
    const created = await send(app, 'POST', 'comment', {
      token: deckhand,
      data: { targetId: uuid, targetType: 'assembly', content, captcha: await solveWidget(app) },
    });
    assert.is(created.status, 200, created.text);
    assert.is(created.body.code, 200);
    const id = created.body.data.id;
    assert.type(id, 'string', 'd.data.id');
    // The timeline (CommentWidget.vue:196-260) reads i.username, i.createdTime, i.content, and i.userId against authStore.user.userId.
    const list = await widgetList(app, uuid, deckhand);
    assert.is(list.length, before.length + 1);
    const shown = list.find((item) => item.id === id);
    assert.is(shown.username, 'deckhand');
    assert.ok(!Number.isNaN(Date.parse(shown.createdTime)), 'createdTime for <Time>');
    assert.is(shown.content, content, 'the text as written: the widget shows it, the API never renders it');
    assert.is(shown.userId, deckhandId, 'edit and delete buttons show for the author');
    // The client's Comment type (src/assets/types/Comment.ts) names userName and createTime: both are there too.
    assert.equal([shown.userName, shown.createTime], ['deckhand', shown.createdTime]);
    // onEditComment (CommentWidget.vue:154-176): editComment(id, {content}) → POST comment/edit {id, content}; reads d.code.
    const edited = await send(app, 'POST', 'comment/edit', {
      token: deckhand,
      data: { id, content: 'Good use of the demi-cannons' },
    });
    assert.is(edited.status, 200, edited.text);
    assert.is(edited.body.code, 200, 'basic.tips.200');
    assert.is((await widgetList(app, uuid)).find((item) => item.id === id).content, 'Good use of the demi-cannons');
    // onDeleteComment (CommentWidget.vue:123-146): POST comment/delete {id}; `d.error == 1` stops, else reload and basic.tips.<d.code>.
    const deleted = await send(app, 'POST', 'comment/delete', { token: deckhand, data: { id } });
    assert.is(deleted.status, 200, deleted.text);
    assert.not.equal((deleted.body as { error?: unknown }).error, 1);
    assert.is(deleted.body.code, 200);
    assert.is((await widgetList(app, uuid)).length, before.length);
  },
);

Client(
  'the untouched captcha widget ({}) is no answer; a reused answer is refused with a code the widget translates',
  async ({ app, deckhand, uuid }) => {
    // CommentWidget.vue:34 starts with `captcha = ref({})`.
    const untouched = await send(app, 'POST', 'comment', {
      token: deckhand,
      data: { targetId: uuid, targetType: 'assembly', content: 'No captcha typed', captcha: {} },
    });
    assert.is(untouched.status, 200, untouched.text);
    const captcha = await solveWidget(app);
    assert.is(
      (
        await send(app, 'POST', 'comment', {
          token: deckhand,
          data: { targetId: uuid, targetType: 'assembly', content: 'First', captcha },
        })
      ).status,
      200,
    );
    const reused = await send(app, 'POST', 'comment', {
      token: deckhand,
      data: { targetId: uuid, targetType: 'assembly', content: 'Second', captcha },
    });
    // The widget shows t(`basic.tips.${e.code}`) (CommentWidget.vue:105-110); data.key says which.
    assert.equal([reused.status, reused.body.code, reused.body.data.key], [400, 400, 'captcha.wrong']);
    // Not signed in: the widget shows the sign-in prompt instead of the form (CommentWidget.vue:296-304); the API answers 401.
    assert.is(
      (
        await send(app, 'POST', 'comment', {
          data: { targetId: uuid, targetType: 'assembly', content: 'x', captcha: {} },
        })
      ).status,
      401,
    );
    // The codex pages mount the same widget with other target types (test/web-client/codex-pages.test.ts):
    // an id the community data set does not have is a 404 the widget translates.
    const codex = await send(app, 'GET', 'comment/comments', { params: { targetId: 'cannon', targetType: 'item' } });
    assert.equal([codex.status, codex.body.code], [404, 404]);
  },
);

Client(
  'comments switched off in the settings widget: posting is refused with comment.disabled, the list stays',
  async ({ app, captain, deckhand, uuid }) => {
    const listed = (await widgetList(app, uuid)).length;
    // AssemblySettingPanel.vue:99 → POST assembly/attr/edit with the isComment switch off (AssmblySettingWidget.vue).
    assert.is(
      (
        await send(app, 'POST', 'assembly/attr/edit', {
          token: captain,
          data: { uuid, assembly: { attr: { isComment: false } } },
        })
      ).status,
      200,
    );
    const refused = await send(app, 'POST', 'comment', {
      token: deckhand,
      data: { targetId: uuid, targetType: 'assembly', content: 'Too late', captcha: {} },
    });
    assert.equal([refused.status, refused.body.code, refused.body.data.key], [403, 403, 'comment.disabled']);
    assert.is((await widgetList(app, uuid)).length, listed);
    // Detail.vue:286 mounts the widget only when the item's assembly.attr.isComment is true.
    assert.is((await send(app, 'GET', 'assembly/item', { params: { uuid } })).body.data.assembly.attr.isComment, false);
    assert.is(
      (
        await send(app, 'POST', 'assembly/attr/edit', {
          token: captain,
          data: { uuid, assembly: { attr: { isComment: true } } },
        })
      ).status,
      200,
    );
  },
);

Client(
  'account/comments.vue: getUserComments lists your own comments with their targets',
  async ({ app, deckhand, uuid }) => {
    const created = await send(app, 'POST', 'comment', {
      token: deckhand,
      data: { targetId: uuid, targetType: 'assembly', content: 'For my list', captcha: {} },
    });
    assert.is(created.status, 200, created.text);
    // user_service.ts:172-176: `http.get('user/comments', {params: {...pagination}})`, no pagination from the view (comments.vue:30).
    const result = await send(app, 'GET', 'user/comments', { token: deckhand });
    assert.is(result.status, 200, result.text);
    // comments.vue:32-34: userCommentData = d.data; the cards read userCommentData.data[] (i.targetType, i.targetId, i.content).
    const userCommentData = result.body.data;
    const card = userCommentData.data[0];
    assert.equal([card.targetType, card.targetId, card.content], ['assembly', uuid, 'For my list']);
    assert.is(card.assembly.uuid, uuid);
    assert.type(card.assembly.name, 'string');
    assert.ok(userCommentData.pagination.total >= 1);
    // With the client's PaginationParams (strings or numbers).
    const paged = await send(app, 'GET', 'user/comments', { token: deckhand, params: { page: '1', pageSize: '2' } });
    assert.equal([paged.status, paged.body.data.pagination.pageSize], [200, 2]);
  },
);

Client.run();
