// Accounts after sign-in: the token on GET /user/me (missing, forged, malformed, x-access-token),
// sessions' 30 days and their sliding, the public profile of GET /user/info, sign-out, and the
// password change of POST /user/password (every old session ends), over REST and tRPC.
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { sessions } from '../../db/schema';
import { SESSION_LIFETIME_MS, sessionIdFromToken } from '../../server/domains/user/session';
import { trpcError } from '../support/http-clients';
import { serverSuite } from '../support/server-suite';
import { DAY } from './fixtures';

const Sessions = serverSuite('accounts: me, sessions, info, sign-out, password change');

Sessions('me: no token 401, forged token 401, malformed header 401, x-access-token accepted', async ({ app }) => {
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

Sessions('sessions expire after 30 days and slide when used in their second half', async ({ app }) => {
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

Sessions('info returns the public profile without e-mail; unknown id 404', async ({ app }) => {
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

Sessions('sign-out ends only that session', async ({ app }) => {
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

Sessions(
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

Sessions('a token on a public endpoint is optional, even a bad one', async ({ app }) => {
  const { id } = await app.signUp();
  assert.is((await app.rest('GET', `/api/user/info?id=${id}`, { token: 'garbage' })).status, 200);
});

Sessions.run();
