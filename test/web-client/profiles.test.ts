// Client replay (issue 19): the community web client's profile calls, sent as it sends them
// (test/web-client/client-request.ts), against a server with the demo data. Calls:
// src/assets/sripts/api/user_service.ts (updateMeAttr :67, changePassword :99, changeAlternativeName
// :114, getUserAssemblys :153, getUserLikes :189) and assembly_service.ts:129 (getUserAssemblies);
// views: src/views/user/account/Information.vue (profile form), account/assemblys.vue, Space.vue.
// docs/compatibility.md ("Users") lists the same fields.
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { DEMO_PASSWORD, send, signIn } from './client-request';

const Client = suite<{ app: TTestServer; deckhand: string; deckhandId: string; captainId: string }>(
  "web client: profiles, a user's assemblies and likes",
);

Client.before(async (context) => {
  context.app = await startTestServer({ SEED_DEMO: true });
  context.deckhand = await signIn(context.app, 'deckhand');
  context.deckhandId = (await send(context.app, 'GET', 'user/me', { token: context.deckhand })).body.data.id;
  context.captainId = (
    await send(context.app, 'GET', 'user/me', { token: await signIn(context.app, 'captain') })
  ).body.data.id;
});
Client.after(async ({ app }) => app.stop());

Client(
  'Information.vue: the profile form sends attr back with language picked from the combobox; user/me and user/info read it',
  async ({ app, deckhand, deckhandId }) => {
    // getUserAccount (:75-78): `userAccountData.value = d.data`; the form edits attr.introduction (:314) and attr.language (:299).
    const me = (await send(app, 'GET', 'user/me', { token: deckhand })).body.data;
    const attr: Record<string, unknown> = {
      ...me.attr,
      introduction: 'Deckhand of the Red Isle. Ask for the hulk.',
      language: { label: 'English', value: 'en-US' },
    };
    // onSaveAccountAttr (:127-135): `if (attr.language) attr.language = attr.language.value`, then updateMeAttr(attr): `http.post('user/me', {data: {attr}})`.
    if (attr.language) attr.language = (attr.language as { value: string }).value;
    const saved = await send(app, 'POST', 'user/me', { token: deckhand, data: { attr } });
    assert.is(saved.status, 200, saved.text);
    assert.is(saved.body.code, 200, 'notice.success(t(`basic.tips.` + result.code)): what Information.vue shows');
    const after = (await send(app, 'GET', 'user/me', { token: deckhand })).body.data;
    assert.equal(after.attr, { introduction: 'Deckhand of the Red Isle. Ask for the hulk.', language: 'en-US' });
    // Saved again untouched: the combobox holds the string 'en-US', whose `.value` is undefined, so language is left out (axios drops it): unchanged.
    const again: Record<string, unknown> = { ...after.attr };
    if (again.language) again.language = (again.language as unknown as { value?: string }).value;
    const body = JSON.parse(JSON.stringify({ attr: again }));
    assert.equal(Object.keys(body.attr), ['introduction']);
    assert.is((await send(app, 'POST', 'user/me', { token: deckhand, data: body })).status, 200);
    // Space.vue:245 and AccountCardWidget.vue:112 read attr.introduction of user/info.
    const info = (await send(app, 'GET', 'user/info', { params: { id: deckhandId } })).body.data;
    assert.equal(info.attr, { introduction: 'Deckhand of the Red Isle. Ask for the hulk.', language: 'en-US' });
  },
);

Client(
  'Information.vue: changeAlternativeName sends {username}; the store, user/me, user/info and the next sign-in show the display name',
  async ({ app, deckhand, deckhandId }) => {
    // onChangeAlternativeName (:151-166): changeAlternativeName(name): `http.put('user/changeAlternativeName', {data: {username}})`, reads result.code.
    const changed = await send(app, 'PUT', 'user/changeAlternativeName', {
      token: deckhand,
      data: { username: 'DeckhandDan' },
    });
    assert.is(changed.status, 200, changed.text);
    assert.is(changed.body.code, 200);
    // :219 `userAccountData.alternativeName || userAccountData.username`.
    assert.is((await send(app, 'GET', 'user/me', { token: deckhand })).body.data.alternativeName, 'DeckhandDan');
    assert.is(
      (await send(app, 'GET', 'user/info', { params: { id: deckhandId } })).body.data.alternativeName,
      'DeckhandDan',
    );
    // stores/userAccountStore.ts:11 shows `alternativeName || username` of the sign-in answer.
    const signin = await send(app, 'POST', 'user/signin', {
      data: { username: 'deckhand', password: DEMO_PASSWORD, captcha: {} },
    });
    assert.equal([signin.body.data.alternativeName, signin.body.data.username], ['DeckhandDan', 'deckhand']);
    // A name over 40 characters: the envelope's code, shown as basic.tips.<code>.
    const tooLong = await send(app, 'PUT', 'user/changeAlternativeName', {
      token: deckhand,
      data: { username: 'x'.repeat(41) },
    });
    assert.equal([tooLong.status, tooLong.body.code], [400, 400]);
  },
);

Client(
  "Space.vue and account/assemblys.vue: a user's assemblies (space: public only) in the list item form the cards draw",
  async ({ app, deckhand, deckhandId }) => {
    // assembly_service.ts:129-133 getUserAssemblies(userId, pagination): 'user/space/assemblys' with params {...pagination, userId}.
    const space = await send(app, 'GET', 'user/space/assemblys', {
      params: { page: 1, pageSize: 10, userId: deckhandId },
    });
    assert.is(space.status, 200, space.text);
    // Space.vue:318-348 reads data.data[i].{uuid, name, userId, userAvatar, username} and attr.{assemblyUseVersion, isShowItemName}, assembly (:67-74); pagination.totalPages (:360).
    const names = space.body.data.data.map((item: { name: string }) => item.name);
    assert.equal(names, ['Hulk brawler'], 'the private Cutter rocket raider is not in the space');
    const card = space.body.data.data[0];
    for (const field of ['uuid', 'name', 'userId', 'userAvatar', 'username', 'attr', 'assembly'])
      assert.ok(field in card, field);
    assert.is(card.userId, deckhandId);
    assert.type(card.assembly, 'object');
    assert.is(space.body.data.pagination.totalPages, 1);
    // Without userId the same function calls user/me/assemblys (account/assemblys.vue:63: no pagination): the caller's own, private ones too.
    const own = await send(app, 'GET', 'user/me/assemblys', { token: deckhand, params: { userId: undefined } });
    assert.is(own.status, 200, own.text);
    assert.equal(
      own.body.data.data.map((item: { name: string }) => item.name),
      ['Cutter rocket raider', 'Hulk brawler'],
    );
    // Space.vue:177 calls userApi().getUserAssemblys(id, spacePagination), whose one parameter is the pagination:
    // `{...id}` spreads the id's characters into the query of user/me/assemblys. Refused (400, naming the keys), never answered with the viewer's own list.
    const spread = await send(app, 'GET', 'user/me/assemblys', {
      token: deckhand,
      params: Object.fromEntries([...deckhandId.slice(0, 3)].map((character, index) => [String(index), character])),
    });
    assert.equal([spread.status, spread.body.code], [400, 400]);
    assert.match(spread.body.message, /Unrecognized keys/);
  },
);

Client(
  "getUserLikes: user/likes (own) and user/space/likes?userId (anyone's), paged; the assemblies' isLiked and likes",
  async ({ app, deckhand, deckhandId, captainId }) => {
    // user_service.ts:189-195: `userId ? 'user/space/likes' : 'user/likes'`, params {...pagination, userId}.
    const own = await send(app, 'GET', 'user/likes', { token: deckhand, params: { userId: undefined } });
    assert.is(own.status, 200, own.text);
    assert.equal(
      own.body.data.data.map((item: { name: string; isLiked: boolean }) => [item.name, item.isLiked]),
      [['Brigantine broadside', true]],
    );
    const ofCaptain = await send(app, 'GET', 'user/space/likes', {
      params: { page: 1, pageSize: 10, userId: captainId },
    });
    assert.is(ofCaptain.status, 200, ofCaptain.text);
    assert.equal(
      ofCaptain.body.data.data.map((item: { name: string }) => item.name),
      ['Hulk brawler'],
    );
    assert.equal(ofCaptain.body.data.pagination, { page: 1, pageSize: 10, total: 1, totalPages: 1 });
    // The deckhand looking at the captain's likes sees their own isLiked (they cannot like their own hulk).
    const seen = await send(app, 'GET', 'user/space/likes', {
      token: deckhand,
      params: { page: 1, pageSize: 10, userId: captainId },
    });
    assert.is(seen.body.data.data[0].isLiked, false);
    assert.equal(
      (await send(app, 'GET', 'user/space/likes', { params: { userId: deckhandId } })).body.data.data.map(
        (item: { name: string }) => item.name,
      ),
      ['Brigantine broadside'],
    );
    // Without a token user/likes is the client's "Invalid user".
    const anonymous = await send(app, 'GET', 'user/likes');
    assert.equal([anonymous.status, anonymous.body.data.key], [401, 'user.invalid']);
  },
);

Client(
  'Information.vue onChangePassword: PUT user/changePassword {oldPassword, newPassword}; then the client signs out, the old token is dead',
  async ({ app }) => {
    const token = await signIn(app, 'captain');
    // A wrong old password: 403 in the envelope (basic.tips.403); the session stays.
    const wrong = await send(app, 'PUT', 'user/changePassword', {
      token,
      data: { oldPassword: 'not it at all', newPassword: 'a new demo secret' },
    });
    assert.equal([wrong.status, wrong.body.code], [403, 403]);
    const changed = await send(app, 'PUT', 'user/changePassword', {
      token,
      data: { oldPassword: DEMO_PASSWORD, newPassword: 'a new demo secret' },
    });
    assert.is(changed.status, 200, changed.text);
    assert.is(changed.body.code, 200);
    // :101 authStore.logout(): the old token no longer works anyway (http_util.ts:40 signs out on user.tokenExpired).
    const dead = await send(app, 'GET', 'user/me', { token });
    assert.equal([dead.status, dead.body.data.key], [401, 'user.tokenExpired']);
    const signin = await send(app, 'POST', 'user/signin', {
      data: { username: 'captain', password: 'a new demo secret', captcha: {} },
    });
    assert.is(signin.status, 200);
    // HeaderAccount.vue:20 and Space.vue:219 show userAvatar once one is set (PUT /user/avatar: Tidewatch's own call, the client links to Gravatar).
    await send(app, 'PUT', 'user/avatar', {
      token: signin.body.data.token,
      data: { url: 'https://gravatar.com/avatar/0123456789abcdef' },
    });
    const again = await send(app, 'POST', 'user/signin', {
      data: { username: 'captain', password: 'a new demo secret', captcha: {} },
    });
    assert.is(again.body.data.userAvatar, 'https://gravatar.com/avatar/0123456789abcdef');
  },
);

Client.run();
