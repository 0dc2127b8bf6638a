// Accounts' input errors over REST and tRPC: bad sign-up fields are 400s naming the field, unknown
// fields are refused on every user input, and every error carries data.key beside its numeric code.
import * as assert from 'uvu/assert';
import { trpcError } from '../support/http-clients';
import { serverSuite } from '../support/server-suite';

const Inputs = serverSuite('accounts: bad input, unknown fields, error keys');

Inputs('bad e-mail, short and overlong password, bad username are 400s naming the field', async ({ app }) => {
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

Inputs('unknown fields are refused with a 400 naming them, on every user input', async ({ app }) => {
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

Inputs('every error carries data.key beside the numeric code, on both surfaces', async ({ app }) => {
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

Inputs.run();
