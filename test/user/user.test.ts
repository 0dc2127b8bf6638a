// Accounts: sign-up and sign-in over REST and tRPC: the account they answer, the stored token hash,
// sign-in by username or e-mail, the one 401 for a wrong password or unknown user, duplicates (409),
// and the contract's and the web client's forms (issue 19's display name).
import * as assert from 'uvu/assert';
import { sessions } from '../../db/schema';
import { sessionIdFromToken } from '../../server/domains/user/session';
import { trpcError } from '../support/http-clients';
import { serverSuite } from '../support/server-suite';
import { SIGNED_IN_FIELDS } from '../support/sign-up';
import { DAY } from './fixtures';

const Accounts = serverSuite('accounts: sign-up, sign-in');

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
    assert.equal(Object.keys(account).sort(), SIGNED_IN_FIELDS);
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

Accounts.run();
