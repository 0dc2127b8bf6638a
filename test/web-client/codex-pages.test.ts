// Client replay (issue 34): every codex page of the community web client (src/views/codex/*/Detail.vue)
// mounts the like button (src/components/LikeWidget.vue through stores/likeStore.ts) and the comment
// widget (src/components/CommentWidget.vue through comment_service.ts) with its own target type and
// the entry's id (glow-prow-data's entity `id`). Each page's calls are sent here as the client sends
// them (test/web-client/client-request.ts), against a server with the demo data, and every field the
// client reads is asserted where it reads it: likeStore.ts reads `isLiked` and `likeCount` at the top
// level of the body (:25, :47, :66), the widget `d.data.data` (CommentWidget.vue:64).
import * as assert from 'uvu/assert';
import { suite } from '../support/suite';
import { send, startDemoClient, type TDemoClient } from './client-request';

/**
 * Each page: its file (under src/views/codex/), the line of its LikeWidget and its targetType, the line
 * of its CommentWidget and its type, and an entry's id as the page sends it (`xDetailData.id`).
 */
const PAGES = [
  { page: 'ships/Detail.vue', like: [180, 'ship'], comment: [297, 'ship'], id: 'dhow' },
  { page: 'items/Detail.vue', like: [226, 'item'], comment: [428, 'item'], id: 'culverin1' },
  { page: 'commodities/Detail.vue', like: [169, 'commoditie'], comment: [242, 'commoditie'], id: 'cloves' },
  { page: 'cosmetics/Detail.vue', like: [107, 'cosmetic'], comment: [166, 'cosmetic'], id: 'crownedPrince' },
  // Its CommentWidget says treasureMap (mapLocations/Detail.vue:149): the location's comments are found by its id.
  { page: 'mapLocations/Detail.vue', like: [91, 'mapLocation'], comment: [149, 'treasureMap'], id: 'laBastide' },
  { page: 'materials/Detail.vue', like: [109, 'material'], comment: [168, 'material'], id: 'silver' },
  { page: 'modifications/Detail.vue', like: [98, 'mod'], comment: [164, 'mod'], id: 'direPiercing' },
  // Its LikeWidget says item (npcs/Detail.vue:160); the id is the entry's `id` (Npc.fromRawData), shared by
  // smugglersNetwork-sainteAnne and smugglersNetwork-telokPenjarah in npcs.json.
  { page: 'npcs/Detail.vue', like: [160, 'item'], comment: [250, 'npc'], id: 'smugglersNetwork' },
  { page: 'sets/Detail.vue', like: [153, 'set'], comment: [226, 'set'], id: 'crownedPrince' },
  {
    page: 'treasureMaps/Detail.vue',
    like: [117, 'treasureMap'],
    comment: [194, 'treasureMap'],
    id: 'dragonsBack-old-1',
  },
  { page: 'ultimates/Detail.vue', like: [129, 'ultimate'], comment: [185, 'ultimate'], id: 'hunter' },
] as const;

const Client = suite<TDemoClient>('web client: comments and likes on every codex page');

Client.before(startDemoClient);
Client.after(async ({ app }) => app.stop());

for (const { page, like, comment, id } of PAGES) {
  Client(
    `${page}: LikeWidget (:${like[0]}, ${like[1]}) and CommentWidget (:${comment[0]}, ${comment[1]})`,
    async ({ app, deckhand, deckhandId, captain }) => {
      const [, likeType] = like;
      const [, commentType] = comment;
      // LikeWidget.vue:47 onReady → likeStore.ts:23 checkLike: `httpToken.get('likes/check?targetType=…&targetId=…')`, reads `result.data.isLiked` (:25).
      const checked = await send(app, 'GET', `likes/check?targetType=${likeType}&targetId=${id}`, { token: deckhand });
      assert.is(checked.status, 200, checked.text);
      assert.is(checked.body.isLiked, false, 'likeStore.ts:25 isLiked at the top level');
      // LikeWidget.vue:48 → likeStore.ts:65 getLikeCount: `http.get('likes/count?…')` without the token, reads `result.data.likeCount` (:66).
      const counted = await send(app, 'GET', `likes/count?targetType=${likeType}&targetId=${id}`);
      assert.is(counted.status, 200, counted.text);
      assert.is(counted.body.likeCount, 0, 'likeStore.ts:66 likeCount at the top level');
      // LikeWidget.vue:70 handleLike → likeStore.ts:44-47 toggleLike: `httpToken.post('likes/toggle', {data: {userId, targetType, targetId}})`;
      // the codex pages pass no userId prop, so it is undefined and JSON leaves it out.
      const toggled = await send(app, 'POST', 'likes/toggle', {
        token: deckhand,
        data: { targetType: likeType, targetId: id },
      });
      assert.is(toggled.status, 200, toggled.text);
      assert.is(toggled.body.isLiked, true, 'likeStore.ts:47');
      // LikeWidget.vue:71: the count again; another reader sees it too.
      assert.is((await send(app, 'GET', `likes/count?targetType=${likeType}&targetId=${id}`)).body.likeCount, 1);
      const captainsToggle = await send(app, 'POST', 'likes/toggle', {
        token: captain,
        data: { userId: undefined, targetType: likeType, targetId: id },
      });
      assert.equal([captainsToggle.body.isLiked, captainsToggle.body.likeCount], [true, 2]);
      assert.is(
        (await send(app, 'GET', `likes/check?targetType=${likeType}&targetId=${id}`, { token: deckhand })).body.isLiked,
        true,
      );

      // CommentWidget.vue:60-66 getComment (mounted for everyone): `getComments({targetId: props.id, targetType: props.type})`, then `d.data.data`.
      const widgetList = async (token?: string) => {
        const result = await send(app, 'GET', 'comment/comments', {
          token,
          params: { targetId: id, targetType: commentType },
        });
        assert.is(result.status, 200, result.text);
        return result.body.data.data as any[];
      };
      assert.equal(await widgetList(), []);
      // CommentWidget.vue:92-98 onPushComment: createComment({targetId, targetType, content, captcha}); `captcha` is {} until answered (:34); reads d.data.id.
      const content = `A word on ${id}`;
      const created = await send(app, 'POST', 'comment', {
        token: deckhand,
        data: { targetId: id, targetType: commentType, content, captcha: {} },
      });
      assert.is(created.status, 200, created.text);
      assert.type(created.body.data.id, 'string', 'd.data.id');
      // The timeline (CommentWidget.vue:196-260): i.username, i.createdTime, i.content, i.userId against authStore.user.userId.
      const [shown] = await widgetList(deckhand);
      assert.equal(
        [shown.id, shown.username, shown.content, shown.userId],
        [created.body.data.id, 'deckhand', content, deckhandId],
      );
      assert.ok(!Number.isNaN(Date.parse(shown.createdTime)));
      // CommentWidget.vue:161 onEditComment: `editComment(id, {content})` → POST comment/edit {id, content}; reads d.code.
      const edited = await send(app, 'POST', 'comment/edit', {
        token: deckhand,
        data: { id: shown.id, content: `${content}, edited` },
      });
      assert.equal([edited.status, edited.body.code], [200, 200]);
      assert.is((await widgetList()).at(0).content, `${content}, edited`);
      // account/comments.vue:30-34 getUserComments: `d.data` then `.data[]` with targetType, targetId (the page's link and icon).
      const mine = (await send(app, 'GET', 'user/comments', { token: deckhand })).body.data.data[0];
      assert.equal([mine.targetId, mine.content], [id, `${content}, edited`]);
      // CommentWidget.vue:130 onDeleteComment: POST comment/delete {id}; `d.error == 1` stops (:133), else reload.
      const deleted = await send(app, 'POST', 'comment/delete', { token: deckhand, data: { id: shown.id } });
      assert.equal(
        [deleted.status, deleted.body.code, (deleted.body as { error?: unknown }).error],
        [200, 200, undefined],
      );
      assert.equal(await widgetList(), []);
    },
  );
}

Client(
  'a page of an entry the data set lacks: the widgets get a 404 they translate (basic.tips.404)',
  async ({ app, deckhand }) => {
    const likes = await send(app, 'GET', 'likes/check?targetType=ship&targetId=flyingDutchman', { token: deckhand });
    assert.equal([likes.status, likes.body.code], [404, 404]);
    const comments = await send(app, 'GET', 'comment/comments', {
      params: { targetId: 'flyingDutchman', targetType: 'ship' },
    });
    assert.equal([comments.status, comments.body.code], [404, 404]);
  },
);

Client.run();
