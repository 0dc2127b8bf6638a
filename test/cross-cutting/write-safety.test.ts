/**
 * Issue 16, items 4 to 7: concurrent writes that must all land (or be refused with a precondition),
 * a sign-in racing a password change, keys of Object.prototype in URLs, and a restore that must not
 * reveal someone else's trash. REST over real HTTP and native tRPC through the real @trpc/client.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { eq } from 'drizzle-orm';
import superjson from 'superjson';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { assemblies, catalogHulls, sessions } from '../../db/schema';
import type { AppRouter } from '../../server/router';
import {
  COMMUNITY_SAMPLE,
  HULK,
  importCommunitySample,
  signUpAdmin,
  startTestServer,
  trpcError,
  type TTestServer,
} from '../support/helpers';
import { trpcErrorShapeProblem, type TSurface } from '../support/surfaces';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

/** What one edit answered, on either surface. */
interface TEditOutcome {
  status: number;
  message?: string;
  name?: string;
}

const SURFACES: TSurface[] = ['REST', 'tRPC'];

/** assembly.edit on one surface; `ifMatch` goes as the If-Match header on REST and the ifMatch field on tRPC. */
async function edit(
  app: TTestServer,
  surface: TSurface,
  token: string,
  uuid: string,
  data: Record<string, unknown>,
  ifMatch?: string,
): Promise<TEditOutcome> {
  if (surface === 'REST') {
    const response = await app.rest('POST', '/api/assembly/edit', {
      token,
      body: { uuid, data },
      headers: ifMatch === undefined ? undefined : { 'if-match': ifMatch },
    });
    return { status: response.status, message: response.body?.message, name: response.body?.data?.name };
  }
  try {
    const view = await app.trpc(token).assembly.edit.mutate({ uuid, data, ifMatch });
    return { status: 200, name: view.name };
  } catch (error) {
    if (!(error instanceof TRPCClientError)) throw error;
    // A 412 (or any refusal) must come back in tRPC's own error format.
    const problem = trpcErrorShapeProblem(error.shape, (error.meta?.response as Response | undefined)?.status);
    assert.is(problem, undefined, `tRPC error shape: ${problem}`);
    return { status: error.data?.httpStatus, message: error.message };
  }
}

async function publishPrivate(app: TTestServer, owner: TUser, name: string, password: string): Promise<string> {
  const response = await app.rest('POST', '/api/assembly/publish', {
    token: owner.token,
    body: { ...HULK, name, isPublic: false, password },
  });
  assert.is(response.status, 200, response.text);
  return response.body.data.uuid;
}

async function publishPublic(app: TTestServer, owner: TUser, name: string): Promise<string> {
  const response = await app.rest('POST', '/api/assembly/publish', { token: owner.token, body: { ...HULK, name } });
  assert.is(response.status, 200, response.text);
  return response.body.data.uuid;
}

async function storedRow(app: TTestServer, uuid: string) {
  const row = await app.database.db.select().from(assemblies).where(eq(assemblies.uuid, uuid)).get();
  assert.ok(row, `assembly ${uuid} is stored`);
  return row!;
}

/** The status a reader gets for a private assembly with this password (200: it is the password). */
async function readWith(app: TTestServer, reader: TUser, uuid: string, password: string): Promise<number> {
  return (
    await app.rest('GET', `/api/assembly/item?uuid=${uuid}&password=${encodeURIComponent(password)}&force=true`, {
      token: reader.token,
    })
  ).status;
}

async function itemEtag(
  app: TTestServer,
  token: string,
  uuid: string,
): Promise<{ etag: string; views: number; name: string }> {
  const response = await app.rest('GET', `/api/assembly/item?uuid=${uuid}`, { token });
  assert.is(response.status, 200, response.text);
  const etag = response.headers.get('etag');
  assert.ok(etag, 'the item answer carries an ETag');
  return { etag: etag!, views: response.body.data.views, name: response.body.data.name };
}

// ---------------------------------------------------------------------------------------------------
const Edits = suite<{ app: TTestServer; owner: TUser; reader: TUser }>('item 4: concurrent edits and If-Match');

Edits.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.reader = await context.app.signUp();
});
Edits.after(async ({ app }) => app.stop());

Edits(
  'a password change (hashing) and a rename started while it hashes both land, on both surfaces',
  async ({ app, owner, reader }) => {
    // How long each edit takes here alone: the rename is started at points within the password change's
    // lead (its Argon2 hashing), so it commits while the password change is still hashing.
    const probe = await publishPrivate(app, owner, 'Probe', 'first-secret');
    const medianMs = async (data: Record<string, unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        assert.is((await edit(app, 'REST', owner.token, probe, data)).status, 200);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[1]!;
    };
    const passwordMs = await medianMs({ password: 'probe-secret' });
    const renameMs = await medianMs({ name: 'Probe renamed' });
    const lead = Math.max(4, passwordMs - renameMs);
    const delays = [...new Set([0.1, 0.3, 0.5, 0.7].map((share) => Math.round(share * lead)).concat(15))];

    const renamedFirst: Record<TSurface, number> = { REST: 0, tRPC: 0 };
    let rounds = 0;
    // A busy machine can stretch either edit: the sweep of delays is run again (three sweeps at most)
    // until the rename has answered first on the surface; every round still checks both changes land.
    const schedule = [0, 1, 2].flatMap((sweep) => delays.map((delay) => ({ sweep, delay })));
    for (const surface of SURFACES) {
      for (const { sweep, delay } of schedule) {
        if (sweep > 0 && renamedFirst[surface] > 0) break;
        const uuid = await publishPrivate(app, owner, `Race ${surface} ${sweep} ${delay}`, 'first-secret');
        const finished: string[] = [];
        const passwordChange = edit(app, surface, owner.token, uuid, { password: 'second-secret' }).then((outcome) => {
          finished.push('password');
          return outcome;
        });
        await sleep(delay);
        const rename = edit(app, surface, owner.token, uuid, { name: `Renamed ${surface} ${sweep} ${delay}` }).then(
          (outcome) => {
            finished.push('rename');
            return outcome;
          },
        );
        const [a, b] = await Promise.all([passwordChange, rename]);
        const label = `${surface}, rename ${delay} ms after the password change`;
        assert.is(a.status, 200, `${label}: password change ${a.status} ${a.message}`);
        assert.is(b.status, 200, `${label}: rename ${b.status} ${b.message}`);
        if (finished[0] === 'rename') renamedFirst[surface]++;
        rounds++;
        const row = await storedRow(app, uuid);
        assert.is(row.name, `Renamed ${surface} ${sweep} ${delay}`, `${label}: the rename is kept`);
        assert.is(row.isPublic, false);
        assert.is(await readWith(app, reader, uuid, 'second-secret'), 200, `${label}: the new password opens it`);
        assert.is(await readWith(app, reader, uuid, 'first-secret'), 403, `${label}: the old password does not`);
      }
    }
    // The race was real on each surface: a rename committed while the password was being hashed.
    assert.ok(
      renamedFirst.REST > 0 && renamedFirst.tRPC > 0,
      `the rename never answered first: ${JSON.stringify(renamedFirst)}`,
    );
    console.log(
      `      concurrent edits: password change ${passwordMs.toFixed(0)} ms, rename ${renameMs.toFixed(0)} ms alone; ${rounds} rounds (rename ${delays.join('/')} ms after, REST and tRPC), ` +
        `rename answered first in ${renamedFirst.REST + renamedFirst.tRPC}; both changes kept in ${rounds}/${rounds}`,
    );
  },
);

Edits(
  'making it public during a password change never leaves a public assembly with a password',
  async ({ app, owner }) => {
    for (const surface of SURFACES) {
      const uuid = await publishPrivate(app, owner, `Public race ${surface}`, 'first-secret');
      const finished: string[] = [];
      const passwordChange = edit(app, surface, owner.token, uuid, { password: 'second-secret' }).then((outcome) => {
        finished.push('password');
        return outcome;
      });
      await sleep(15);
      const publicise = edit(app, surface, owner.token, uuid, { isPublic: true }).then((outcome) => {
        finished.push('public');
        return outcome;
      });
      const [a, b] = await Promise.all([passwordChange, publicise]);
      assert.is(b.status, 200, `${surface}: made public: ${b.message}`);
      const row = await storedRow(app, uuid);
      assert.is(row.isPublic, true, `${surface}: the isPublic edit is kept`);
      assert.is(row.passwordHash, null, `${surface}: a public assembly has no password`);
      // Checked again on the row as it is when written: a password no longer fits, as for a sequential call.
      if (finished[0] === 'public') {
        assert.is(a.status, 400, `${surface}: ${a.status} ${a.message}`);
        assert.match(a.message ?? '', /only a private assembly/);
      } else assert.is(a.status, 200);
    }
  },
);

Edits(
  'If-Match: the ETag of GET /assembly/item guards an edit on REST (header) and tRPC (ifMatch); 412 in each format',
  async ({ app, owner, reader }) => {
    const uuid = await publishPublic(app, owner, 'Guarded');
    const first = await itemEtag(app, owner.token, uuid);

    // A view does not change the ETag, so a conditional edit is not refused because someone read it.
    const read = await app.rest('GET', `/api/assembly/item?uuid=${uuid}`, { token: reader.token });
    assert.is(read.status, 200);
    const afterView = await itemEtag(app, owner.token, uuid);
    assert.ok(afterView.views > first.views, `a view was counted (${first.views} -> ${afterView.views})`);
    assert.is(afterView.etag, first.etag, 'the ETag leaves the view count out');

    // The native tRPC answer of getItem carries the same ETag header.
    let trpcEtag: string | null = null;
    const capturing = createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url: `${app.url}/trpc`,
          transformer: superjson,
          headers: { authorization: `Bearer ${owner.token}` },
          fetch: async (url, init) => {
            const response = await fetch(url, init as RequestInit);
            trpcEtag = response.headers.get('etag');
            return response;
          },
        }),
      ],
    });
    await capturing.assembly.getItem.query({ uuid });
    assert.is(trpcEtag, first.etag, 'tRPC getItem sends the same ETag');

    const rest = await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid, data: { name: 'Guarded 1' } },
      headers: { 'if-match': first.etag },
    });
    assert.is(rest.status, 200, rest.text);
    const second = rest.headers.get('etag');
    assert.ok(second && second !== first.etag, 'the edit answers with the new ETag');
    assert.is(
      (await itemEtag(app, owner.token, uuid)).etag,
      second,
      'the edit answer and GET /assembly/item agree on the ETag',
    );

    // The stale ETag: 412 on both surfaces, in each surface's format, nothing written.
    const staleRest = await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid, data: { name: 'Lost' } },
      headers: { 'if-match': first.etag },
    });
    assert.is(staleRest.status, 412);
    assert.equal(Object.keys(staleRest.body), ['code', 'message', 'data']);
    assert.is(staleRest.body.code, 412);
    assert.match(staleRest.body.message, /changed since the ETag/);
    const staleTrpc = await edit(app, 'tRPC', owner.token, uuid, { name: 'Lost' }, first.etag);
    assert.is(staleTrpc.status, 412);
    assert.is(staleTrpc.message, staleRest.body.message, 'the same message on both surfaces');
    const code = (
      await trpcError(app.trpc(owner.token).assembly.edit.mutate({ uuid, data: { name: 'Lost' }, ifMatch: first.etag }))
    ).data.code;
    assert.is(code, 'PRECONDITION_FAILED');
    assert.is((await storedRow(app, uuid)).name, 'Guarded 1', 'a refused edit writes nothing');

    // The current ETag passes on tRPC; so do the strong form of the tag, a list naming it, and *.
    const viaTrpc = await edit(app, 'tRPC', owner.token, uuid, { name: 'Guarded 2' }, second!);
    assert.is(viaTrpc.status, 200, viaTrpc.message);
    const third = (await itemEtag(app, owner.token, uuid)).etag;
    assert.is(
      (await edit(app, 'REST', owner.token, uuid, { name: 'Guarded 3' }, third.replace(/^W\//, ''))).status,
      200,
      'strong form of the tag',
    );
    const fourth = (await itemEtag(app, owner.token, uuid)).etag;
    assert.is(
      (await edit(app, 'REST', owner.token, uuid, { name: 'Guarded 4' }, `W/"not-it", ${fourth}`)).status,
      200,
      'a list naming it',
    );
    assert.is((await edit(app, 'tRPC', owner.token, uuid, { name: 'Guarded 5' }, '*')).status, 200, '*');

    // Another user's like changes the answer, and so the ETag: a conditional edit must read again.
    const beforeLike = (await itemEtag(app, owner.token, uuid)).etag;
    assert.is((await app.rest('POST', '/api/assembly/like', { token: reader.token, body: { uuid } })).status, 200);
    assert.is(
      (await edit(app, 'REST', owner.token, uuid, { name: 'Guarded 6' }, beforeLike)).status,
      412,
      'a like changes the ETag',
    );

    // The header and the body field saying different things is a 400, not a guess.
    const both = await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid, data: { name: 'Guarded 7' }, ifMatch: 'W/"something-else"' },
      headers: { 'if-match': (await itemEtag(app, owner.token, uuid)).etag },
    });
    assert.is(both.status, 400);
    assert.match(both.body.message, /ifMatch/);
    assert.is((await storedRow(app, uuid)).name, 'Guarded 5');
  },
);

Edits(
  'two conditional edits from one read, 15 ms apart: the first to commit wins, the other is a 412',
  async ({ app, owner, reader }) => {
    let refused = 0;
    for (const surface of SURFACES) {
      const uuid = await publishPrivate(app, owner, `Conditional ${surface}`, 'first-secret');
      const { etag } = await itemEtag(app, owner.token, uuid);
      const passwordChange = edit(app, surface, owner.token, uuid, { password: 'second-secret' }, etag);
      await sleep(15);
      const rename = edit(app, surface, owner.token, uuid, { name: `Conditional ${surface} renamed` }, etag);
      const [a, b] = await Promise.all([passwordChange, rename]);
      const statuses = [a.status, b.status].sort();
      assert.equal(
        statuses,
        [200, 412],
        `${surface}: one edit wins, one is refused (${a.status} ${a.message}, ${b.status} ${b.message})`,
      );
      const row = await storedRow(app, uuid);
      if (b.status === 200) {
        assert.is(row.name, `Conditional ${surface} renamed`);
        assert.is(
          await readWith(app, reader, uuid, 'first-secret'),
          200,
          `${surface}: the refused password change wrote nothing`,
        );
      } else {
        assert.is(row.name, `Conditional ${surface}`, `${surface}: the refused rename wrote nothing`);
        assert.is(await readWith(app, reader, uuid, 'second-secret'), 200);
      }
      refused++;
    }
    console.log(`      conditional edits from one ETag: ${refused} races (REST and tRPC), each one 200 and one 412`);
  },
);

Edits.run();

// ---------------------------------------------------------------------------------------------------
const SignIn = suite<{ app: TTestServer }>('item 5: a sign-in racing a password change');

SignIn.before(async (context) => {
  context.app = await startTestServer();
});
SignIn.after(async ({ app }) => app.stop());

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

// ---------------------------------------------------------------------------------------------------
const Prototype = suite<{ app: TTestServer; errors: unknown[] }>('item 6: keys of Object.prototype in URLs');

const LIMIT = 8;
const PROTOTYPE_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

Prototype.before(async (context) => {
  context.app = await startTestServer({ RATE_LIMIT_GLOBAL: LIMIT });
  context.errors = [];
  // Every 5xx is logged through deps.logger.error (app.ts): count what reaches it.
  const logger = context.app.app.deps.logger as unknown as { error: (...args: unknown[]) => void };
  const original = logger.error.bind(logger);
  logger.error = (...args: unknown[]) => {
    context.errors.push(args[0]);
    original(...args);
  };
});
Prototype.after(async ({ app }) => app.stop());

Prototype(
  '/api/docs/<prototype key> is a 404 in the envelope, logs nothing and counts against the limit',
  async ({ app, errors }) => {
    const remaining: number[] = [];
    for (const key of PROTOTYPE_KEYS) {
      const response = await app.rest('GET', `/api/docs/${key}`);
      assert.is(response.status, 404, `${key}: ${response.status} ${response.text.slice(0, 120)}`);
      assert.equal(response.body, {
        code: 404,
        message: `No route for GET /api/docs/${key}`,
        data: { key: 'request.notFound' },
      });
      remaining.push(Number(response.headers.get('ratelimit-remaining')));
    }
    assert.equal(
      remaining,
      PROTOTYPE_KEYS.map((_, index) => LIMIT - 1 - index),
      'each one counted',
    );
    // The documentation itself stays outside the limit.
    for (const path of ['/api/docs', '/api/docs/', '/api/docs/init.js', '/api/docs/swagger-ui.css']) {
      const response = await fetch(`${app.url}${path}`);
      await response.arrayBuffer();
      assert.is(response.status, 200, path);
      assert.is(response.headers.get('ratelimit-remaining'), null, `${path} is not counted`);
    }
    for (let spent = PROTOTYPE_KEYS.length; spent < LIMIT; spent++)
      assert.is((await app.rest('GET', '/api/docs/constructor')).status, 404);
    const over = await app.rest('GET', '/api/docs/constructor');
    assert.is(over.status, 429, 'past the limit');
    assert.ok(Number(over.headers.get('retry-after')) >= 1);
    assert.is((await fetch(`${app.url}/api/docs/swagger-ui.css`)).status, 200, 'the reference is still served');
    assert.is(errors.length, 0, `logged: ${JSON.stringify(errors).slice(0, 300)}`);
  },
);

Prototype.run();

const Query = suite<{ app: TTestServer }>('item 6: prototype keys in query strings and inputs');

Query.before(async (context) => {
  context.app = await startTestServer();
});
Query.after(async ({ app }) => app.stop());

Query(
  '?__proto__=1 and other prototype keys are ordinary unknown parameters (REST), and inputs on tRPC',
  async ({ app }) => {
    const plain = await app.rest('GET', '/api/assembly/list');
    assert.is(plain.status, 200);
    // Unknown parameters are refused (issue 18): a 400 naming the key, as for any other unknown name.
    for (const [query, key] of [
      ['__proto__=1', '__proto__'],
      ['__proto__=1&__proto__=2', '__proto__'],
      ['__proto__[sort]=rating', '__proto__'],
      ['constructor=x', 'constructor'],
      ['toString=1', 'toString'],
      ['hasOwnProperty=1&page=1', 'hasOwnProperty'],
    ] as const) {
      const response = await app.rest('GET', `/api/assembly/list?${query}`);
      assert.is(response.status, 400, `?${query}: ${response.text.slice(0, 160)}`);
      assert.ok(
        response.body.message.includes(`Unrecognized key: "${key}`),
        `?${query} names the key: ${response.body.message}`,
      );
    }
    // A prototype key as the value of a known parameter is a value like any other.
    for (const query of ['sortField=__proto__', 'sortField=constructor', 'sortField=hasOwnProperty']) {
      const response = await app.rest('GET', `/api/assembly/list?${query}`);
      assert.is(response.status, 400, `?${query}: ${response.text.slice(0, 160)}`);
      assert.match(response.body.message, /sortField: must be createdTime, likes, rating/);
    }
    // The parameters the route knows still arrive (they were read through an array prototype before).
    const sorted = await app.rest('GET', '/api/assembly/list?__proto__=1&sort=bogus');
    assert.is(sorted.status, 400);
    assert.match(sorted.body.message, /sort: must be latest, hottest, rating or updated/);

    // tRPC: the same keys as fields of a query's input (sent as tRPC's wire format: superjson drops `__proto__`; the others are unknown keys, a 400).
    for (const input of ['{"__proto__":"1"}', '{"__proto__":{"sort":"rating"}}']) {
      const wire = encodeURIComponent(`{"json":${input}}`);
      const response = await fetch(`${app.url}/trpc/assembly.list?input=${wire}`);
      const body: any = await response.json();
      assert.is(response.status, 200, JSON.stringify(body).slice(0, 200));
      assert.equal(body.result.data.json, plain.body.data);
    }
    const unknown = await fetch(
      `${app.url}/trpc/assembly.list?input=${encodeURIComponent('{"json":{"constructor":"x","toString":"1"}}')}`,
    );
    const refused: any = await unknown.json();
    assert.is(unknown.status, 400, JSON.stringify(refused).slice(0, 200));
    assert.match(refused.error.json.message, /Unrecognized keys: "constructor", "toString"/);
  },
);

Query(
  'a catalog import keyed by prototype names: `__proto__` and `constructor` are data, never a prototype',
  async ({ app }) => {
    const admin = await signUpAdmin(app);
    const [hullId, hull] = Object.entries(COMMUNITY_SAMPLE.ships)[0]!;
    const [itemId, item] = Object.entries(COMMUNITY_SAMPLE.items)[0]!;
    // JSON text, as an import file arrives: JSON.parse makes `__proto__` an own key, which an object literal would not.
    const slots = JSON.parse(`{"__proto__":[1,2],"constructor":[1,2],${JSON.stringify(hull.slots).slice(1)}`);
    const body = `{"ships":{"${hullId}":${JSON.stringify({ ...hull, slots })}},"items":{"${itemId}":${JSON.stringify(item)}}}`;
    const response = await fetch(`${app.url}/api/admin/catalog/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body,
    });
    const report: any = await response.json();
    assert.is(response.status, 200, JSON.stringify(report).slice(0, 300));
    assert.is(report.data.hulls.inserted + report.data.hulls.updated, 1);
    const [stored] = await app.database.db
      .select({ slots: catalogHulls.slots })
      .from(catalogHulls)
      .where(eq(catalogHulls.id, hullId));
    const kept = JSON.parse(stored!.slots);
    // `constructor` is a slot like any other; `__proto__` never gets past input parsing (zod rebuilds records key by key).
    assert.equal(kept.constructor, { count: 1, gunPorts: 2 }, `slots kept as data: ${stored!.slots.slice(0, 200)}`);
    assert.not.ok(Object.hasOwn(kept, '__proto__'));
    assert.is(Object.getPrototypeOf(kept), Object.prototype);
  },
);

Query.run();

// ---------------------------------------------------------------------------------------------------
const Restore = suite<{ app: TTestServer; owner: TUser; other: TUser }>(
  "item 7: restore reveals nothing of another user's trash",
);

Restore.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.other = await context.app.signUp();
});
Restore.after(async ({ app }) => app.stop());

Restore(
  "a non-creator's restore is the 404 of an unknown assembly, on both surfaces; the creator's works",
  async ({ app, owner, other }) => {
    const trashed = await publishPublic(app, owner, 'Binned');
    const active = await publishPublic(app, owner, 'Afloat');
    assert.is(
      (await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: trashed } })).status,
      200,
    );
    const unknown = '4d7f4a8e-2b1c-4e5f-9a6b-0c1d2e3f4a5b';

    const restRestore = async (uuid: string) =>
      (await app.rest('POST', '/api/assembly/restore', { token: other.token, body: { uuid } })).body;
    const trpcRestore = (uuid: string) => trpcError(app.trpc(other.token).assembly.restore.mutate({ uuid }));
    const expected = (uuid: string) => ({
      code: 404,
      message: `Assembly ${uuid} is not in the trash`,
      data: { key: 'request.notFound' },
    });
    for (const uuid of [trashed, active, unknown]) {
      assert.equal(await restRestore(uuid), expected(uuid), 'REST');
      const answer = await trpcRestore(uuid);
      assert.is(answer.status, 404);
      assert.is(answer.message, expected(uuid).message, 'tRPC');
    }
    // Edit, delete and item of the trashed one say 404 too.
    assert.is(
      (
        await app.rest('POST', '/api/assembly/edit', {
          token: other.token,
          body: { uuid: trashed, data: { name: 'x' } },
        })
      ).status,
      404,
    );
    assert.is(
      (await app.rest('POST', '/api/assembly/delete', { token: other.token, body: { uuid: trashed } })).status,
      404,
    );
    assert.is((await app.rest('GET', `/api/assembly/item?uuid=${trashed}`, { token: other.token })).status, 404);
    assert.is((await storedRow(app, trashed)).deletedAt !== null, true, 'still in the trash');

    const restored = await app.trpc(owner.token).assembly.restore.mutate({ uuid: trashed });
    assert.is(restored.name, 'Binned');
    assert.is((await storedRow(app, trashed)).deletedAt, null);
    assert.is(
      (await app.rest('POST', '/api/assembly/restore', { token: owner.token, body: { uuid: trashed } })).status,
      404,
      'not in the trash any more',
    );
  },
);

Restore.run();
