// Password change in the web client's form (issue 19): PUT /user/changePassword {oldPassword, newPassword}
// (the form of POST /user/password: the same code, limits and session handling), over HTTP on both
// surfaces; its errors, and the lock-out it shares with sign-in and POST /user/password.
import * as assert from 'uvu/assert';
import { startTestServer } from '../support/helpers';
import { batchClient, trpcError } from '../support/http-clients';
import { serverSuite } from '../support/server-suite';

const Passwords = serverSuite('profiles: password change in the client form');

Passwords(
  'PUT /user/changePassword {oldPassword, newPassword}: a new token, every old one ends, the new password signs in; tRPC alike',
  async ({ app }) => {
    const user = await app.signUp();
    const second = (
      await app.rest('POST', '/api/user/signin', { body: { username: user.username, password: user.password } })
    ).body.data.token;
    const response = await app.rest('PUT', '/api/user/changePassword', {
      token: user.token,
      body: { oldPassword: user.password, newPassword: 'a brand new secret' },
    });
    assert.is(response.status, 200, response.text);
    assert.is(response.body.data.userId, user.id);
    const fresh: string = response.body.data.token;
    for (const old of [user.token, second]) {
      const dead = await app.rest('GET', '/api/user/me', { token: old });
      assert.equal([dead.status, dead.body.data.key], [401, 'user.tokenExpired']);
    }
    assert.is((await app.rest('GET', '/api/user/me', { token: fresh })).status, 200);
    assert.is(
      (await app.rest('POST', '/api/user/signin', { body: { username: user.username, password: user.password } }))
        .status,
      401,
    );
    assert.is(
      (
        await app.rest('POST', '/api/user/signin', {
          body: { username: user.username, password: 'a brand new secret' },
        })
      ).status,
      200,
    );
    // The same call on native tRPC; and the contract's POST /user/password still works after it.
    const viaTrpc = await app
      .trpc(fresh)
      .user.profile.changePassword.mutate({ oldPassword: 'a brand new secret', newPassword: 'third secret here' });
    assert.is((await app.rest('GET', '/api/user/me', { token: fresh })).status, 401);
    const contract = await app.rest('POST', '/api/user/password', {
      token: viaTrpc.token,
      body: { currentPassword: 'third secret here', newPassword: 'fourth secret here' },
    });
    assert.is(contract.status, 200, contract.text);
  },
);

Passwords(
  'PUT /user/changePassword errors: 400 bad input, 401 without a token, 403 wrong oldPassword (password unchanged)',
  async ({ app }) => {
    const user = await app.signUp();
    const change = (body: unknown, token: string | undefined) =>
      app.rest('PUT', '/api/user/changePassword', { token, body });
    for (const [body, field] of [
      [{ newPassword: 'long enough pw' }, 'oldPassword'],
      [{ oldPassword: user.password, newPassword: 'short' }, 'newPassword'],
      [{ oldPassword: user.password, newPassword: 'x'.repeat(257) }, 'newPassword'],
      [{ currentPassword: user.password, newPassword: 'long enough pw' }, 'currentPassword'],
      [{ oldPassword: user.password, newPassword: 'long enough pw', extra: 1 }, 'extra'],
    ] as const) {
      const response = await change(body, user.token);
      assert.is(response.status, 400, JSON.stringify(body));
      assert.match(response.text, field);
    }
    assert.is((await change({ oldPassword: user.password, newPassword: 'long enough pw' }, undefined)).status, 401);
    assert.is(
      (
        await trpcError(
          app.trpc().user.profile.changePassword.mutate({ oldPassword: user.password, newPassword: 'long enough pw' }),
        )
      ).status,
      401,
    );
    const wrong = await change({ oldPassword: 'not the password', newPassword: 'long enough pw' }, user.token);
    assert.equal(
      [wrong.status, wrong.body.message, wrong.body.data.field],
      [403, 'Current password is wrong', 'currentPassword'],
    );
    assert.is(
      (
        await trpcError(
          app
            .trpc(user.token)
            .user.profile.changePassword.mutate({ oldPassword: 'not the password', newPassword: 'long enough pw' }),
        )
      ).status,
      403,
    );
    assert.is(
      (await app.rest('GET', '/api/user/me', { token: user.token })).status,
      200,
      'the session survives a refused change',
    );
    assert.is(
      (await app.rest('POST', '/api/user/signin', { body: { username: user.username, password: user.password } }))
        .status,
      200,
    );
  },
);

Passwords(
  'lock-out: wrong oldPasswords count with failed sign-ins and POST /user/password against one budget per account (429, even for the right one)',
  async () => {
    const app = await startTestServer({ RATE_LIMIT_SIGNIN_ACCOUNT: 3 });
    try {
      const user = await app.signUp();
      const wrong = { oldPassword: 'not the password', newPassword: 'long enough pw' };
      assert.is((await app.rest('PUT', '/api/user/changePassword', { token: user.token, body: wrong })).status, 403);
      assert.is(
        (
          await app.rest('POST', '/api/user/password', {
            token: user.token,
            body: { currentPassword: 'nope nope', newPassword: 'long enough pw' },
          })
        ).status,
        403,
      );
      assert.is(
        (await app.rest('POST', '/api/user/signin', { body: { username: user.username, password: 'nope nope' } }))
          .status,
        401,
      );
      // The budget is spent: the right password is refused on every path until the window passes.
      const locked = await app.rest('PUT', '/api/user/changePassword', {
        token: user.token,
        body: { oldPassword: user.password, newPassword: 'long enough pw' },
      });
      assert.equal([locked.status, locked.body.data.key], [429, 'request.rateLimited']);
      assert.is(
        (
          await trpcError(
            app
              .trpc(user.token)
              .user.profile.changePassword.mutate({ oldPassword: user.password, newPassword: 'long enough pw' }),
          )
        ).status,
        429,
      );
      assert.is(
        (await app.rest('POST', '/api/user/signin', { body: { username: user.username, password: user.password } }))
          .status,
        429,
      );

      // Ten guesses in one tRPC batch by another account: at most 3 are checked (403), the rest 429.
      const other = await app.signUp();
      const batch = batchClient(app.url, { token: other.token, maxItems: 10 }).client;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, () => batch.user.profile.changePassword.mutate(wrong)),
      );
      const statuses = outcomes.map((outcome) =>
        outcome.status === 'rejected' ? (outcome.reason as { data: { httpStatus: number } }).data.httpStatus : 200,
      );
      assert.equal(statuses.sort(), [403, 403, 403, 429, 429, 429, 429, 429, 429, 429]);
    } finally {
      await app.stop();
    }
  },
);

Passwords.run();
