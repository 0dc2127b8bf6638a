/**
 * Issue 16, item 5: a sign-in racing a password change, and two password changes racing each other.
 * REST over real HTTP and native tRPC through the real @trpc/client.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { TRPCClientError } from '@trpc/client';
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { sessions } from '../../db/schema';
import type { TTestServer } from '../support/helpers';
import type { TSurface } from '../support/surfaces';
import { serverSuite } from '../support/server-suite';
import { SURFACES } from './write-safety-fixtures';

const SignIn = serverSuite('item 5: a sign-in racing a password change');

async function signIn(
  app: TTestServer,
  surface: TSurface,
  username: string,
  password: string,
): Promise<{ status: number; token?: string }> {
  if (surface === 'REST') {
    const response = await app.rest('POST', '/api/user/signin', { body: { username, password } });
    return { status: response.status, token: response.body?.data?.token };
  }
  try {
    return { status: 200, token: (await app.trpc().user.signin.mutate({ username, password })).token };
  } catch (error) {
    if (error instanceof TRPCClientError) return { status: error.data?.httpStatus };
    throw error;
  }
}

async function changePassword(
  app: TTestServer,
  surface: TSurface,
  token: string,
  currentPassword: string,
  newPassword: string,
): Promise<{ status: number; token?: string; message?: string }> {
  if (surface === 'REST') {
    const response = await app.rest('POST', '/api/user/password', { token, body: { currentPassword, newPassword } });
    return { status: response.status, token: response.body?.data?.token, message: response.body?.message };
  }
  try {
    return {
      status: 200,
      token: (await app.trpc(token).user.changePassword.mutate({ currentPassword, newPassword })).token,
    };
  } catch (error) {
    if (error instanceof TRPCClientError) return { status: error.data?.httpStatus, message: error.message };
    throw error;
  }
}

/** Whether a token still opens the account, asked on the surface under test. */
async function tokenWorks(app: TTestServer, surface: TSurface, token: string): Promise<boolean> {
  if (surface === 'REST') {
    const status = (await app.rest('GET', '/api/user/me', { token })).status;
    assert.ok(status === 200 || status === 401, `me: ${status}`);
    return status === 200;
  }
  try {
    await app.trpc(token).user.me.query();
    return true;
  } catch (error) {
    if (error instanceof TRPCClientError && error.data?.httpStatus === 401) return false;
    throw error;
  }
}

SignIn(
  'no session made from the old password survives the change, whatever the interleaving (REST and tRPC)',
  async ({ app }) => {
    const ROUNDS = 24;
    const totals = { rounds: 0, refused: 0, signedInThenEnded: 0, survived: 0 };
    for (const surface of SURFACES) {
      const user = await app.signUp();
      let password = user.password;
      let token = user.token;
      let generation = 0;
      const next = () => `${surface}-secret-${++generation}`;
      // One undisturbed change measures how long a change takes here (two Argon2 runs).
      const started = performance.now();
      const warmUp = await changePassword(app, surface, token, password, next());
      assert.is(warmUp.status, 200);
      const changeMs = performance.now() - started;
      password = `${surface}-secret-${generation}`;
      token = warmUp.token!;

      // The sign-in starts from 0 to 1.3 times a change's duration after it: across the window where it
      // reads the old hash before the change commits and finishes verifying it after.
      for (let round = 0; round < ROUNDS; round++) {
        const oldPassword = password;
        const newPassword = next();
        const change = changePassword(app, surface, token, oldPassword, newPassword);
        await sleep((round / (ROUNDS - 1)) * changeMs * 1.3);
        const signin = signIn(app, surface, user.username, oldPassword);
        const [changed, signedIn] = await Promise.all([change, signin]);
        const label = `${surface} round ${round}`;
        assert.is(changed.status, 200, `${label}: change ${changed.status} ${changed.message}`);
        assert.ok(signedIn.status === 200 || signedIn.status === 401, `${label}: sign-in answered ${signedIn.status}`);
        totals.rounds++;
        if (signedIn.status === 401) totals.refused++;
        else if (await tokenWorks(app, surface, signedIn.token!)) totals.survived++;
        else totals.signedInThenEnded++;
        // Exactly one session is left: the one the change made for its caller.
        assert.ok(await tokenWorks(app, surface, changed.token!), `${label}: the change's own session works`);
        const left = await app.database.db.select().from(sessions).where(eq(sessions.userId, user.id)).all();
        assert.is(left.length, 1, `${label}: ${left.length} sessions left`);
        password = newPassword;
        token = changed.token!;
      }
      assert.is(
        (await signIn(app, surface, user.username, `${surface}-secret-${generation - 1}`)).status,
        401,
        'the old password no longer signs in',
      );
      assert.is((await signIn(app, surface, user.username, password)).status, 200, 'the new one does');
    }
    console.log(
      `      sign-in racing a password change: ${totals.rounds} rounds (REST and tRPC), ${totals.refused} sign-ins refused, ` +
        `${totals.signedInThenEnded} signed in before the change and ended by it, ${totals.survived} sessions from the old password survived`,
    );
    assert.is(totals.survived, 0);
    // Both outcomes occurred: the sweep crossed the race window.
    assert.ok(totals.refused > 0 && totals.signedInThenEnded > 0, JSON.stringify(totals));
  },
);

SignIn(
  'two password changes from the same current password: one wins, the other is a 403 and overwrites nothing',
  async ({ app }) => {
    for (const surface of SURFACES) {
      const user = await app.signUp();
      const first = changePassword(app, surface, user.token, user.password, `${surface}-first-new`);
      const second = changePassword(app, surface, user.token, user.password, `${surface}-second-new`);
      const [a, b] = await Promise.all([first, second]);
      assert.equal(
        [a.status, b.status].sort(),
        [200, 403],
        `${surface}: ${a.status} ${a.message}, ${b.status} ${b.message}`,
      );
      const [winner, loser] = a.status === 200 ? [a, b] : [b, a];
      assert.is(loser.message, 'Current password is wrong');
      const winning = winner === a ? `${surface}-first-new` : `${surface}-second-new`;
      const losing = winner === a ? `${surface}-second-new` : `${surface}-first-new`;
      assert.ok(await tokenWorks(app, surface, winner.token!), `${surface}: the winner's session works`);
      assert.is(
        (await signIn(app, surface, user.username, winning)).status,
        200,
        `${surface}: the winning password is the password`,
      );
      assert.is((await signIn(app, surface, user.username, losing)).status, 401, `${surface}: the losing one is not`);
    }
  },
);

SignIn.run();
