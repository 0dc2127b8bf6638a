import { eq } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { sessions } from '../../db/schema';
import { SESSION_LIFETIME_MS, sessionIdFromToken } from '../../server/domains/user/session';
import { startTestServer, trpcError, type TTestServer } from '../support/helpers';

const Accounts = suite<{ app: TTestServer }>('accounts: sign-up, sign-in, me, info, sign-out');

Accounts.before(async (context) => {
  context.app = await startTestServer();
});
Accounts.after(async (context) => {
  await context.app.stop();
});

const DAY = 24 * 60 * 60 * 1000;

Accounts(
  'sign-up over REST returns the account (token, its expiry, userId, role names), and signs in',
  async ({ app }) => {
    const response = await app.rest('POST', '/api/user/signup', {
      body: { username: 'Anne_Bonny', email: 'Anne@Example.test', password: 'pieces of eight' },
    });
    assert.is(response.status, 200);
    const account = response.body.data;
    const { token, expiresAt, userId } = account;
    assert.match(token, /^[a-z2-7]{32}$/);
    const lifetime = Date.parse(expiresAt) - Date.now();
    assert.ok(lifetime > 29 * DAY && lifetime <= 30 * DAY, 'session lasts 30 days');
    assert.equal(Object.keys(account).sort(), [
      'alternativeName',
      'email',
      'expiresAt',
      'privilege',
      'role',
      'token',
      'userAvatar',
      'userId',
      'username',
    ]);
    assert.is(account.username, 'Anne_Bonny');
    assert.is(account.email, 'anne@example.test', 'e-mail stored lower-case');
    assert.equal(account.role, ['normal']);
    assert.is(account.alternativeName, null);
    assert.is(account.userAvatar, null);
    // smugglersReport.vue:371 reads `privilege`: a new account holds none (docs/privileges.md).
    assert.equal(account.privilege, []);

    const me = await app.rest('GET', '/api/user/me', { token });
    assert.is(me.status, 200);
    const joinTime = me.body.data.joinTime;
    assert.ok(Math.abs(Date.parse(joinTime) - Date.now()) < 60_000);
    assert.equal(me.body.data, {
      id: userId,
      username: 'Anne_Bonny',
      alternativeName: null,
      userAvatar: null,
      role: ['normal'],
      attr: { introduction: '', language: '' },
      joinTime,
      userId,
      lastOnlineTime: null,
      email: 'anne@example.test',
      privilege: [],
    });
    assert.match(me.headers.get('cache-control') ?? '', /private/);
  },
);

Accounts('the database stores only the SHA-256 of the token', async ({ app }) => {
  const { token } = await app.signUp();
  const stored = await app.database.db.select().from(sessions).all();
  assert.not.ok(stored.some((row) => row.id === token));
  assert.ok(stored.some((row) => row.id === sessionIdFromToken(token)));
});

Accounts('sign-in by username (any case) or e-mail, over REST and tRPC', async ({ app }) => {
  await app.rest('POST', '/api/user/signup', {
    body: { username: 'calico', email: 'jack@rackham.test', password: 'long password' },
  });
  const byName = await app.rest('POST', '/api/user/signin', {
    body: { username: 'CALICO', password: 'long password' },
  });
  assert.is(byName.status, 200);
  assert.is(byName.body.data.username, 'calico');
  const byEmail = await app.trpc().user.signin.mutate({ username: 'Jack@Rackham.test', password: 'long password' });
  assert.is(byEmail.username, 'calico');
  assert.is(byEmail.userId, byName.body.data.userId);
  assert.equal(byEmail.role, ['normal']);
  const me = await app.trpc(byEmail.token).user.me.query({});
  assert.is(me.email, 'jack@rackham.test');
});

Accounts('wrong password and unknown user give the same 401 message', async ({ app }) => {
  await app.rest('POST', '/api/user/signup', {
    body: { username: 'mary_read', email: 'mary@read.test', password: 'long password' },
  });
  const wrong = await app.rest('POST', '/api/user/signin', {
    body: { username: 'mary_read', password: 'not it at all' },
  });
  const unknown = await app.rest('POST', '/api/user/signin', {
    body: { username: 'nobody_here', password: 'not it at all' },
  });
  assert.is(wrong.status, 401);
  assert.is(unknown.status, 401);
  assert.is(wrong.body.message, unknown.body.message);
  assert.equal(wrong.body.data, { key: 'signin.wrong' });
  assert.equal(unknown.body.data, { key: 'signin.wrong' });
  const viaTrpc = await trpcError(app.trpc().user.signin.mutate({ username: 'nobody_here', password: 'x' }));
  assert.is(viaTrpc.status, 401);
  assert.is(viaTrpc.message, wrong.body.message);
  assert.is(viaTrpc.data.key, 'signin.wrong');
});

Accounts('duplicate username (ignoring case) and duplicate e-mail are 409', async ({ app }) => {
  await app.rest('POST', '/api/user/signup', {
    body: { username: 'Blackbeard', email: 'teach@qar.test', password: 'long password' },
  });
  const sameName = await app.rest('POST', '/api/user/signup', {
    body: { username: 'BLACKBEARD', email: 'other@qar.test', password: 'long password' },
  });
  assert.is(sameName.status, 409);
  assert.match(sameName.body.message, /Username/);
  assert.is(sameName.body.data.key, 'signup.userAlreadyHas');
  const sameEmail = await app.rest('POST', '/api/user/signup', {
    body: { username: 'edward', email: 'TEACH@qar.test', password: 'long password' },
  });
  assert.is(sameEmail.status, 409);
  assert.match(sameEmail.body.message, /E-mail/);
  assert.is(sameEmail.body.data.key, 'signup.emailAlreadyHas');
  const viaTrpc = await trpcError(
    app.trpc().user.signup.mutate({ username: 'blackbeard', email: 'x@y.test', password: 'long password' }),
  );
  assert.is(viaTrpc.status, 409);
  assert.is(viaTrpc.data.key, 'signup.userAlreadyHas');
});

Accounts('bad e-mail, short and overlong password, bad username are 400s naming the field', async ({ app }) => {
  const cases: [Record<string, unknown>, string][] = [
    [{ username: 'valid_name', email: 'not-an-email', password: 'long password' }, 'email'],
    [{ username: 'valid_name', email: 'a@b.test', password: 'short' }, 'password'],
    [{ username: 'valid_name', email: 'a@b.test', password: 'x'.repeat(257) }, 'password'],
    [{ username: 'ab', email: 'a@b.test', password: 'long password' }, 'username'],
    [{ username: 'has space', email: 'a@b.test', password: 'long password' }, 'username'],
    [{ username: 'x'.repeat(33), email: 'a@b.test', password: 'long password' }, 'username'],
    [{ email: 'a@b.test', password: 'long password' }, 'username'],
    [{ username: 'valid_name', email: 'a@b.test', password: 12345678 }, 'password'],
  ];
  for (const [body, field] of cases) {
    const response = await app.rest('POST', '/api/user/signup', { body });
    assert.is(response.status, 400, JSON.stringify(body).slice(0, 80));
    assert.match(response.body.message, new RegExp(field));
    assert.ok(response.body.data.issues.some((issue: { path: string }) => issue.path === field));
    assert.is(response.body.data.key, 'request.bad');
  }
  assert.ok(
    (
      await app.rest('POST', '/api/user/signup', {
        body: { username: 'valid_name', email: 'a@b.test', password: 'x'.repeat(256) },
      })
    ).status === 200,
    '256 characters is allowed',
  );
  const viaTrpc = await trpcError(
    app.trpc().user.signup.mutate({ username: 'valid_two', email: 'b@b.test', password: 'short' }),
  );
  assert.is(viaTrpc.status, 400);
  assert.match(viaTrpc.message, /password/);
});

Accounts('me: no token 401, forged token 401, malformed header 401, x-access-token accepted', async ({ app }) => {
  const { token } = await app.signUp();
  const none = await app.rest('GET', '/api/user/me');
  assert.is(none.status, 401);
  assert.is(none.body.message, 'Missing access token');
  assert.equal(none.body.data, { key: 'user.invalid' });
  const forged = await app.rest('GET', '/api/user/me', { token: 'a'.repeat(32) });
  assert.is(forged.status, 401);
  assert.is(forged.body.message, 'Invalid or expired access token');
  assert.equal(forged.body.data, { key: 'user.tokenExpired' });
  assert.is(forged.body.code, 401, 'code stays the number');
  const malformed = await app.rest('GET', '/api/user/me', { headers: { authorization: `Basic ${token}` } });
  assert.is(malformed.status, 401);
  const alt = await app.rest('GET', '/api/user/me', { headers: { 'x-access-token': token } });
  assert.is(alt.status, 200);
  const noneViaTrpc = await trpcError(app.trpc().user.me.query({}));
  assert.is(noneViaTrpc.status, 401);
  assert.is(noneViaTrpc.data.key, 'user.invalid');
  const forgedViaTrpc = await trpcError(app.trpc('forged-token').user.me.query({}));
  assert.is(forgedViaTrpc.status, 401);
  assert.is(forgedViaTrpc.data.key, 'user.tokenExpired');
});

Accounts('sessions expire after 30 days and slide when used in their second half', async ({ app }) => {
  const { token } = await app.signUp();
  const id = sessionIdFromToken(token);
  const expiryOf = async () =>
    (await app.database.db.select().from(sessions).where(eq(sessions.id, id)).get())?.expiresAt.getTime();
  const initial = (await expiryOf())!;

  app.clock.advance(10 * DAY);
  assert.is((await app.rest('GET', '/api/user/me', { token })).status, 200);
  assert.is(await expiryOf(), initial, 'first half: no extension');

  app.clock.advance(10 * DAY);
  assert.is((await app.rest('GET', '/api/user/me', { token })).status, 200);
  const extended = (await expiryOf())!;
  assert.ok(extended > initial, 'second half: extended');
  assert.ok(Math.abs(extended - (Date.now() + app.clock.offsetMs + SESSION_LIFETIME_MS)) < 5_000);

  app.clock.advance(31 * DAY);
  const expired = await app.rest('GET', '/api/user/me', { token });
  assert.is(expired.status, 401);
  assert.is(expired.body.data.key, 'user.tokenExpired', 'the key the web client signs out on');
  assert.is(await expiryOf(), undefined, 'expired session removed');
  app.clock.offsetMs = 0;
});

Accounts('info returns the public profile without e-mail; unknown id 404', async ({ app }) => {
  const { id, username } = await app.signUp();
  const response = await app.rest('GET', `/api/user/info?id=${id}`);
  assert.is(response.status, 200);
  const { joinTime } = response.body.data;
  assert.equal(response.body.data, {
    id,
    username,
    alternativeName: null,
    userAvatar: null,
    role: ['normal'],
    attr: { introduction: '', language: '' },
    joinTime,
    // AccountCardWidget.vue:93, 114 links the profile with `userId || id`.
    userId: id,
    lastOnlineTime: null,
  });
  const viaTrpc = await app.trpc().user.info.query({ id });
  assert.not.ok('email' in viaTrpc);
  assert.equal(viaTrpc, response.body.data);
  const missing = await app.rest('GET', '/api/user/info?id=no-such-user');
  assert.is(missing.status, 404);
  assert.is(missing.body.data.key, 'user.notFound');
  assert.is((await trpcError(app.trpc().user.info.query({ id: 'no-such-user' }))).status, 404);
});

Accounts('sign-out ends only that session', async ({ app }) => {
  const { username, password, token } = await app.signUp();
  const second = await app.rest('POST', '/api/user/signin', { body: { username, password } });
  const otherToken = second.body.data.token;
  const out = await app.rest('POST', '/api/user/signout', { token });
  assert.is(out.status, 200);
  assert.equal(out.body.data, {});
  assert.is((await app.rest('GET', '/api/user/me', { token })).status, 401);
  assert.is((await app.rest('GET', '/api/user/me', { token: otherToken })).status, 200);
  assert.is((await app.rest('POST', '/api/user/signout')).status, 401);
  await app.trpc(otherToken).user.signout.mutate({});
  assert.is((await trpcError(app.trpc(otherToken).user.me.query({}))).status, 401);
});

Accounts(
  'password change: wrong current password 403, then every old session ends and a new token works',
  async ({ app }) => {
    const { username, password, token } = await app.signUp();
    const other = (await app.rest('POST', '/api/user/signin', { body: { username, password } })).body.data.token;
    const wrong = await app.rest('POST', '/api/user/password', {
      token,
      body: { currentPassword: 'not my password', newPassword: 'brand new secret' },
    });
    assert.is(wrong.status, 403);
    assert.is(
      (
        await app.rest('POST', '/api/user/password', {
          body: { currentPassword: password, newPassword: 'brand new secret' },
        })
      ).status,
      401,
    );
    const short = await app.rest('POST', '/api/user/password', {
      token,
      body: { currentPassword: password, newPassword: 'short' },
    });
    assert.is(short.status, 400);
    assert.match(short.body.message, /newPassword/);
    const changed = await app.rest('POST', '/api/user/password', {
      token,
      body: { currentPassword: password, newPassword: 'brand new secret' },
    });
    assert.is(changed.status, 200);
    assert.is((await app.rest('GET', '/api/user/me', { token })).status, 401);
    assert.is((await app.rest('GET', '/api/user/me', { token: other })).status, 401);
    assert.is((await app.rest('GET', '/api/user/me', { token: changed.body.data.token })).status, 200);
    assert.is((await app.rest('POST', '/api/user/signin', { body: { username, password } })).status, 401);
    const viaTrpc = await app
      .trpc(changed.body.data.token)
      .user.changePassword.mutate({ currentPassword: 'brand new secret', newPassword: 'newer secret!' });
    assert.ok(viaTrpc.token);
    assert.is(
      (await app.rest('POST', '/api/user/signin', { body: { username, password: 'newer secret!' } })).status,
      200,
    );
  },
);

Accounts('a token on a public endpoint is optional, even a bad one', async ({ app }) => {
  const { id } = await app.signUp();
  assert.is((await app.rest('GET', `/api/user/info?id=${id}`, { token: 'garbage' })).status, 200);
});

Accounts(
  "sign-up: the contract's form and the web client's form (alternativeName, captcha left empty) are both accepted",
  async ({ app }) => {
    const contract = await app.rest('POST', '/api/user/signup', {
      body: { username: 'form_contract', email: 'c@forms.test', password: 'long password' },
    });
    assert.is(contract.status, 200);
    // The web client's Signup.vue sends captcha '' when its widget was not used, and the display name.
    const client = await app.rest('POST', '/api/user/signup', {
      body: {
        username: 'form_client',
        alternativeName: 'Client Form',
        password: 'long password',
        email: 'k@forms.test',
        captcha: '',
      },
    });
    assert.is(client.status, 200);
    assert.is(client.body.data.username, 'form_client');
    assert.is(client.body.data.alternativeName, 'Client Form', 'the display name is stored (issue 19)');
    assert.is(
      (await app.rest('GET', '/api/user/me', { token: client.body.data.token })).body.data.alternativeName,
      'Client Form',
    );
    const emptyObject = await app.rest('POST', '/api/user/signup', {
      body: {
        username: 'form_client2',
        alternativeName: 'x',
        password: 'long password',
        email: 'k2@forms.test',
        captcha: {},
      },
    });
    assert.is(emptyObject.status, 200);
    const viaTrpc = await app.trpc().user.signup.mutate({
      username: 'form_trpc',
      email: 't@forms.test',
      password: 'long password',
      alternativeName: 'T',
    });
    assert.is(viaTrpc.username, 'form_trpc');
    const halfAnswer = await app.rest('POST', '/api/user/signup', {
      body: {
        username: 'form_half',
        password: 'long password',
        email: 'h@forms.test',
        captcha: { captchaType: 'svg', response: 'abcd' },
      },
    });
    assert.is(halfAnswer.status, 400);
    assert.ok(halfAnswer.body.data.issues.some((issue: { path: string }) => issue.path === 'captcha.encryptCaptcha'));
    const longName = await app.rest('POST', '/api/user/signup', {
      body: {
        username: 'form_long',
        alternativeName: 'x'.repeat(41),
        password: 'long password',
        email: 'l@forms.test',
      },
    });
    assert.is(longName.status, 400);
    assert.match(longName.body.message, /alternativeName/);
  },
);

Accounts(
  "sign-in: the contract's form and the web client's (captcha {} when the widget was not used) are both accepted",
  async ({ app }) => {
    const { username, password } = await app.signUp();
    assert.is((await app.rest('POST', '/api/user/signin', { body: { username, password } })).status, 200);
    const client = await app.rest('POST', '/api/user/signin', { body: { username, password, captcha: {} } });
    assert.is(client.status, 200);
    assert.is(client.body.data.username, username);
  },
);

Accounts('unknown fields are refused with a 400 naming them, on every user input', async ({ app }) => {
  const { id, token, username, password } = await app.signUp();
  const cases: [string, string, Record<string, unknown> | undefined, string | undefined, string][] = [
    [
      'POST',
      '/api/user/signup',
      { username: 'unknown_f', email: 'u@f.test', password: 'long password', isAdmin: true },
      undefined,
      'isAdmin',
    ],
    [
      'POST',
      '/api/user/signup',
      {
        username: 'unknown_g',
        email: 'g@f.test',
        password: 'long password',
        captcha: { captchaType: 'svg', encryptCaptcha: 'x', response: 'y', extra: 1 },
      },
      undefined,
      'extra',
    ],
    ['POST', '/api/user/signin', { username, password, role: 'admin' }, undefined, 'role'],
    [
      'POST',
      '/api/user/password',
      { currentPassword: password, newPassword: 'another secret', userId: id },
      token,
      'userId',
    ],
  ];
  for (const [method, path, body, withToken, key] of cases) {
    const response = await app.rest(method, path, { body, token: withToken });
    assert.is(response.status, 400, `${path} ${key}`);
    assert.match(JSON.stringify(response.body.data.issues), new RegExp(`Unrecognized key.*${key}`), `${path} ${key}`);
    assert.is(response.body.data.key, 'request.bad');
  }
  const info = await app.rest('GET', `/api/user/info?id=${id}&verbose=1`);
  assert.is(info.status, 400);
  assert.match(JSON.stringify(info.body.data.issues), /verbose/);
  const viaTrpc = await trpcError(app.trpc().user.signin.mutate({ username, password, role: 'admin' } as never));
  assert.is(viaTrpc.status, 400);
  assert.match(JSON.stringify(viaTrpc.data.issues), /role/);
});

Accounts('every error carries data.key beside the numeric code, on both surfaces', async ({ app }) => {
  const notFound = await app.rest('GET', '/api/no/such/route');
  assert.is(notFound.status, 404);
  assert.is(notFound.body.code, 404);
  assert.is(notFound.body.data.key, 'request.notFound');
  const badJson = await app.rest('POST', '/api/user/signin', {
    rawBody: '{not json',
    headers: { 'content-type': 'application/json' },
  });
  assert.is(badJson.status, 400);
  assert.is(badJson.body.data.key, 'request.bad');
  const viaTrpc = await trpcError(app.trpc().user.signup.mutate({ username: 'k', email: 'bad', password: 'x' }));
  assert.is(viaTrpc.data.key, 'request.bad');
});

Accounts.run();
