// Client replay: the community web client's user and captcha calls (GlowProw/website), sent over real
// HTTP exactly as the client sends them (its axios wrapper: `http.post(url, {data})` sends `data` as
// the JSON body, GET `params` are the query string, the token goes in `x-access-token`), against a
// server with the demo data. Each test names the client's call and the view that reads the answer,
// and asserts every field that view reads. `handleResponse` (src/assets/sripts/api/api-util.ts:20-37)
// hands the whole body on as `result.data`, so a view's `result.data.data.x` is the envelope's
// `data.x`. docs/compatibility.md ("Users, captcha and errors") lists the same fields.
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { openSvgAnswer } from '../../server/domains/captcha/service';
import { startTestServer, type TTestServer } from '../support/helpers';
import { DEMO_PASSWORD, send } from './client-request';

const HMAC_KEY = 'web-client-captcha-key-0123';

const Client = suite<{ app: TTestServer }>('web client: sign-up, sign-in, profiles, captcha, errors');

/**
 * The captcha widget's round trip: src/assets/sripts/api/captcha_service.ts:17 (`http.get('captcha',
 * {params: {t: Math.random()}})`), read by src/components/captcha/svg.vue:149-158 (`d.data["hash"]`,
 * `d.data["content"]`); the answer it emits (svg.vue:123-128, index.vue:45-58) is
 * `{captchaType: 'svg', encryptCaptcha: hash, response: <typed>}`. The person reads the picture; the
 * test opens the hash with the server's key.
 */
async function solveWidget(app: TTestServer) {
  const response = await send(app, 'GET', 'captcha', { params: { t: Math.random() } });
  assert.is(response.status, 200, response.text);
  const { hash, content } = response.body.data;
  assert.type(hash, 'string');
  assert.match(content, /^<svg /, 'v-html of an SVG picture');
  return { captchaType: 'svg', encryptCaptcha: hash, response: openSvgAnswer(HMAC_KEY, hash)!.text };
}

Client.before(async (context) => {
  context.app = await startTestServer({ SEED_DEMO: true, CAPTCHA_HMAC_KEY: HMAC_KEY });
});
Client.after(async (context) => {
  await context.app.stop();
});

Client('GET captcha?t=…: the SVG widget gets hash and content', async ({ app }) => {
  // src/assets/sripts/api/captcha_service.ts:17; read by src/components/captcha/svg.vue:157-158.
  const response = await send(app, 'GET', 'captcha', { params: { t: Math.random() } });
  assert.is(response.status, 200);
  assert.is(response.body.code, 200);
  assert.match(response.body.data.hash, /^[A-Za-z0-9_-]+$/);
  assert.match(response.body.data.content, /^<svg [\s\S]*<\/svg>$/);
});

Client(
  'sign-in: data is the account the store keeps (token, userId, username, role[], alternativeName, userAvatar)',
  async ({ app }) => {
    // src/assets/sripts/api/user_service.ts:22 `http.post('user/signin', {data})` with SigninParams
    // (src/assets/types/User.Login.ts): src/views/user/Signin.vue:37-44 sends {username, password, captcha}
    // and stores `d.data` (authStore.setAccountToken, stores/userAccountStore.ts:31-40). The store's
    // readers: token (src/assets/sripts/http_util.ts:20-21), userId (src/components/CommentWidget.vue:233,
    // src/views/user/account/Index.vue:35), role (router/index.ts:110-113: admin pages), userAvatar
    // (src/components/HeaderAccount.vue:20), alternativeName || username (stores/userAccountStore.ts:11).
    const captcha = await solveWidget(app);
    const response = await send(app, 'POST', 'user/signin', {
      data: { username: 'captain', password: DEMO_PASSWORD, captcha },
    });
    assert.is(response.status, 200, response.text);
    const account = response.body.data;
    assert.match(account.token, /^[a-z2-7]{32}$/);
    assert.type(account.userId, 'string');
    assert.is(account.username, 'captain');
    assert.ok(Array.isArray(account.role));
    assert.ok(account.role.includes('admin'), 'router/index.ts:113 lets an admin in');
    assert.is(account.alternativeName, null, 'the store falls back to username');
    assert.is(account.userAvatar, null, 'HeaderAccount shows the initial');
    // src/views/user/account/smugglersReport.vue:371 `authStore.checkPrivilegeGroup(authStore.user?.privilege, [...])`:
    // the privilege types the account holds (issue 35): an admin every right, the create button's name among them.
    assert.ok(account.privilege.includes('smugglersReportConnoisseur'), account.privilege.join(', '));
    assert.not.ok(account.privilege.includes('blacklisted'), 'an account state is no right');

    // The token works the way the client sends it (x-access-token).
    const me = await send(app, 'GET', 'user/me', { token: account.token });
    assert.is(me.status, 200);
    assert.is(me.body.data.id, account.userId);
    assert.equal(
      me.body.data.privilege,
      account.privilege,
      'user/me answers the privileges too (merged into the store, router/index.ts:124-126)',
    );

    // Signin.vue:27 starts with `captcha: {}`: the untouched widget is no answer.
    const untouched = await send(app, 'POST', 'user/signin', {
      data: { username: 'deckhand', password: DEMO_PASSWORD, captcha: {} },
    });
    assert.is(untouched.status, 200, untouched.text);
    assert.equal(untouched.body.data.role, ['normal']);
    assert.equal(untouched.body.data.privilege, [], 'deckhand holds no grant');
  },
);

Client('sign-up: the client body with alternativeName and the SVG captcha answer', async ({ app }) => {
  // src/assets/sripts/api/user_service.ts:37 `http.post('user/signup', {data})`; src/views/user/Signup.vue:40-49
  // sends {username, alternativeName, password, email, captcha} and reads `d.code` only (then goes to sign-in).
  const captcha = await solveWidget(app);
  const response = await send(app, 'POST', 'user/signup', {
    data: {
      username: 'new_sailor',
      alternativeName: 'NewSailor',
      password: 'a long secret',
      email: 'new@sailor.test',
      captcha,
    },
  });
  assert.is(response.status, 200, response.text);
  assert.is(response.body.code, 200);
  assert.is(response.body.data.username, 'new_sailor');
  // The widget untouched: Signup.vue:30 sends `captcha: ''`.
  const untouched = await send(app, 'POST', 'user/signup', {
    data: {
      username: 'new_sailor2',
      alternativeName: 'new_sailor2',
      password: 'a long secret',
      email: 'new2@sailor.test',
      captcha: '',
    },
  });
  assert.is(untouched.status, 200, untouched.text);
  // Then the client signs in with it (Signup.vue:51-53 → Signin.vue).
  const signin = await send(app, 'POST', 'user/signin', {
    data: { username: 'new_sailor', password: 'a long secret', captcha: await solveWidget(app) },
  });
  assert.is(signin.status, 200);
  assert.equal(signin.body.data.role, ['normal']);
});

Client(
  'user/me: the account page reads id, username, alternativeName, userAvatar, email, attr.{language, introduction}, role',
  async ({ app }) => {
    const token = (
      await send(app, 'POST', 'user/signin', { data: { username: 'deckhand', password: DEMO_PASSWORD, captcha: {} } })
    ).body.data.token;
    // src/assets/sripts/api/user_service.ts:52 `http.get('user/me')`; src/views/user/account/Information.vue:75-78
    // keeps `d.data` and its template reads username (:199), userAvatar (:206), alternativeName || username
    // (:219), id (:269), email (:283), attr.language (:299, a v-model: attr must be an object),
    // attr.introduction (:314), role (:377, RolesTagWidget). router/index.ts:124-126 merges it into the store.
    const me = await send(app, 'GET', 'user/me', { token });
    assert.is(me.status, 200);
    const data = me.body.data;
    assert.type(data.id, 'string');
    assert.is(data.username, 'deckhand');
    assert.is(data.alternativeName, null);
    assert.is(data.userAvatar, null);
    assert.is(data.email, 'deckhand@tidewatch.example');
    assert.equal(data.attr, { introduction: '', language: '' });
    assert.equal(data.role, ['normal']);
    assert.ok(!Number.isNaN(Date.parse(data.joinTime)));
  },
);

Client(
  'user/info?id=: the space page and the account card read username, userAvatar, role, joinTime, lastOnlineTime, attr.introduction',
  async ({ app }) => {
    const signin = (
      await send(app, 'POST', 'user/signin', { data: { username: 'captain', password: DEMO_PASSWORD, captcha: {} } })
    ).body.data;
    // src/assets/sripts/api/user_service.ts:83 `http.get('user/info', {params: {id: userId}})`;
    // src/views/user/Space.vue:121-124 keeps `d.data`: userAvatar (:219), username (:223), role (:225),
    // lastOnlineTime (:227, v-if), joinTime (:231), attr.introduction (:245, v-if);
    // src/components/AccountCardWidget.vue:49-52: userId || id (:93, :114, the links to the space), userAvatar (:94-97),
    // username (:100), role (:106), attr?.introduction (:112).
    const response = await send(app, 'GET', 'user/info', { params: { id: signin.userId } });
    assert.is(response.status, 200);
    const data = response.body.data;
    assert.is(data.id, signin.userId);
    assert.is(data.userId, signin.userId, 'AccountCardWidget.vue:93, 114: the link to /space/ of userId || id');
    assert.is(data.username, 'captain');
    assert.is(data.userAvatar, null);
    assert.equal(data.role, ['admin']);
    assert.ok(!Number.isNaN(Date.parse(data.joinTime)));
    assert.is(data.lastOnlineTime, null);
    assert.equal(data.attr, { introduction: '', language: '' });
    assert.not.ok('email' in data);
  },
);

Client('errors: numeric code, the message key in data.key; an expired token is user.tokenExpired', async ({ app }) => {
  // src/assets/sripts/api/api-util.ts:7-14 makes an ApiError of `response.data` (code, message);
  // views translate `basic.tips.${e.code}` (e.g. Signin.vue:51-55). src/assets/sripts/http_util.ts:37-44
  // signs out on `error.response.data.code === 'user.tokenExpired'`: the key is `data.key` here
  // (docs/compatibility.md gives the one-line change).
  const wrong = await send(app, 'POST', 'user/signin', {
    data: { username: 'captain', password: 'not the password', captcha: {} },
  });
  assert.is(wrong.status, 401);
  assert.is(wrong.body.code, 401);
  assert.is(wrong.body.data.key, 'signin.wrong');
  const token = (
    await send(app, 'POST', 'user/signin', { data: { username: 'deckhand', password: DEMO_PASSWORD, captcha: {} } })
  ).body.data.token;
  app.clock.advance(31 * 24 * 60 * 60 * 1000);
  const expired = await send(app, 'GET', 'user/me', { token });
  app.clock.offsetMs = 0;
  assert.is(expired.status, 401);
  assert.is(expired.body.code, 401);
  assert.is(expired.body.data.key, 'user.tokenExpired');
  const anonymous = await send(app, 'GET', 'user/me');
  assert.is(anonymous.body.data.key, 'user.invalid');
  const usedCaptcha = await solveWidget(app);
  await send(app, 'POST', 'user/signin', {
    data: { username: 'deckhand', password: DEMO_PASSWORD, captcha: usedCaptcha },
  });
  const replay = await send(app, 'POST', 'user/signin', {
    data: { username: 'deckhand', password: DEMO_PASSWORD, captcha: usedCaptcha },
  });
  assert.is(replay.status, 400);
  assert.is(replay.body.data.key, 'captcha.wrong');
});

Client.run();
