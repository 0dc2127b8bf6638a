// Scale-out (issue 20): the Redis stores instances share (rate limits, read caches, expiring keys, locks, jobs), tested directly with two connections.
import { Redis } from 'ioredis';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { createRateLimit } from '../../server/http/rate-limit';
import type { TAppDeps } from '../../server/deps';
import { startJobs, type TJob } from '../../server/jobs';
import { connectSharedState, type TSharedState } from '../../server/infra/redis';
import { withRedisLock } from '../../server/infra/redis/connection';
import { redisRateLimitStore } from '../../server/infra/redis/rate-limit-store';
import { SharedReadCache } from '../../server/infra/cache/shared-read-cache';
import { RedisExpiringKeys } from '../../server/infra/redis/expiring-keys';
import { MemoryExpiringKeys } from '../../server/infra/expiring-keys';
import { createCaptchaService } from '../../server/domains/captcha/service';
import { AppError } from '../../server/errors';
import { MemoryReadCache } from '../../server/infra/cache/read-cache';
import type { TLogger } from '../../server/logger';
import { silentLogger } from '../support/helpers';
import { solveCaptcha } from '../support/sign-up';
import { HAS_REDIS, sleep, startRedis, waitFor } from '../support/redis';

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
