// Client replay (issue 19): forks and the "Enable likes" switch, as the community web client meets them
// (test/web-client/client-request.ts), against a server with the demo data.
//
// Forks: the client shows a fork's credit on the detail page (src/views/assembly/Detail.vue:197-199, a
// chip linking `/assembly/browse/${detailData.cloningUuid}/detail` when `cloningUuid` is set; the
// field is typed in src/assets/types/Assembly.ts:157). It has no call that makes a fork: its publish
// (Publish.vue:204, assembly_service.ts:18-25) sends uuid, name, description, assembly, wheel and
// warehouse, never `cloningUuid`. Forks are made with POST assembly/fork, called here the way the
// client calls everything (`http.post(url, {data})` with the token in x-access-token), and the fork
// is then what the client's detail, workshop and edit views read and write.
//
// Likes switched off: AssmblySettingWidget.vue:268-277 ("Enable likes", `assembly.attr.isLike`) saved
// by AssemblySettingPanel.vue:93-99; Detail.vue:208 then hides the LikeWidget. A toggle sent anyway
// (an old page, another client) is refused with the envelope code the widget translates (LikeWidget.vue:73-79).
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { send, signIn } from './client-request';

const Client = suite<{ app: TTestServer; captain: string; deckhand: string }>(
  'web client: forks (cloningUuid) and likes switched off',
);

Client.before(async (context) => {
  context.app = await startTestServer({ SEED_DEMO: true });
  context.captain = await signIn(context.app, 'captain');
  context.deckhand = await signIn(context.app, 'deckhand');
});
Client.after(async ({ app }) => app.stop());

/** The newest public assembly of the demo captain, as Browse.vue lists it. */
async function captainsAssembly(app: TTestServer): Promise<string> {
  const page = await send(app, 'GET', 'assembly/list', {
    params: { page: 1, pageSize: 6, sortField: 'createdTime', sortOrder: 'desc' },
  });
  return page.body.data.data.find((item: { username: string }) => item.username === 'captain').uuid;
}

Client(
  'Detail.vue: a fork shows its credit chip, which leads to the original; the original counts the fork',
  async ({ app, deckhand }) => {
    const original = await captainsAssembly(app);
    // Detail.vue:99-139 getAssemblyDetail: `assemblyApi().getAssemblyItem(uuid, {password, force})` (params uuid, password).
    const before = (await send(app, 'GET', 'assembly/item', { params: { uuid: original } })).body.data;
    assert.is(before.cloningUuid, null, 'Detail.vue:197 v-if: no chip on an assembly that is not a fork');
    const forked = await send(app, 'POST', 'assembly/fork', { token: deckhand, data: { uuid: original } });
    assert.is(forked.status, 200, forked.text);
    assert.is(forked.body.code, 200);
    // As after publish (Publish.vue:214-218): the new uuid under `assembly.uuid`.
    const uuid = forked.body.data['assembly.uuid'];
    assert.is(uuid, forked.body.data.uuid);
    const detail = await send(app, 'GET', 'assembly/item', { token: deckhand, params: { uuid } });
    assert.is(detail.status, 200, detail.text);
    const detailData = detail.body.data;
    assert.is(detailData.cloningUuid, original, 'Detail.vue:198 `{{ detailData.cloningUuid }}`');
    assert.equal([detailData.isOwner, detailData.isVisibility, detailData.username], [true, true, 'deckhand']);
    // Detail.vue:197 `:to="/assembly/browse/${detailData.cloningUuid}/detail"`: the original's page.
    const credited = await send(app, 'GET', 'assembly/item', { params: { uuid: detailData.cloningUuid } });
    assert.equal([credited.status, credited.body.data.uuid, credited.body.data.isVisibility], [200, original, true]);
    assert.is(credited.body.data.forkCount, before.forkCount + 1, 'the original counts the fork');
    // Browse.vue's cards are the list items: forkCount is there too.
    const card = (
      await send(app, 'GET', 'assembly/list', {
        params: { page: 1, pageSize: 20, sortField: 'createdTime', sortOrder: 'desc' },
      })
    ).body.data.data.find((item: { uuid: string }) => item.uuid === original);
    assert.is(card.forkCount, before.forkCount + 1);
  },
);

Client('workshop/Index.vue and Publish.vue edit a fork as their own: the credit stays', async ({ app, deckhand }) => {
  const original = await captainsAssembly(app);
  const uuid = (await send(app, 'POST', 'assembly/fork', { token: deckhand, data: { uuid: original } })).body.data.uuid;
  // workshop/Index.vue:101-121: the item in edit mode; isAssemblyByUser = shareData.isOwner (Index.vue:58).
  const shareData = (await send(app, 'GET', 'assembly/item', { token: deckhand, params: { uuid } })).body.data;
  assert.is(shareData.isOwner, true);
  // Publish.vue:84-121 then 166-171: the stored draft's uuid, name, description, tags, assembly.data, wheel and warehouse, edited.
  const publishData = {
    uuid,
    name: `${shareData.name} (my take)`,
    description: shareData.description,
    assembly: {
      visibility: 'publicly',
      tags: shareData.tags,
      attr: { ...shareData.assembly.attr, password: '' },
      data: shareData.assembly.data,
    },
    wheel: { attr: shareData.wheel.attr, data: shareData.wheel.data },
    warehouse: { attr: shareData.warehouse.attr, data: shareData.warehouse.data },
  };
  const edited = await send(app, 'POST', 'assembly/edit', { token: deckhand, data: publishData });
  assert.is(edited.status, 200, edited.text);
  const after = (await send(app, 'GET', 'assembly/item', { params: { uuid } })).body.data;
  assert.equal([after.name, after.cloningUuid], [`${shareData.name} (my take)`, original]);
  assert.is.not(
    (await send(app, 'GET', 'assembly/item', { params: { uuid: original } })).body.data.name,
    after.name,
    'the original is untouched',
  );
});

Client('errors of a fork in the envelope the views translate (basic.tips.<code>)', async ({ app, deckhand }) => {
  const original = await captainsAssembly(app);
  for (const [token, data, code] of [
    [undefined, { uuid: original }, 401],
    [deckhand, { uuid: '00000000-0000-4000-8000-000000000000' }, 404],
    [deckhand, { uuid: 'not-a-uuid' }, 400],
  ] as const) {
    const response = await send(app, 'POST', 'assembly/fork', { token, data });
    assert.equal([response.status, response.body.code], [code, code], JSON.stringify(data));
  }
});

Client(
  '"Enable likes" off: Detail.vue hides the LikeWidget; a toggle sent anyway is a 403; existing likes stay counted',
  async ({ app, captain, deckhand }) => {
    const uuid = await captainsAssembly(app);
    const count = async () =>
      (await send(app, 'GET', `likes/count?targetType=assembly&targetId=${uuid}`)).body.data.likeCount;
    const likes = await count();
    // AssemblySettingPanel.vue:68-99: the settings read with GET assembly/attr, the switch flipped, posted with the uuid.
    const form = (await send(app, 'GET', 'assembly/attr', { token: captain, params: { uuid } })).body.data.data;
    form.assembly.attr.isLike = false;
    if (form.assembly.attr.password === '') delete form.assembly.attr.password;
    const saved = await send(app, 'POST', 'assembly/attr/edit', { token: captain, data: { uuid, ...form } });
    assert.is(saved.status, 200, saved.text);
    const detailData = (await send(app, 'GET', 'assembly/item', { token: deckhand, params: { uuid } })).body.data;
    assert.is(detailData.assembly.attr.isLike, false, 'Detail.vue:208 v-if: no LikeWidget');
    const other = await send(app, 'POST', 'user/signup', {
      data: { username: 'forkfan', email: 'forkfan@example.test', password: 'correct horse battery' },
    });
    assert.is(other.status, 200, other.text);
    const toggled = await send(app, 'POST', 'likes/toggle', {
      token: other.body.data.token,
      data: { userId: other.body.data.userId, targetType: 'assembly', targetId: uuid },
    });
    assert.equal([toggled.status, toggled.body.code, toggled.body.data.key], [403, 403, 'assembly.likesDisabled']);
    assert.is(await count(), likes, 'existing likes stay counted');
    // Switched back on, the widget works again.
    form.assembly.attr.isLike = true;
    assert.is((await send(app, 'POST', 'assembly/attr/edit', { token: captain, data: { uuid, ...form } })).status, 200);
    const again = await send(app, 'POST', 'likes/toggle', {
      token: other.body.data.token,
      data: { targetType: 'assembly', targetId: uuid },
    });
    assert.equal([again.status, again.body.data.isLiked, again.body.data.likeCount], [200, true, likes + 1]);
  },
);

Client.run();
