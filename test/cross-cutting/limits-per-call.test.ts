/**
 * The limits on guessing private assemblies' passwords hold per call, as over REST, however the calls
 * arrive: a tRPC batch (httpBatchLink: its calls run side by side on the server), concurrent REST
 * requests, or both at once. Each test fires many calls together and asserts exact counts of the
 * answers: only a limit decided per call, before the work it guards, gives them. A flood of wrong
 * guesses does not queue other users' sign-ins. The other limits per call are in
 * limits-per-call-orders.test.ts (the pending-order cap), limits-per-call-signin.test.ts (sign-in
 * lock-out and the password change) and limits-per-call-signup.test.ts (sign-up and captcha).
 */
import { TRPCClientError } from '@trpc/client';
import * as assert from 'uvu/assert';
import type { AppRouter } from '../../server/router';
import type { TTestServer } from '../support/helpers';
import { importCommunitySample } from '../support/community-sample';
import { batchClient, statusOf } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { tally } from '../support/server-suite';
import { limitsSuite, newClient, repeat, type TUser } from './limits-fixtures';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const HULK = { name: 'Locked hulk', shipId: 'hulk', weapons: [{ slot: 'leftSideWeapon', itemId: 'demicannon1' }] };
const SECRET = 'open-sesame';

// Each test's guesses come from client addresses of its own (X-Forwarded-For through one trusted hop).
const Assemblies = limitsSuite<{ owner: TUser; guesser: TUser }>(
  'private assembly passwords, per call',
  { TRUST_PROXY: 1, RATE_LIMIT_ASSEMBLY_PASSWORD_CLIENT: 10, RATE_LIMIT_ASSEMBLY_PASSWORD: 50 },
  async (context) => {
    const admin = await signUpAdmin(context.app);
    await importCommunitySample(context.app, admin);
    context.owner = await context.app.signUp();
    context.guesser = await context.app.signUp();
  },
);

async function privateAssembly(app: TTestServer, owner: TUser): Promise<string> {
  const response = await app.rest('POST', '/api/assembly/publish', {
    token: owner.token,
    body: { ...HULK, isPublic: false, password: SECRET },
  });
  assert.is(response.status, 200, response.text);
  return response.body.data.uuid;
}

function restItem(app: TTestServer, uuid: string, password: string, client: string) {
  return app.rest('GET', `/api/assembly/item?uuid=${uuid}&password=${encodeURIComponent(password)}`, {
    headers: { 'x-forwarded-for': client },
  });
}

Assemblies(
  '20 wrong passwords in one batch from one client: exactly 10 checked (403), 10 are 429; the right one is then a 429 for that client only',
  async ({ app, owner }) => {
    const uuid = await privateAssembly(app, owner);
    const client = newClient();
    const { client: trpc, sent } = batchClient(app.url, { headers: { 'x-forwarded-for': client } });
    const statuses = await Promise.all(
      repeat(20, (i) => statusOf(trpc.assembly.getItem.query({ uuid, password: `guess ${i}` }))),
    );
    assert.is(sent.requests, 1, 'one batch');
    assert.equal(tally(statuses), { 403: 10, 429: 10 });

    const locked = await restItem(app, uuid, SECRET, client);
    assert.is(locked.status, 429);
    assert.is(locked.body.code, 429);
    assert.ok(Number(locked.headers.get('retry-after')) > 0);
    const error = await trpc.assembly.getAttributes
      .query({ uuid, password: SECRET })
      .catch((caught: TRPCClientError<AppRouter>) => caught);
    assert.instance(error, TRPCClientError);
    assert.is((error as TRPCClientError<AppRouter>).data?.httpStatus, 429);
    assert.ok(((error as TRPCClientError<AppRouter>).data as { retryAfterSeconds?: number }).retryAfterSeconds! > 0);

    assert.is((await restItem(app, uuid, SECRET, newClient())).status, 200, 'another client with the password');
    const creator = await app.rest('GET', `/api/assembly/item?uuid=${uuid}`, {
      token: owner.token,
      headers: { 'x-forwarded-for': client },
    });
    assert.is(creator.status, 200, 'the creator never needs the password');
  },
);

Assemblies(
  'item, attr, like and rate share one budget: 20 wrong guesses over REST and a batch, exactly 10 checked',
  async ({ app, owner, guesser }) => {
    const uuid = await privateAssembly(app, owner);
    const client = newClient();
    const { client: trpc } = batchClient(app.url, {
      headers: { 'x-forwarded-for': client, authorization: `Bearer ${guesser.token}` },
    });
    const headers = { 'x-forwarded-for': client };
    const statuses = await Promise.all([
      ...repeat(5, (i) => restItem(app, uuid, `item ${i}`, client).then((response) => response.status)),
      ...repeat(5, (i) =>
        app
          .rest('GET', `/api/assembly/attr?uuid=${uuid}&password=attr${i}`, { headers })
          .then((response) => response.status),
      ),
      ...repeat(5, (i) => statusOf(trpc.assembly.like.mutate({ uuid, like: true, password: `like ${i}` }))),
      ...repeat(5, (i) => statusOf(trpc.assembly.rate.mutate({ uuid, score: 4, password: `rate ${i}` }))),
    ]);
    assert.equal(tally(statuses), { 403: 10, 429: 10 });
    assert.is(await statusOf(trpc.assembly.like.mutate({ uuid, like: true, password: SECRET })), 429);
    const likes = await app.rest('GET', `/api/assembly/item?uuid=${uuid}`, { token: owner.token });
    assert.is(likes.body.data.likes, 0, 'no wrong guess got through');
  },
);

Assemblies(
  'per assembly: 60 wrong guesses from 6 clients (10 each, within their own limit), exactly 50 checked; then everyone but the creator waits',
  async ({ app, owner }) => {
    const uuid = await privateAssembly(app, owner);
    const clients = repeat(6, () => newClient());
    const statuses = await Promise.all(
      clients.flatMap((client, c) => [
        ...repeat(5, (i) => restItem(app, uuid, `rest ${c} ${i}`, client).then((response) => response.status)),
        ...(() => {
          const { client: trpc } = batchClient(app.url, { headers: { 'x-forwarded-for': client } });
          return repeat(5, (i) => statusOf(trpc.assembly.getAttributes.query({ uuid, password: `trpc ${c} ${i}` })));
        })(),
      ]),
    );
    assert.equal(tally(statuses), { 403: 50, 429: 10 });
    assert.is((await restItem(app, uuid, SECRET, newClient())).status, 429, 'a new client, with the password');
    assert.is(
      (await app.rest('GET', `/api/assembly/item?uuid=${uuid}`, { token: owner.token })).status,
      200,
      'the creator',
    );
    // Another assembly has its own budget.
    assert.is((await restItem(app, await privateAssembly(app, owner), 'wrong', newClient())).status, 403);
  },
);

Assemblies(
  'right passwords give their points back: 30 reads in a row and a batch of 10 from one client all succeed',
  async ({ app, owner, guesser }) => {
    const uuid = await privateAssembly(app, owner);
    const client = newClient();
    for (let i = 0; i < 30; i++) assert.is((await restItem(app, uuid, SECRET, client)).status, 200, `read ${i}`);
    const { client: trpc } = batchClient(app.url, {
      headers: { 'x-forwarded-for': client, authorization: `Bearer ${guesser.token}` },
    });
    const statuses = await Promise.all([
      ...repeat(5, () => statusOf(trpc.assembly.getItem.query({ uuid, password: SECRET }))),
      ...repeat(5, () => statusOf(trpc.assembly.rate.mutate({ uuid, score: 5, password: SECRET }))),
    ]);
    assert.equal(tally(statuses), { 200: 10 });
    // The budget is untouched after all that: ten wrong guesses are still checked, the eleventh is not.
    const wrong = await Promise.all(
      repeat(10, (i) => restItem(app, uuid, `wrong ${i}`, client).then((response) => response.status)),
    );
    assert.equal(tally(wrong), { 403: 10 });
    assert.is((await restItem(app, uuid, 'wrong again', client)).status, 429);
  },
);

/**
 * Sign-ins did not queue behind the guesses: their p99 during the flood within 10 times their p99 just
 * before it, on the same server. Queued, they took 40 to 140 times as long (8.5 s against 60 to 200 ms);
 * the CPU the checked guesses take from the sign-ins costs 2 to 4 times. A bound in milliseconds failed
 * on a busy host, against a libSQL server over HTTP (p50 0.5 s, p99 1.0 s).
 */
function assertNotQueued(duringFloodMs: number, quietMs: number): void {
  assert.ok(
    duringFloodMs < 10 * quietMs,
    `sign-ins p99 ${duringFloodMs.toFixed(0)} ms during the flood, ${quietMs.toFixed(0)} ms without it`,
  );
}

/** Signs each user in `rounds` times, users side by side; returns every sign-in's time in ms. */
async function timedSignins(app: TTestServer, users: TUser[], rounds: number): Promise<number[]> {
  const times: number[] = [];
  await Promise.all(
    users.map(async (user) => {
      for (let round = 0; round < rounds; round++) {
        const started = performance.now();
        const response = await app.rest('POST', '/api/user/signin', {
          body: { username: user.username, password: user.password },
        });
        times.push(performance.now() - started);
        assert.is(response.status, 200, response.text);
      }
    }),
  );
  return times;
}

Assemblies(
  "a flood of 100 wrong guesses from one client (batch and REST) does not queue other users' sign-ins (p99 within 10x)",
  async ({ app, owner }) => {
    const uuid = await privateAssembly(app, owner);
    const users = await Promise.all(repeat(10, () => app.signUp()));
    const quiet = percentile(await timedSignins(app, users, 3), 99);
    const client = newClient();
    const { client: trpc } = batchClient(app.url, { headers: { 'x-forwarded-for': client } });
    const flood = Promise.all([
      ...repeat(50, (i) => statusOf(trpc.assembly.getItem.query({ uuid, password: `batch ${i}` }))),
      ...repeat(50, (i) => restItem(app, uuid, `rest ${i}`, client).then((response) => response.status)),
    ]);
    const [statuses, times] = await Promise.all([flood, timedSignins(app, users, 3)]);
    assert.equal(tally(statuses), { 403: 10, 429: 90 });
    const p99 = percentile(times, 99);
    console.log(
      `      sign-ins during a one-client flood: p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (${quiet.toFixed(0)} ms without it)`,
    );
    assertNotQueued(p99, quiet);
  },
);

Assemblies(
  '100 wrong guesses from 100 clients over two assemblies (all within the limits) do not queue sign-ins (p99 within 10x)',
  async ({ app, owner }) => {
    const targets = [await privateAssembly(app, owner), await privateAssembly(app, owner)];
    const users = await Promise.all(repeat(10, () => app.signUp()));
    const quiet = percentile(await timedSignins(app, users, 3), 99);
    const flood = Promise.all(
      repeat(100, (i) => restItem(app, targets[i % 2]!, `guess ${i}`, newClient()).then((response) => response.status)),
    );
    const [statuses, times] = await Promise.all([flood, timedSignins(app, users, 3)]);
    assert.equal(
      tally(statuses),
      { 403: 100 },
      'every guess was checked: only the Argon2 lane of assembly passwords keeps them from queueing before sign-ins',
    );
    const p99 = percentile(times, 99);
    console.log(
      `      sign-ins during a 100-client flood: p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (${quiet.toFixed(0)} ms without it)`,
    );
    assertNotQueued(p99, quiet);
  },
);

Assemblies.run();
