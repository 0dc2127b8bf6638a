// Scale-out (issue 20): two service processes on one database and one Redis, started together and stopped on SIGTERM.
// The configuration: scale-out-config.test.ts; the Redis stores: scale-out-stores.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTRPCClient, httpLink } from '@trpc/client';
import superjson from 'superjson';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import type { AppRouter } from '../../server/router';
import { rest, trpcClient, trpcError } from '../support/http-clients';
import { solveCaptcha } from '../support/sign-up';
import { HAS_REDIS, startRedis, stopChild } from '../support/redis';
import { startServerProcess, TSX_ARGS, type TServerProcess } from '../support/process';
import { readable } from '../assembly/fixtures';

type TInstance = TServerProcess;

const Instances = suite<{ redis: { url: string; stop: () => Promise<void> }; dir: string; a: TInstance; b: TInstance }>(
  'two service processes on one database and one Redis',
);

const SHARED_ENV = {
  NODE_ENV: 'test',
  HOST: '127.0.0.1',
  SEED_DEMO: 'true',
  // info: the "tidewatch listening" line names the URL (startServerProcess).
  LOG_LEVEL: 'info',
  CAPTCHA_HMAC_KEY: 'a shared key of the whole deployment',
  CAPTCHA_MAX_NUMBER: '2000',
  // Both behind "the load balancer": the client address comes from X-Forwarded-For.
  TRUST_PROXY: '1',
  RATE_LIMIT_CAPTCHA: '4',
  RATE_LIMIT_GLOBAL: '100000',
  RATE_LIMIT_SIGNUP: '100000',
  RATE_LIMIT_SIGNIN: '100000',
};

/** PORT=0 and the URL from the start-up log: a port picked beforehand may be taken by the time the instance listens. */
async function startInstance(env: Record<string, string>): Promise<TInstance> {
  return startServerProcess([...TSX_ARGS, 'server/main.ts'], {
    env: { ...SHARED_ENV, ...env, PORT: '0' },
    timeoutMs: 90_000,
  });
}

Instances.before(async (context) => {
  if (!HAS_REDIS) return;
  context.redis = await startRedis();
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-scale-'));
  const env = {
    DATABASE_URL: `file:${join(context.dir, 'shared.db')}`,
    REDIS_URL: context.redis.url,
    ...(process.env.DATABASE_DRIVER ? { DATABASE_DRIVER: process.env.DATABASE_DRIVER } : {}),
  };
  // Started together on an empty database: the start-up lock makes one migrate and seed.
  const started = await Promise.allSettled([startInstance(env), startInstance(env)]);
  if (started[0].status === 'fulfilled') context.a = started[0].value;
  if (started[1].status === 'fulfilled') context.b = started[1].value;
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
});
Instances.after(async (context) => {
  await Promise.all([context.a && stopChild(context.a.child), context.b && stopChild(context.b.child)]);
  await context.redis?.stop();
  if (context.dir) rmSync(context.dir, { recursive: true, force: true });
});

const instancesTest = (name: string, run: (context: { a: TInstance; b: TInstance }) => Promise<void>) =>
  Instances(name, async (context) => {
    if (!HAS_REDIS) {
      console.warn(`skipped "${name}": redis-server is not installed (apt-get install redis-server)`);
      return;
    }
    await run(context);
  });

let sailors = 0;
async function signUp(url: string, extra: Record<string, unknown> = {}) {
  const name = `scale${process.pid}x${++sailors}`;
  return rest(url, 'POST', '/api/user/signup', {
    body: { username: name, email: `${name}@example.test`, password: 'correct horse battery', ...extra },
  });
}

const HULK = {
  name: 'Hulk brawler two',
  shipId: 'hulk',
  weapons: [
    { slot: 'leftSideWeapon', itemId: 'demicannon1' },
    { slot: 'rightSideWeapon', itemId: 'demicannon1' },
  ],
};

instancesTest('starting together on an empty database, the demo data is seeded once', async ({ a, b }) => {
  const onA = (await rest(a.url, 'GET', '/api/assembly/list')).body.data;
  const onB = (await rest(b.url, 'GET', '/api/assembly/list')).body.data;
  assert.is(onA.pagination.total, 2);
  assert.equal(onB, onA);
  for (const url of [a.url, b.url]) assert.is((await rest(url, 'GET', '/api/health')).body.data.redis, 'ok');
  const signin = await rest(b.url, 'POST', '/api/user/signin', {
    body: { username: 'captain', password: 'tidewatch-demo' },
  });
  assert.is(signin.status, 200, 'the demo admin signs in on the other instance');
  assert.equal(signin.body.data.role, ['admin']);
});

instancesTest(
  'a write through one instance is visible through the other at once (item and list, REST and tRPC)',
  async ({ a, b }) => {
    const owner = (await signUp(a.url)).body.data.token as string;
    const published = await rest(a.url, 'POST', '/api/assembly/publish', { token: owner, body: HULK });
    assert.is(published.status, 200, published.text);
    const uuid = published.body.data.uuid as string;
    const item = () => rest(b.url, 'GET', `/api/assembly/item?uuid=${uuid}`);
    const listNames = async () =>
      (await rest(b.url, 'GET', '/api/assembly/list')).body.data.data.map(
        (entry: { name: string }) => entry.name,
      ) as string[];

    // Fill B's caches (the second reads are cache hits).
    for (let round = 0; round < 2; round++) {
      assert.is((await item()).body.data.name, 'Hulk brawler two');
      assert.ok((await listNames()).includes('Hulk brawler two'));
    }
    // The third anonymous read of the item is B's stored answer: the edits below must drop it on B too.
    assert.ok((await item()).headers.get('age') !== null, 'B replays its stored answer');
    const viaTrpcB = trpcClient(b.url);
    assert.is(readable(await viaTrpcB.assembly.getItem.query({ uuid })).name, 'Hulk brawler two');

    for (const name of ['Renamed once', 'Renamed twice', 'Renamed thrice']) {
      const edited = await rest(a.url, 'POST', '/api/assembly/edit', { token: owner, body: { uuid, data: { name } } });
      assert.is(edited.status, 200, edited.text);
      assert.is((await item()).body.data.name, name);
      assert.is(readable(await viaTrpcB.assembly.getItem.query({ uuid })).name, name);
      const names = await listNames();
      assert.ok(names.includes(name) && !names.includes('Hulk brawler two'), names.join(', '));
    }

    // Through tRPC on A, read through REST on B: trash, then restore the other way round.
    await trpcClient(a.url, owner).assembly.delete.mutate({ uuid });
    assert.is((await item()).status, 404);
    assert.ok(!(await listNames()).includes('Renamed thrice'));
    assert.is((await trpcError(viaTrpcB.assembly.getItem.query({ uuid }))).status, 404);
    const restored = await rest(b.url, 'POST', '/api/assembly/restore', { token: owner, body: { uuid } });
    assert.is(restored.status, 200, restored.text);
    assert.is((await rest(a.url, 'GET', `/api/assembly/item?uuid=${uuid}`)).body.data.name, 'Renamed thrice');

    // Access rules hold on either instance: someone else's token cannot edit.
    const stranger = (await signUp(b.url)).body.data.token as string;
    const refused = await rest(b.url, 'POST', '/api/assembly/edit', {
      token: stranger,
      body: { uuid, data: { name: 'Hijacked' } },
    });
    assert.is(refused.status, 403);
    assert.is(
      (await rest(b.url, 'POST', '/api/assembly/edit', { body: { uuid, data: { name: 'Anonymous' } } })).status,
      401,
    );
    assert.is((await item()).body.data.name, 'Renamed thrice');
  },
);

instancesTest(
  'the drop cache of the other instance is dropped on an admin write; the refresh throttle is shared',
  async ({ a, b }) => {
    const admin = (
      await rest(a.url, 'POST', '/api/user/signin', { body: { username: 'captain', password: 'tidewatch-demo' } })
    ).body.data.token as string;
    const current = (headers?: Record<string, string>, refresh = false) =>
      rest(b.url, 'GET', `/api/drop/current${refresh ? '?refresh=1' : ''}`, { headers });
    const first = (await current()).body.data;
    const second = (await current()).body.data;
    assert.is(second.cache, 'hit');
    assert.equal(second.items, first.items);

    const now = Date.now();
    const upsert = await rest(a.url, 'POST', '/api/admin/drop/campaigns', {
      token: admin,
      body: {
        campaigns: [
          {
            campaignId: `scale-${now}`,
            name: 'Scale-out drops',
            startsAt: new Date(now - 3_600_000).toISOString(),
            endsAt: new Date(now + 3_600_000).toISOString(),
            rewards: [{ name: 'Shared banner', requiredMinutes: 30 }],
            channels: [{ name: 'skullandbonesgame' }],
          },
        ],
      },
    });
    assert.is(upsert.status, 200, upsert.text);
    const after = (await current()).body.data;
    assert.is(after.cache, 'miss', 'B rebuilt its cache');
    assert.ok(after.items.some((entry: { name: string }) => entry.name === 'Scale-out drops'));

    const client = { 'x-forwarded-for': '192.0.2.77' };
    assert.is((await current(client, true)).status, 200);
    const throttled = await rest(a.url, 'GET', '/api/drop/current?refresh=1', { headers: client });
    assert.is(throttled.status, 429, 'the refresh spent on B counts on A');
    assert.ok(Number(throttled.headers.get('retry-after')) >= 1);
    assert.is(
      (await rest(a.url, 'GET', '/api/drop/current?refresh=1', { headers: { 'x-forwarded-for': '192.0.2.78' } }))
        .status,
      200,
    );
  },
);

instancesTest('a rate limit spent on one instance counts on the other', async ({ a, b }) => {
  const client = { 'x-forwarded-for': '203.0.113.50' };
  // RATE_LIMIT_CAPTCHA=4 per minute per client, spread over both instances.
  for (const url of [a.url, b.url, a.url, b.url])
    assert.is((await rest(url, 'GET', '/api/captcha', { headers: client })).status, 200);
  const onA = await rest(a.url, 'GET', '/api/captcha', { headers: client });
  assert.is(onA.status, 429);
  assert.is(onA.body.code, 429);
  assert.match(onA.body.message, /Too many captcha requests/);
  assert.ok(Number(onA.headers.get('retry-after')) >= 1 && Number(onA.headers.get('retry-after')) <= 60);
  assert.is((await rest(b.url, 'GET', '/api/captcha', { headers: client })).status, 429);
  const limitedClient = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${b.url}/trpc`, transformer: superjson, headers: () => client })],
  });
  const viaTrpc = await trpcError(limitedClient.captcha.get.query({}));
  assert.is(viaTrpc.status, 429, 'the native tRPC surface counts the same');
  assert.match(viaTrpc.message, /Too many captcha requests/);
  assert.is(
    (await rest(b.url, 'GET', '/api/captcha', { headers: { 'x-forwarded-for': '203.0.113.51' } })).status,
    200,
    'other clients are not affected',
  );
});

instancesTest('a captcha solved on one instance cannot be replayed on the other', async ({ a, b }) => {
  const client = { 'x-forwarded-for': '198.51.100.20' };
  const captchaCode = await solveCaptcha((await rest(a.url, 'GET', '/api/captcha', { headers: client })).body.data);
  const first = await signUp(b.url, { captchaCode });
  assert.is(first.status, 200, 'a challenge issued by A verifies on B (shared CAPTCHA_HMAC_KEY)');
  const replayOnA = await signUp(a.url, { captchaCode });
  assert.is(replayOnA.status, 400);
  assert.match(replayOnA.body.message, /captchaCode/);
  assert.match(replayOnA.body.message, /already used/);
  const replayOnB = await signUp(b.url, { captchaCode });
  assert.is(replayOnB.status, 400);
  assert.match(replayOnB.body.message, /already used/);
});

instancesTest('both instances stop cleanly on SIGTERM', async ({ a, b }) => {
  for (const instance of [a, b]) {
    const exited = new Promise<number | null>((resolve) => instance.child.once('exit', (code) => resolve(code)));
    instance.child.kill('SIGTERM');
    assert.is(await exited, 0, instance.output());
  }
});

Instances.run();
