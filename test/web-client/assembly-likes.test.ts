// Client replay (issue 19): the community web client's likes and display-settings calls, sent as it
// sends them (test/web-client/client-request.ts), against a server with the demo data. Likes:
// stores/likeStore.ts (checkLike, toggleLike, getLikeCount), used by src/components/LikeWidget.vue
// on the detail page (src/views/assembly/Detail.vue:207-217) and `isLiked` on the Browse cards
// (Browse.vue:258). Settings: src/components/AssemblySettingPanel.vue:68-99 with
// assembly_service.ts:96-125. docs/compatibility.md ("Assemblies") lists the same fields.
//
// likeStore.ts reads `result.data.isLiked` / `result.data.likeCount` of the raw axios response, the
// body's top level: Tidewatch answers them inside the envelope's `data` and, since issue 34, beside it
// at the top level too (docs/compatibility.md, "Fields beside the envelope").
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import type { TTestServer } from '../support/helpers';
import { send, signIn, startDemoClient, type TDemoClient } from './client-request';

const Client = suite<TDemoClient>('web client: likes and display settings of assemblies');

Client.before(startDemoClient);
Client.after(async ({ app }) => app.stop());

async function captainsAssembly(app: TTestServer): Promise<string> {
  const page = await send(app, 'GET', 'assembly/list', {
    params: { page: 1, pageSize: 6, sortField: 'createdTime', sortOrder: 'desc' },
  });
  return page.body.data.data.find((item: { username: string }) => item.username === 'captain').uuid;
}

Client(
  'LikeWidget: check and count on mount, toggle on click; Browse shows isLiked and likes',
  async ({ app, deckhand, deckhandId }) => {
    const uuid = await captainsAssembly(app);
    // LikeWidget.vue:47-48 onReady: likeStore.checkLike (`httpToken.get('likes/check?targetType=…&targetId=…')`), then getLikeCount (`http.get`, no token).
    const checked = await send(app, 'GET', `likes/check?targetType=assembly&targetId=${uuid}`, { token: deckhand });
    assert.is(checked.status, 200, checked.text);
    assert.is(checked.body.data.isLiked, true, 'likeStore.ts checkLike: isLiked (the demo deckhand likes it)');
    assert.is(checked.body.isLiked, true, 'likeStore.ts:25 reads it at the top level of the body');
    const counted = await send(app, 'GET', `likes/count?targetType=assembly&targetId=${uuid}`);
    assert.is(counted.status, 200, counted.text);
    const before = counted.body.data.likeCount;
    assert.type(before, 'number', 'likeStore.ts getLikeCount: likeCount');
    assert.is(counted.body.likeCount, before, 'likeStore.ts:66 reads it at the top level of the body');
    // LikeWidget.vue:70-71 handleLike: toggleLike (`httpToken.post('likes/toggle', {data: {userId, targetType, targetId}})`, userId = authStore.user.userId, Detail.vue:210), then the count again.
    const toggled = await send(app, 'POST', 'likes/toggle', {
      token: deckhand,
      data: { userId: deckhandId, targetType: 'assembly', targetId: uuid },
    });
    assert.is(toggled.status, 200, toggled.text);
    assert.is(toggled.body.code, 200);
    assert.is(toggled.body.data.isLiked, false, 'likeStore.ts toggleLike: isLiked');
    assert.is(toggled.body.isLiked, false, 'likeStore.ts:47 reads it at the top level of the body');
    assert.is(
      (await send(app, 'GET', `likes/count?targetType=assembly&targetId=${uuid}`)).body.data.likeCount,
      before - 1,
    );
    assert.is(
      (await send(app, 'GET', `likes/check?targetType=assembly&targetId=${uuid}`, { token: deckhand })).body.data
        .isLiked,
      false,
    );
    // A second click likes it again.
    const again = await send(app, 'POST', 'likes/toggle', {
      token: deckhand,
      data: { userId: deckhandId, targetType: 'assembly', targetId: uuid },
    });
    assert.equal([again.body.data.isLiked, again.body.data.likeCount], [true, before]);
    // Browse.vue:258-259 (`i.isLiked`, `i.likes`): the deckhand's own like, and nobody else's.
    const card = async (token?: string) =>
      (
        await send(app, 'GET', 'assembly/list', {
          token,
          params: { page: 1, pageSize: 6, sortField: 'createdTime', sortOrder: 'desc' },
        })
      ).body.data.data.find((item: { uuid: string }) => item.uuid === uuid);
    assert.equal([(await card(deckhand)).isLiked, (await card(deckhand)).likes], [true, before]);
    assert.is((await card()).isLiked, false, 'anonymous');
    // Detail.vue reads the item; isLiked is the caller's there too.
    assert.is((await send(app, 'GET', 'assembly/item', { token: deckhand, params: { uuid } })).body.data.isLiked, true);
    // Errors: the envelope's numeric code, translated as basic.tips.<code> (LikeWidget.vue:50-56, 73-79).
    const own = await send(app, 'POST', 'likes/toggle', {
      token: await signIn(app, 'captain'),
      data: { targetType: 'assembly', targetId: uuid },
    });
    assert.equal([own.status, own.body.code], [403, 403]);
  },
);

Client(
  'AssemblySettingPanel: GET assembly/attr into the form, POST assembly/attr/edit with it, read back',
  async ({ app, captain }) => {
    const uuid = await captainsAssembly(app);
    // AssemblySettingPanel.vue:68-71: `Object.assign(settingData, d.data.data)`.
    const read = async () =>
      (await send(app, 'GET', 'assembly/attr', { token: captain, params: { uuid } })).body.data.data;
    const settingData = {
      assembly: { visibility: 'publicly', attr: { password: '', language: ['en_US'], assemblyUseVersion: '0.0.2' } },
      wheel: { attr: { wheelUseVersion: '0.0.1' } },
      warehouse: { attr: { warehouseUseVersion: '0.0.1' } },
    };
    const form: any = Object.assign(settingData, await read());
    // The switches of AssmblySettingWidget.vue:128-340.
    Object.assign(form.assembly.attr, {
      language: ['en_US', 'zh_CN'],
      isShowItemName: true,
      isFullName: false,
      isAnonymous: false,
      isComment: false,
      isLike: true,
      backgroundPresentation: 'https://example.com/bg.png',
    });
    form.wheel.attr.wheelUseVersion = '0.0.2';
    // AssemblySettingPanel.vue:93-96: a password of '' is deleted before sending.
    if (form.assembly.attr.password === '') delete form.assembly.attr.password;
    // AssemblySettingPanel.vue:99 → assembly_service.ts:112-119: `http.post('assembly/attr/edit', {data: {uuid, ...attrData}})`; read at 102 (`d.code`).
    const edited = await send(app, 'POST', 'assembly/attr/edit', { token: captain, data: { uuid, ...form } });
    assert.is(edited.status, 200, edited.text);
    assert.is(edited.body.code, 200, 'AssemblySettingPanel.vue:102 basic.tips.200');
    const back = await read();
    assert.is(back.assembly.visibility, 'publicly');
    assert.equal(back.assembly.attr, { ...form.assembly.attr, password: '' });
    assert.equal(back.wheel.attr, { wheelUseVersion: '0.0.2' });
    assert.is(back.password, false);
    // Detail.vue:208 shows the like button from assembly.attr.isLike; the loadout is untouched.
    const item = (await send(app, 'GET', 'assembly/item', { params: { uuid } })).body.data;
    assert.is(item.assembly.attr.isLike, true);
    assert.is(item.assembly.attr.backgroundPresentation, 'https://example.com/bg.png');
    assert.ok(item.assembly.data.shipSlot, 'the loadout is kept');
    // Someone else's settings: the numeric code the panel translates.
    const refused = await send(app, 'POST', 'assembly/attr/edit', {
      token: await signIn(app, 'deckhand'),
      data: { uuid, ...form },
    });
    assert.equal([refused.status, refused.body.code], [403, 403]);
  },
);

Client.run();
