import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTRPCClient, httpLink } from '@trpc/client';
import { Redis } from 'ioredis';
import superjson from 'superjson';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { driverFor, openDatabase } from '../../db/client';
import { configWith, ConfigError, loadConfig } from '../../server/config';
import { createRateLimit } from '../../server/http/rate-limit';
import type { TAppDeps } from '../../server/deps';
import { startJobs, type TJob } from '../../server/jobs';
import { startServer } from '../../server/server';
import { connectSharedState, type TSharedState } from '../../server/infra/redis';
import { withRedisLock } from '../../server/infra/redis/connection';
import { redisRateLimitStore } from '../../server/infra/redis/rate-limit-store';
import { SharedReadCache } from '../../server/infra/cache/shared-read-cache';
import { RedisExpiringKeys } from '../../server/infra/redis/expiring-keys';
import { MemoryExpiringKeys } from '../../server/infra/expiring-keys';
import { createCaptchaService } from '../../server/domains/captcha/service';
import { AppError } from '../../server/errors';
import type { AppRouter } from '../../server/router';
import { MemoryReadCache } from '../../server/infra/cache/read-cache';
import type { TLogger } from '../../server/logger';
import { rest, silentLogger, solveCaptcha, trpcClient, trpcError } from '../support/helpers';
import { freePort, HAS_REDIS, sleep, startRedis, stopChild, waitFor } from '../support/redis';
import { startServerProcess, TSX_ARGS, type TServerProcess } from '../support/process';
import { readable } from '../assembly/fixtures';

// ---------------------------------------------------------------------------------------------
const Stores = suite<{ redis: { url: string; stop: () => Promise<void> }; a: TSharedState; b: TSharedState }>(
  'Redis stores: two connections stand for two instances',
);

Stores.before(async (context) => {
  if (!HAS_REDIS) return;
  context.redis = await startRedis();
  context.a = await connectSharedState(context.redis.url, silentLogger());
  context.b = await connectSharedState(context.redis.url, silentLogger());
});
Stores.after(async (context) => {
  await context.a?.close();
  await context.b?.close();
  await context.redis?.stop();
});

const redisTest = (name: string, run: (context: { a: TSharedState; b: TSharedState }) => Promise<void>) =>
  Stores(name, async (context) => {
    if (!HAS_REDIS) {
      console.warn(`skipped "${name}": redis-server is not installed (apt-get install redis-server)`);
      return;
    }
    await run(context);
  });

redisTest('a captcha solution recorded by one instance is refused by the other until it expires', async ({ a, b }) => {
  const onA = new RedisExpiringKeys(a.redis.client, 'test:used:');
  const onB = new RedisExpiringKeys(b.redis.client, 'test:used:');
  assert.equal(await onA.claim('sig-1', 10_000, 1_000), { claimed: true });
  assert.equal(
    await onB.claim('sig-1', 10_000, 2_000),
    { claimed: false, heldUntilMs: 10_000 },
    'replayed on the other instance',
  );
  assert.equal(
    await onA.claim('sig-1', 10_000, 9_999),
    { claimed: false, heldUntilMs: 10_000 },
    'replayed on the same instance',
  );
  assert.equal(await onB.claim('sig-1', 20_000, 10_000), { claimed: true }, 'free again once expired (service clock)');
  const pttl = await a.redis.client.pttl('test:used:sig-1');
  assert.ok(pttl > 9_000 && pttl <= 10_000, `Redis expires the key itself (pttl ${pttl})`);
  assert.equal(
    await onA.claim('sig-2', 5_000, 5_000),
    { claimed: true },
    'a deadline already passed claims without storing',
  );
  assert.is(await a.redis.client.exists('test:used:sig-2'), 0);
});

redisTest('the drop refresh hold is shared and reports the exact wait', async ({ a, b }) => {
  const onA = new RedisExpiringKeys(a.redis.client, 'test:refresh:');
  const onB = new RedisExpiringKeys(b.redis.client, 'test:refresh:');
  const refresh = (keys: RedisExpiringKeys, client: string, nowMs: number) => keys.claim(client, nowMs + 10_000, nowMs);
  assert.equal(await refresh(onA, '203.0.113.9', 1_000), { claimed: true });
  assert.equal(await refresh(onB, '203.0.113.9', 4_000), { claimed: false, heldUntilMs: 11_000 }, '7 s left');
  assert.equal(await refresh(onA, '198.51.100.1', 4_000), { claimed: true }, 'per key');
  assert.equal(await refresh(onB, '203.0.113.9', 11_000), { claimed: true }, 'after the interval');
  assert.equal(await refresh(onA, '203.0.113.9', 11_500), { claimed: false, heldUntilMs: 21_000 });
});

Stores('Redis unreachable: a claim throws, or holds the key in this instance when given a fallback', async () => {
  // Nothing listens on port 1; without an offline queue every command fails at once.
  const down = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  // Its refused connections are expected: heard here, not printed by ioredis as unhandled.
  down.on('error', () => undefined);
  try {
    const strict = new RedisExpiringKeys(down, 'test:strict:');
    await strict.claim('k', 2_000, 1_000).then(
      () => assert.unreachable('claimed without Redis'),
      (error: unknown) => assert.instance(error, Error),
    );
    const warnings: string[] = [];
    const logger = { warn: (_context: unknown, message: string) => warnings.push(message) } as unknown as TLogger;
    const lenient = new RedisExpiringKeys(down, 'test:lenient:', { fallback: new MemoryExpiringKeys(), logger });
    assert.equal(await lenient.claim('k', 2_000, 1_000), { claimed: true });
    assert.equal(await lenient.claim('k', 2_000, 1_500), { claimed: false, heldUntilMs: 2_000 }, 'held in memory');
    assert.equal(warnings, [
      'redis unavailable: holding keys in this instance',
      'redis unavailable: holding keys in this instance',
    ]);

    // The captcha refuses rather than accept a solution it cannot record for the other instances.
    const captcha = createCaptchaService({ hmacKey: 'test-key', maxNumber: 1_000, used: strict });
    const now = new Date();
    await captcha.verify({ kind: 'altcha', code: await solveCaptcha(await captcha.issue(now)) }, now).then(
      () => assert.unreachable('verified without Redis'),
      (error: unknown) => {
        assert.instance(error, AppError);
        assert.is((error as AppError).code, 'SERVICE_UNAVAILABLE');
        assert.is((error as AppError).retryAfterSeconds, 5);
      },
    );
  } finally {
    down.disconnect();
  }
});

redisTest('rate-limit counters add up across instances', async ({ a, b }) => {
  const options = { points: 3, durationSeconds: 60, message: 'Too many test calls' };
  const onA = createRateLimit('test-shared', options, redisRateLimitStore(a.redis.client));
  const onB = createRateLimit('test-shared', options, redisRateLimitStore(b.redis.client));
  assert.is((await onA.hit('client')).remaining, 2);
  assert.is((await onB.hit('client')).remaining, 1);
  assert.is((await onA.hit('client')).remaining, 0);
  try {
    await onB.hit('client');
    assert.unreachable('fourth hit allowed');
  } catch (error) {
    assert.instance(error, AppError);
    assert.is((error as AppError).code, 'TOO_MANY_REQUESTS');
    assert.match((error as Error).message, /Too many test calls; retry in \d+ s/);
  }
  await onA.reset('client');
  assert.is((await onB.hit('client')).remaining, 2, 'a reset on one instance frees the other');
});

redisTest(
  'an invalidation on one instance drops the entry on the other; a read that raced it is not cached',
  async ({ a, b }) => {
    const cacheA = new SharedReadCache(new MemoryReadCache(), a.bus, 'test-cache');
    const cacheB = new SharedReadCache(new MemoryReadCache(), b.bus, 'test-cache');
    cacheB.set('assembly:item:1', 'v1');
    cacheB.set('assembly:list:p1', ['v1']);
    cacheB.set('other:1', 'kept');
    await cacheA.invalidate('assembly:item:1');
    await waitFor('the invalidation to arrive', async () => cacheB.get('assembly:item:1') === undefined, 2_000);
    assert.equal(cacheB.get('assembly:list:p1'), ['v1']);
    await cacheA.invalidatePrefix('assembly:list:');
    await waitFor('the prefix invalidation to arrive', async () => cacheB.get('assembly:list:p1') === undefined, 2_000);
    assert.is(cacheB.get('other:1'), 'kept');

    // B misses and reads the database; A writes and invalidates before B stores what it read.
    assert.is(cacheB.get('assembly:item:2'), undefined);
    await cacheA.invalidate('assembly:item:2');
    await sleep(100);
    cacheB.set('assembly:item:2', 'read before the write');
    assert.is(cacheB.get('assembly:item:2'), undefined, 'the stale value was refused');
    cacheB.set('assembly:item:2', 'read after the write');
    assert.is(cacheB.get('assembly:item:2'), 'read after the write');
  },
);

redisTest(
  'while the invalidation channel is down nothing is served from the cache, and it is emptied on reconnect',
  async ({ b }) => {
    const cache = new SharedReadCache(new MemoryReadCache(), b.bus, 'test-cache-2');
    cache.set('k', 'v');
    assert.is(cache.get('k'), 'v');
    b.redis.subscriber.disconnect(true);
    await waitFor('the subscriber to drop', async () => !b.bus.live, 2_000);
    assert.is(cache.get('k'), undefined, 'not served while messages may be missed');
    await waitFor('the subscriber to come back', async () => b.bus.live, 5_000);
    assert.is(cache.get('k'), undefined, 'emptied after the reconnect');
  },
);

redisTest('the start-up lock runs one instance at a time', async ({ a, b }) => {
  const events: string[] = [];
  const work = (name: string) => async () => {
    events.push(`${name} start`);
    await sleep(150);
    events.push(`${name} end`);
  };
  await Promise.all([
    withRedisLock(a.redis, 'test-startup', { ttlMs: 5_000, waitMs: 5_000 }, work('a')),
    withRedisLock(b.redis, 'test-startup', { ttlMs: 5_000, waitMs: 5_000 }, work('b')),
  ]);
  assert.is(events.length, 4);
  assert.ok(events[1] === `${events[0]!.split(' ')[0]} end`, `no overlap: ${events.join(', ')}`);
  assert.is(await a.redis.client.exists('tw:lock:test-startup'), 0, 'released');
});

redisTest('each tick of a periodic job runs on one instance only', async ({ a, b }) => {
  let runs = 0;
  const job: TJob = { name: `test-job-${process.pid}`, intervalMs: 50, run: async () => ++runs };
  // The lock is held for max(1 s, interval - 1 s) = 1 s: 2 instances x ~30 ticks in 1.5 s, 2 runs.
  const depsOf = (shared: TSharedState) => ({ shared, logger: silentLogger() }) as unknown as TAppDeps;
  const stops = [startJobs([job], undefined as never, depsOf(a)), startJobs([job], undefined as never, depsOf(b))];
  await sleep(1_500);
  await Promise.all(stops.map((stop) => stop()));
  assert.ok(runs >= 1 && runs <= 2, `ran ${runs} times`);
});

redisTest(
  'a perInstance job (buffered view counts) runs on every instance, and once more when each stops',
  async ({ a, b }) => {
    const runsBy = new Map<TSharedState, number>();
    const job: TJob = {
      name: `test-per-instance-${process.pid}`,
      intervalMs: 50,
      perInstance: true,
      run: async (_db, deps) => runsBy.set(deps.shared!, (runsBy.get(deps.shared!) ?? 0) + 1),
    };
    const depsOf = (shared: TSharedState) => ({ shared, logger: silentLogger() }) as unknown as TAppDeps;
    const stops = [startJobs([job], undefined as never, depsOf(a)), startJobs([job], undefined as never, depsOf(b))];
    await sleep(300);
    const ticked = [runsBy.get(a) ?? 0, runsBy.get(b) ?? 0];
    await Promise.all(stops.map((stop) => stop()));
    assert.ok(
      ticked.every((runs) => runs >= 3),
      `each instance ran every tick: ${ticked.join(', ')}`,
    );
    assert.equal([runsBy.get(a), runsBy.get(b)], [ticked[0]! + 1, ticked[1]! + 1], 'one last run at stop');
  },
);

Stores.run();

// ---------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------
const Config = suite('scale-out configuration');

Config('the driver follows the URL unless DATABASE_DRIVER says otherwise', () => {
  assert.is(driverFor('file:./data/x.db'), 'better-sqlite3');
  assert.is(driverFor('file:./data/x.db', 'libsql'), 'libsql');
  for (const url of ['libsql://tidewatch-org.turso.io', 'https://db.example.test', 'ws://127.0.0.1:8080']) {
    assert.is(driverFor(url), 'libsql', url);
    assert.is(loadConfig({ DATABASE_URL: url }).DATABASE_URL, url);
  }
  const config = loadConfig({
    DATABASE_DRIVER: 'libsql',
    DATABASE_AUTH_TOKEN: 'token',
    REDIS_URL: 'rediss://:secret@cache.example.test:6380/1',
    CAPTCHA_HMAC_KEY: 'the key every instance shares',
  });
  assert.is(config.DATABASE_DRIVER, 'libsql');
  assert.is(config.REDIS_URL, 'rediss://:secret@cache.example.test:6380/1');
  assert.is(loadConfig({}).REDIS_URL, undefined, 'no Redis unless configured');
});

Config('bad scale-out settings stop the start naming the variable', () => {
  for (const [env, name] of [
    [{ DATABASE_URL: 'http://db.example.test', DATABASE_DRIVER: 'better-sqlite3' }, 'DATABASE_DRIVER'],
    [{ DATABASE_DRIVER: 'postgres' }, 'DATABASE_DRIVER'],
    [{ DATABASE_URL: 'mysql://db' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://127.0.0.1:6379' }, 'CAPTCHA_HMAC_KEY'],
  ] as const) {
    try {
      loadConfig(env);
      assert.unreachable(`${JSON.stringify(env)} accepted`);
    } catch (error) {
      assert.instance(error, ConfigError);
      assert.match((error as Error).message, new RegExp(`${name}:`));
    }
  }
});

Config("a libSQL server is opened without a network call; backup says it is the server's job", async () => {
  const database = openDatabase('http://127.0.0.1:9/tidewatch', { authToken: 'not-sent' });
  try {
    assert.is(database.driver, 'libsql');
    assert.is(database.remote, true);
    assert.is(database.file, 'http://127.0.0.1:9/tidewatch');
    try {
      await database.backup(join(tmpdir(), 'never-written.db'));
      assert.unreachable('backup of a remote database');
    } catch (error) {
      assert.match((error as Error).message, /backed up by the server itself/);
    }
  } finally {
    database.close();
  }
});

Config('an unreachable REDIS_URL stops the start with the URL, password hidden', async () => {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-noredis-'));
  try {
    await startServer(
      configWith({
        PORT: 0,
        DATABASE_URL: `file:${join(dir, 'x.db')}`,
        SEED_DEMO: false,
        REDIS_URL: `redis://:hunter2@127.0.0.1:${port}`,
      }),
      { logger: silentLogger() },
    );
    assert.unreachable('started without Redis');
  } catch (error) {
    const message = (error as Error).message;
    assert.match(message, new RegExp(`cannot connect to REDIS_URL redis://\\*\\*\\*@127\\.0\\.0\\.1:${port}`));
    assert.not.match(message, /hunter2/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Config.run();
