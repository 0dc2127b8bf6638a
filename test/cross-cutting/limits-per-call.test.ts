/**
 * Every per-operation limit holds per call, as over REST, however the calls arrive: a tRPC batch
 * (httpBatchLink: its calls run side by side on the server), concurrent REST requests, or both at
 * once. Each test fires many calls together and asserts exact counts of the answers: only a limit
 * decided per call, before the work it guards, gives them.
 */
import { openSvgAnswer } from '../../server/domains/captcha/service';
import { and, count, eq } from 'drizzle-orm';
import { TRPCClientError } from '@trpc/client';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { subscriptionOrders } from '../../db/schema';
import { DEMO_SUBSCRIPTION_CATALOG } from '../../server/seed/subscription';
import { MAX_PENDING_ORDERS } from '../../server/domains/subscription/orders';
import type { AppRouter } from '../../server/router';
import {
  batchClient,
  importCommunitySample,
  signUpAdmin,
  solveCaptcha,
  startTestServer,
  statusOf,
  type TTestServer,
} from '../support/helpers';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

const BIG_BATCHES = { TRPC_MAX_BATCH_SIZE: 100 } as const;

/** How many answers had each status. */
function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

function repeat<T>(n: number, make: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => make(i));
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A client address of its own (the servers below trust one proxy hop), so tests do not share limits. */
let clientCounter = 0;
function newClient(): string {
  clientCounter++;
  return `198.51.${Math.floor(clientCounter / 250)}.${(clientCounter % 250) + 1}`;
}

// --- The pending-order cap ---

const Orders = suite<{ app: TTestServer; tierId: string }>('pending-order cap, per call');
Orders.before(async (context) => {
  context.app = await startTestServer({ ...BIG_BATCHES });
  const admin = await signUpAdmin(context.app);
  const imported = await context.app.rest('POST', '/api/admin/subscription/import', {
    token: admin.token,
    body: DEMO_SUBSCRIPTION_CATALOG,
  });
  assert.is(imported.status, 200, imported.text);
  context.tierId = DEMO_SUBSCRIPTION_CATALOG.plans[0]!.tiers[0]!.tierId;
});
Orders.after(async (context) => {
  await context.app.stop();
});

async function pendingOrders(app: TTestServer, userId: string): Promise<number> {
  const row = await app.database.db
    .select({ n: count() })
    .from(subscriptionOrders)
    .where(and(eq(subscriptionOrders.userId, userId), eq(subscriptionOrders.status, 'pending')))
    .get();
  return row?.n ?? 0;
}

function restOrder(app: TTestServer, token: string, tierId: string, key?: string) {
  return app
    .rest('POST', '/api/subscription/orders/create', {
      token,
      body: { tierId, payType: 'manual' },
      headers: key ? { 'idempotency-key': key } : {},
    })
    .then((response) => ({ status: response.status, orderId: response.body.data?.orderId as string | undefined }));
}

Orders(
  '20 createOrder calls in one tRPC batch leave exactly 5 pending orders; the other 15 answer 409',
  async ({ app, tierId }) => {
    assert.is(MAX_PENDING_ORDERS, 5);
    const buyer = await app.signUp();
    const { client, sent } = batchClient(app.url, { headers: { authorization: `Bearer ${buyer.token}` } });
    const statuses = await Promise.all(
      repeat(20, () => statusOf(client.subscription.createOrder.mutate({ tierId, payType: 'manual' }))),
    );
    assert.is(sent.requests, 1, 'one batch');
    assert.equal(tally(statuses), { 200: 5, 409: 15 });
    assert.is(await pendingOrders(app, buyer.id), 5);
  },
);

Orders(
  '20 concurrent REST requests, and a batch mixed with REST requests, hold the cap exactly',
  async ({ app, tierId }) => {
    const rest = await app.signUp();
    const answers = await Promise.all(repeat(20, () => restOrder(app, rest.token, tierId)));
    assert.equal(tally(answers.map((answer) => answer.status)), { 200: 5, 409: 15 });
    assert.is(await pendingOrders(app, rest.id), 5);

    const mixed = await app.signUp();
    const { client } = batchClient(app.url, { headers: { authorization: `Bearer ${mixed.token}` } });
    const statuses = await Promise.all([
      ...repeat(10, () => statusOf(client.subscription.createOrder.mutate({ tierId, payType: 'manual' }))),
      ...repeat(10, () => restOrder(app, mixed.token, tierId).then((answer) => answer.status)),
    ]);
    assert.equal(tally(statuses), { 200: 5, 409: 15 });
    assert.is(await pendingOrders(app, mixed.id), 5);
  },
);

Orders(
  'one Idempotency-Key in a batch and in concurrent requests makes one order; at the cap, its repeats still return it',
  async ({ app, tierId }) => {
    const buyer = await app.signUp();
    const key = `key-${buyer.id}`;
    // A batch shares its headers: every call carries the key.
    const { client } = batchClient(app.url, {
      headers: { authorization: `Bearer ${buyer.token}`, 'idempotency-key': key },
    });
    const answers = await Promise.all([
      ...repeat(10, () =>
        client.subscription.createOrder
          .mutate({ tierId, payType: 'manual' })
          .then((order) => ({ status: 200, orderId: order.orderId })),
      ),
      ...repeat(10, () => restOrder(app, buyer.token, tierId, key)),
    ]);
    assert.equal(tally(answers.map((answer) => answer.status)), { 200: 20 });
    assert.is(new Set(answers.map((answer) => answer.orderId)).size, 1, 'every call answered the same order');
    assert.is(await pendingOrders(app, buyer.id), 1);

    // Four more fill the cap; the key's order is among the five, and its repeats are replays, not 409s.
    const filled = await Promise.all(repeat(10, () => restOrder(app, buyer.token, tierId)));
    assert.equal(tally(filled.map((answer) => answer.status)), { 200: 4, 409: 6 });
    const again = await Promise.all([
      ...repeat(5, () =>
        client.subscription.createOrder.mutate({ tierId, payType: 'manual' }).then((order) => order.orderId),
      ),
      ...repeat(5, () => restOrder(app, buyer.token, tierId, key).then((answer) => answer.orderId)),
    ]);
    assert.equal(new Set(again), new Set([answers[0]!.orderId]));
    assert.is(await pendingOrders(app, buyer.id), 5);

    // At the cap, a new key's concurrent calls: one decision, a 409 for all of them, and nothing written.
    const { client: fresh } = batchClient(app.url, {
      headers: { authorization: `Bearer ${buyer.token}`, 'idempotency-key': `${key}-2` },
    });
    const refused = await Promise.all(
      repeat(10, () => statusOf(fresh.subscription.createOrder.mutate({ tierId, payType: 'manual' }))),
    );
    assert.equal(tally(refused), { 409: 10 });
    assert.is(await pendingOrders(app, buyer.id), 5);
  },
);

Orders.run();

// --- Sign-in lock-out and the password change ---

const Signin = suite<{ app: TTestServer }>('sign-in lock-out, per call');
Signin.before(async (context) => {
  context.app = await startTestServer({ ...BIG_BATCHES, RATE_LIMIT_SIGNIN_ACCOUNT: 5 });
});
Signin.after(async (context) => {
  await context.app.stop();
});

function restSignin(app: TTestServer, username: string, password: string) {
  return app.rest('POST', '/api/user/signin', { body: { username, password } });
}

Signin(
  '20 wrong sign-ins in one batch: exactly 5 reach the password check (401), 15 are 429; then the right password is a 429',
  async ({ app }) => {
    const victim = await app.signUp();
    const { client, sent } = batchClient(app.url);
    const statuses = await Promise.all(
      repeat(20, () => statusOf(client.user.signin.mutate({ username: victim.username, password: 'wrong password' }))),
    );
    assert.is(sent.requests, 1, 'one batch');
    assert.equal(tally(statuses), { 401: 5, 429: 15 });
    const locked = await restSignin(app, victim.username, victim.password);
    assert.is(locked.status, 429);
    assert.ok(Number(locked.headers.get('retry-after')) > 0);
    assert.is(await statusOf(client.user.signin.mutate({ username: victim.username, password: victim.password })), 429);
  },
);

Signin(
  '20 concurrent REST sign-ins, and a batch mixed with REST, let exactly 5 wrong passwords be checked',
  async ({ app }) => {
    const first = await app.signUp();
    const rest = await Promise.all(
      repeat(20, () => restSignin(app, first.username, 'wrong password').then((response) => response.status)),
    );
    assert.equal(tally(rest), { 401: 5, 429: 15 });
    assert.is((await restSignin(app, first.username, first.password)).status, 429);

    const second = await app.signUp();
    const { client } = batchClient(app.url);
    const mixed = await Promise.all([
      ...repeat(10, () =>
        statusOf(client.user.signin.mutate({ username: second.username, password: 'wrong password' })),
      ),
      ...repeat(10, () => restSignin(app, second.username, 'wrong password').then((response) => response.status)),
    ]);
    assert.equal(tally(mixed), { 401: 5, 429: 15 });
    assert.is((await restSignin(app, second.username, second.password)).status, 429);
  },
);

Signin(
  'failures count against the account, whichever name is typed: 20 wrong ones by username, e-mail and both cases in one batch and over REST, exactly 5 checked; then every name is locked',
  async ({ app }) => {
    const victim = await app.signUp();
    const email = `${victim.username}@example.test`;
    const names = [victim.username, email, victim.username.toUpperCase(), email.toUpperCase()];
    const { client, sent } = batchClient(app.url);
    const statuses = await Promise.all([
      ...repeat(10, (index) =>
        statusOf(client.user.signin.mutate({ username: names[index % 4]!, password: 'wrong password' })),
      ),
      ...repeat(10, (index) =>
        restSignin(app, names[(index + 1) % 4]!, 'wrong password').then((response) => response.status),
      ),
    ]);
    assert.is(sent.requests, 1, 'one batch');
    assert.equal(tally(statuses), { 401: 5, 429: 15 });
    for (const name of names) assert.is((await restSignin(app, name, victim.password)).status, 429, name);

    // One at a time, as the issue found it: 5 wrong by username, then the right password by e-mail is a 429 (it signed in).
    const other = await app.signUp();
    for (let i = 0; i < 5; i++) assert.is((await restSignin(app, other.username, 'wrong password')).status, 401);
    assert.is((await restSignin(app, `${other.username}@example.test`, other.password)).status, 429);
    assert.is(
      (await restSignin(app, `${other.username}@example.test`, 'wrong password')).status,
      429,
      'no more guesses by e-mail',
    );
  },
);

Signin(
  'a right password gives back its own attempt only: failures made beside it, or before it, still count',
  async ({ app }) => {
    const sailor = await app.signUp();
    const { client } = batchClient(app.url);
    // The right one is first in the batch and holds one of the five points while it is checked. The
    // others guess meanwhile: four are checked beside it, and a fifth only if it came once the right
    // one had given its point back (on a libSQL server the account lookups are round trips, and a
    // check can end before the last of them); never more than the five points allow.
    const statuses = await Promise.all([
      statusOf(client.user.signin.mutate({ username: sailor.username, password: sailor.password })),
      ...repeat(10, () =>
        statusOf(client.user.signin.mutate({ username: sailor.username, password: 'wrong password' })),
      ),
    ]);
    assert.is(statuses[0], 200);
    const wrong = tally(statuses.slice(1));
    assert.ok(
      [4, 5].includes(wrong[401] ?? 0) && (wrong[401] ?? 0) + (wrong[429] ?? 0) === 10,
      `four or five checked, the rest 429: ${JSON.stringify(wrong)}`,
    );
    assert.is(
      (await restSignin(app, sailor.username, sailor.password)).status,
      429,
      'the success did not unlock the account',
    );

    const other = await app.signUp();
    for (let i = 0; i < 2; i++) assert.is((await restSignin(app, other.username, 'wrong password')).status, 401);
    assert.is((await restSignin(app, other.username, other.password)).status, 200);
    for (let i = 0; i < 3; i++) assert.is((await restSignin(app, other.username, 'wrong password')).status, 401);
    assert.is((await restSignin(app, other.username, other.password)).status, 429);
  },
);

Signin(
  'changing the password: 20 wrong current passwords in one batch, exactly 5 checked (403); the account is then locked for sign-in too',
  async ({ app }) => {
    const sailor = await app.signUp();
    const { client } = batchClient(app.url, { headers: { authorization: `Bearer ${sailor.token}` } });
    const statuses = await Promise.all(
      repeat(20, () =>
        statusOf(
          client.user.changePassword.mutate({ currentPassword: 'wrong password', newPassword: 'a brand new secret' }),
        ),
      ),
    );
    assert.equal(tally(statuses), { 403: 5, 429: 15 });
    assert.is((await restSignin(app, sailor.username, sailor.password)).status, 429);
    const right = await app.rest('POST', '/api/user/password', {
      token: sailor.token,
      body: { currentPassword: sailor.password, newPassword: 'a brand new secret' },
    });
    assert.is(right.status, 429);
    assert.ok(Number(right.headers.get('retry-after')) > 0);

    // Over REST alone, concurrently, the same.
    const other = await app.signUp();
    const rest = await Promise.all(
      repeat(20, () =>
        app
          .rest('POST', '/api/user/password', {
            token: other.token,
            body: { currentPassword: 'wrong password', newPassword: 'a brand new secret' },
          })
          .then((response) => response.status),
      ),
    );
    assert.equal(tally(rest), { 403: 5, 429: 15 });
  },
);

Signin('a right current password gives back its attempt: repeated password changes are not locked', async ({ app }) => {
  const sailor = await app.signUp();
  let { token, password } = sailor;
  for (let i = 0; i < 7; i++) {
    const next = `new secret number ${i}`;
    const changed = await app.rest('POST', '/api/user/password', {
      token,
      body: { currentPassword: password, newPassword: next },
    });
    assert.is(changed.status, 200, changed.text);
    token = changed.body.data.token;
    password = next;
  }
});

Signin.run();

// --- Passwords of private assemblies ---

const HULK = { name: 'Locked hulk', shipId: 'hulk', weapons: [{ slot: 'leftSideWeapon', itemId: 'demicannon1' }] };
const SECRET = 'open-sesame';

const Assemblies = suite<{ app: TTestServer; owner: TUser; guesser: TUser }>('private assembly passwords, per call');
Assemblies.before(async (context) => {
  // Each test's guesses come from client addresses of its own (X-Forwarded-For through one trusted hop).
  context.app = await startTestServer({
    ...BIG_BATCHES,
    TRUST_PROXY: 1,
    RATE_LIMIT_ASSEMBLY_PASSWORD_CLIENT: 10,
    RATE_LIMIT_ASSEMBLY_PASSWORD: 50,
  });
  const admin = await signUpAdmin(context.app);
  await importCommunitySample(context.app, admin);
  context.owner = await context.app.signUp();
  context.guesser = await context.app.signUp();
});
Assemblies.after(async (context) => {
  await context.app.stop();
});

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

/** Signs each user in `rounds` times, users side by side; returns every sign-in's time in ms. */
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

// --- Sign-up and captcha ---

/** The captcha key of the sign-up suite's server: the test opens an SVG challenge's hash with it, as a person reads the picture. */
const SIGNUP_HMAC_KEY = 'limits-per-call-captcha-key';

const Signup = suite<{ app: TTestServer }>('sign-up and captcha limits, per call');
Signup.before(async (context) => {
  context.app = await startTestServer({
    ...BIG_BATCHES,
    TRUST_PROXY: 1,
    RATE_LIMIT_SIGNUP: 3,
    RATE_LIMIT_CAPTCHA: 5,
    CAPTCHA_HMAC_KEY: SIGNUP_HMAC_KEY,
  });
});
Signup.after(async (context) => {
  await context.app.stop();
});

let signupCounter = 0;
function newAccount(captchaCode?: string) {
  const username = `batch${process.pid}x${++signupCounter}`;
  return {
    username,
    email: `${username}@example.test`,
    password: 'correct horse battery',
    ...(captchaCode ? { captchaCode } : {}),
  };
}

Signup(
  '10 sign-ups in one batch: exactly 3 accounts, 7 answers 429; concurrent REST and a mix the same',
  async ({ app }) => {
    const client = newClient();
    const { client: trpc, sent } = batchClient(app.url, { headers: { 'x-forwarded-for': client } });
    const statuses = await Promise.all(repeat(10, () => statusOf(trpc.user.signup.mutate(newAccount()))));
    assert.is(sent.requests, 1, 'one batch');
    assert.equal(tally(statuses), { 200: 3, 429: 7 });
    assert.is(
      (await app.rest('POST', '/api/user/signup', { body: newAccount(), headers: { 'x-forwarded-for': client } }))
        .status,
      429,
    );

    const restClient = newClient();
    const rest = await Promise.all(
      repeat(10, () =>
        app
          .rest('POST', '/api/user/signup', { body: newAccount(), headers: { 'x-forwarded-for': restClient } })
          .then((response) => response.status),
      ),
    );
    assert.equal(tally(rest), { 200: 3, 429: 7 });

    const mixedClient = newClient();
    const { client: mixedTrpc } = batchClient(app.url, { headers: { 'x-forwarded-for': mixedClient } });
    const mixed = await Promise.all([
      ...repeat(5, () => statusOf(mixedTrpc.user.signup.mutate(newAccount()))),
      ...repeat(5, () =>
        app
          .rest('POST', '/api/user/signup', { body: newAccount(), headers: { 'x-forwarded-for': mixedClient } })
          .then((response) => response.status),
      ),
    ]);
    assert.equal(tally(mixed), { 200: 3, 429: 7 });
  },
);

Signup(
  '20 captcha challenges in one batch: exactly 5 issued, 15 answers 429; REST mixed in the same',
  async ({ app }) => {
    const { client: trpc, sent } = batchClient(app.url, { headers: { 'x-forwarded-for': newClient() } });
    const statuses = await Promise.all(repeat(20, () => statusOf(trpc.captcha.get.query({}))));
    assert.is(sent.requests, 1, 'one batch');
    assert.equal(tally(statuses), { 200: 5, 429: 15 });

    const client = newClient();
    const { client: mixedTrpc } = batchClient(app.url, { headers: { 'x-forwarded-for': client } });
    const mixed = await Promise.all([
      ...repeat(10, () => statusOf(mixedTrpc.captcha.get.query({}))),
      ...repeat(10, () =>
        app.rest('GET', '/api/captcha', { headers: { 'x-forwarded-for': client } }).then((response) => response.status),
      ),
    ]);
    assert.equal(tally(mixed), { 200: 5, 429: 15 });
  },
);

Signup('one solved captcha in a batch of sign-ups is accepted exactly once', async ({ app }) => {
  const client = newClient();
  const challenge = await app.rest('GET', '/api/captcha', { headers: { 'x-forwarded-for': client } });
  assert.is(challenge.status, 200);
  const code = await solveCaptcha(challenge.body.data);
  const { client: trpc } = batchClient(app.url, { headers: { 'x-forwarded-for': client } });
  const statuses = await Promise.all(repeat(3, () => statusOf(trpc.user.signup.mutate(newAccount(code)))));
  assert.equal(tally(statuses), { 200: 1, 400: 2 });
});

Signup(
  'one answered SVG captcha in a batch of sign-ups is accepted exactly once; concurrent REST the same',
  async ({ app }) => {
    const svgAnswer = async (client: string) => {
      const challenge = await app.rest('GET', '/api/captcha', { headers: { 'x-forwarded-for': client } });
      assert.is(challenge.status, 200);
      const { hash } = challenge.body.data;
      return {
        captchaType: 'svg' as const,
        encryptCaptcha: hash as string,
        response: openSvgAnswer(SIGNUP_HMAC_KEY, hash)!.text,
      };
    };
    const client = newClient();
    const captcha = await svgAnswer(client);
    const { client: trpc, sent } = batchClient(app.url, { headers: { 'x-forwarded-for': client } });
    const statuses = await Promise.all(
      repeat(3, () => statusOf(trpc.user.signup.mutate({ ...newAccount(), captcha }))),
    );
    assert.is(sent.requests, 1, 'one batch');
    assert.equal(tally(statuses), { 200: 1, 400: 2 });

    const restClient = newClient();
    const restCaptcha = await svgAnswer(restClient);
    const rest = await Promise.all(
      repeat(3, () =>
        app
          .rest('POST', '/api/user/signup', {
            body: { ...newAccount(), captcha: restCaptcha },
            headers: { 'x-forwarded-for': restClient },
          })
          .then((response) => response.status),
      ),
    );
    assert.equal(tally(rest), { 200: 1, 400: 2 });
  },
);

Signup.run();
