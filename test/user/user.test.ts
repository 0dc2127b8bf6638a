import { eq } from 'drizzle-orm';
import { suite } from 'uvu';
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

Accounts('sign-up over REST returns a token, its expiry and the profile, and signs in', async ({ app }) => {
  const response = await app.rest('POST', '/api/user/signup', {
    body: { username: 'Anne_Bonny', email: 'Anne@Example.test', password: 'pieces of eight' },
  });
  assert.is(response.status, 200);
  const { token, expiresAt, user } = response.body.data;
  assert.match(token, /^[a-z2-7]{32}$/);
  const lifetime = Date.parse(expiresAt) - Date.now();
  assert.ok(lifetime > 29 * DAY && lifetime <= 30 * DAY, 'session lasts 30 days');
  assert.is(user.username, 'Anne_Bonny');
  assert.is(user.email, 'anne@example.test', 'e-mail stored lower-case');
  assert.is(user.role, 'user');
  assert.not.ok('passwordHash' in user);

  const me = await app.rest('GET', '/api/user/me', { token });
  assert.is(me.status, 200);
  assert.equal(me.body.data, user);
  assert.match(me.headers.get('cache-control') ?? '', /private/);
});

Accounts('the database stores only the SHA-256 of the token', async ({ app }) => {
  const { token } = await app.signUp();
  const stored = await app.database.db.select().from(sessions).all();
  assert.not.ok(stored.some((row) => row.id === token));
  assert.ok(stored.some((row) => row.id === sessionIdFromToken(token)));
});

Accounts('sign-in by username (any case) or e-mail, over REST and tRPC', async ({ app }) => {
  await app.rest('POST', '/api/user/signup', { body: { username: 'calico', email: 'jack@rackham.test', password: 'long password' } });
  const byName = await app.rest('POST', '/api/user/signin', { body: { username: 'CALICO', password: 'long password' } });
  assert.is(byName.status, 200);
  assert.is(byName.body.data.user.username, 'calico');
  const byEmail = await app.trpc().user.signin.mutate({ username: 'Jack@Rackham.test', password: 'long password' });
  assert.is(byEmail.user.username, 'calico');
  const me = await app.trpc(byEmail.token).user.me.query({});
  assert.is(me.email, 'jack@rackham.test');
});

Accounts('wrong password and unknown user give the same 401 message', async ({ app }) => {
  await app.rest('POST', '/api/user/signup', { body: { username: 'mary_read', email: 'mary@read.test', password: 'long password' } });
  const wrong = await app.rest('POST', '/api/user/signin', { body: { username: 'mary_read', password: 'not it at all' } });
  const unknown = await app.rest('POST', '/api/user/signin', { body: { username: 'nobody_here', password: 'not it at all' } });
  assert.is(wrong.status, 401);
  assert.is(unknown.status, 401);
  assert.is(wrong.body.message, unknown.body.message);
  const viaTrpc = await trpcError(app.trpc().user.signin.mutate({ username: 'nobody_here', password: 'x' }));
  assert.is(viaTrpc.status, 401);
  assert.is(viaTrpc.message, wrong.body.message);
});

Accounts('duplicate username (ignoring case) and duplicate e-mail are 409', async ({ app }) => {
  await app.rest('POST', '/api/user/signup', { body: { username: 'Blackbeard', email: 'teach@qar.test', password: 'long password' } });
  const sameName = await app.rest('POST', '/api/user/signup', { body: { username: 'BLACKBEARD', email: 'other@qar.test', password: 'long password' } });
  assert.is(sameName.status, 409);
  assert.match(sameName.body.message, /Username/);
  const sameEmail = await app.rest('POST', '/api/user/signup', { body: { username: 'edward', email: 'TEACH@qar.test', password: 'long password' } });
  assert.is(sameEmail.status, 409);
  assert.match(sameEmail.body.message, /E-mail/);
  const viaTrpc = await trpcError(app.trpc().user.signup.mutate({ username: 'blackbeard', email: 'x@y.test', password: 'long password' }));
  assert.is(viaTrpc.status, 409);
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
  }
  assert.ok((await app.rest('POST', '/api/user/signup', { body: { username: 'valid_name', email: 'a@b.test', password: 'x'.repeat(256) } })).status === 200, '256 characters is allowed');
  const viaTrpc = await trpcError(app.trpc().user.signup.mutate({ username: 'valid_two', email: 'b@b.test', password: 'short' }));
  assert.is(viaTrpc.status, 400);
  assert.match(viaTrpc.message, /password/);
});

Accounts('me: no token 401, forged token 401, malformed header 401, x-access-token accepted', async ({ app }) => {
  const { token } = await app.signUp();
  const none = await app.rest('GET', '/api/user/me');
  assert.is(none.status, 401);
  assert.is(none.body.message, 'Missing access token');
  const forged = await app.rest('GET', '/api/user/me', { token: 'a'.repeat(32) });
  assert.is(forged.status, 401);
  assert.is(forged.body.message, 'Invalid or expired access token');
  const malformed = await app.rest('GET', '/api/user/me', { headers: { authorization: `Basic ${token}` } });
  assert.is(malformed.status, 401);
  const alt = await app.rest('GET', '/api/user/me', { headers: { 'x-access-token': token } });
  assert.is(alt.status, 200);
  assert.is((await trpcError(app.trpc().user.me.query({}))).status, 401);
  assert.is((await trpcError(app.trpc('forged-token').user.me.query({}))).status, 401);
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
  assert.is(await expiryOf(), undefined, 'expired session removed');
  app.clock.offsetMs = 0;
});

Accounts('info returns the public profile without e-mail; unknown id 404', async ({ app }) => {
  const { id, username } = await app.signUp();
  const response = await app.rest('GET', `/api/user/info?id=${id}`);
  assert.is(response.status, 200);
  assert.is(response.body.data.username, username);
  assert.not.ok('email' in response.body.data);
  const viaTrpc = await app.trpc().user.info.query({ id });
  assert.not.ok('email' in viaTrpc);
  assert.is((await app.rest('GET', '/api/user/info?id=no-such-user')).status, 404);
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

Accounts('password change: wrong current password 403, then every old session ends and a new token works', async ({ app }) => {
  const { username, password, token } = await app.signUp();
  const other = (await app.rest('POST', '/api/user/signin', { body: { username, password } })).body.data.token;
  const wrong = await app.rest('POST', '/api/user/password', { token, body: { currentPassword: 'not my password', newPassword: 'brand new secret' } });
  assert.is(wrong.status, 403);
  assert.is((await app.rest('POST', '/api/user/password', { body: { currentPassword: password, newPassword: 'brand new secret' } })).status, 401);
  const short = await app.rest('POST', '/api/user/password', { token, body: { currentPassword: password, newPassword: 'short' } });
  assert.is(short.status, 400);
  assert.match(short.body.message, /newPassword/);
  const changed = await app.rest('POST', '/api/user/password', { token, body: { currentPassword: password, newPassword: 'brand new secret' } });
  assert.is(changed.status, 200);
  assert.is((await app.rest('GET', '/api/user/me', { token })).status, 401);
  assert.is((await app.rest('GET', '/api/user/me', { token: other })).status, 401);
  assert.is((await app.rest('GET', '/api/user/me', { token: changed.body.data.token })).status, 200);
  assert.is((await app.rest('POST', '/api/user/signin', { body: { username, password } })).status, 401);
  const viaTrpc = await app.trpc(changed.body.data.token).user.changePassword.mutate({ currentPassword: 'brand new secret', newPassword: 'newer secret!' });
  assert.ok(viaTrpc.token);
  assert.is((await app.rest('POST', '/api/user/signin', { body: { username, password: 'newer secret!' } })).status, 200);
});

Accounts('a token on a public endpoint is optional, even a bad one', async ({ app }) => {
  const { id } = await app.signUp();
  assert.is((await app.rest('GET', `/api/user/info?id=${id}`, { token: 'garbage' })).status, 200);
});

Accounts.run();
