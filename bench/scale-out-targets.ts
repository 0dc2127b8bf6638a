/**
 * The targets of bench/scale-out.ts, each from the production build on a copy of one generated
 * database: one instance on the file, one on a sqld, and two or four on embedded replicas of a sqld
 * with a redis-server; with every process whose CPU the target's requests cost, by role.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { NODE_MEMORY_FLAGS } from '../server/node-flags';
import { ROOT, start, stop, waitFor } from './processes';

export type TTargetName = 'file' | 'sqld' | 'replicas' | 'replicas4';
export const TARGETS: TTargetName[] = ['file', 'sqld', 'replicas', 'replicas4'];

export interface TTarget {
  name: TTargetName;
  urls: string[];
  /** Every process whose CPU the target's requests cost, by role. */
  pids: { instances: number[]; sqld: number[]; redis: number[] };
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const big = '1000000000';
function instanceEnv(port: number, database: Record<string, string>): Record<string, string> {
  return {
    ...database,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    PAYMENT_MANUAL_SECRET: 'bench-secret-bench-secret',
    CAPTCHA_HMAC_KEY: 'bench-captcha-key-of-the-deployment',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    RATE_LIMIT_GLOBAL: big,
    RATE_LIMIT_SIGNIN: big,
    RATE_LIMIT_SIGNIN_ACCOUNT: big,
    WAR_THIN_AFTER_DAYS: '3650',
  };
}

async function startInstance(
  entry: string,
  database: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = start(`instance :${port}`, [...NODE_MEMORY_FLAGS, entry], instanceEnv(port, database));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/health`, false, 120_000);
  return { child, url };
}

/** A sqld whose database is a copy of `db` (sqld builds its replication log from the file at start). */
export async function startSqldOn(db: string, dir: string): Promise<{ child: ChildProcess; url: string }> {
  mkdirSync(join(dir, 'dbs', 'default'), { recursive: true });
  copyFileSync(db, join(dir, 'dbs', 'default', 'data'));
  const port = await freePort();
  const child = start(
    'sqld',
    ['--db-path', dir, '--http-listen-addr', `127.0.0.1:${port}`, '--no-welcome'],
    {},
    undefined,
    join(ROOT, '.tools', 'sqld', 'sqld'),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health`, false, 120_000);
  return { child, url };
}

async function startRedisServer(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = start(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {},
    undefined,
    'redis-server',
  );
  for (let tries = 0; tries < 100; tries++) {
    if (
      spawnSync('redis-cli', ['-p', String(port), 'ping'])
        .stdout?.toString()
        .trim() === 'PONG'
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, url: `redis://127.0.0.1:${port}` };
}

export async function startTarget(
  name: TTargetName,
  entry: string,
  db: string,
  work: string,
): Promise<TTarget & { startMs: number }> {
  const started = performance.now();
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  if (name === 'file') {
    const file = join(dir, 'bench.db');
    copyFileSync(db, file);
    const one = await startInstance(entry, { DATABASE_URL: `file:${file}` });
    return {
      name,
      urls: [one.url],
      pids: { instances: [one.child.pid!], sqld: [], redis: [] },
      stop: () => stop(one.child),
      startMs: performance.now() - started,
    };
  }
  const sqld = await startSqldOn(db, join(dir, 'sqld'));
  if (name === 'sqld') {
    const one = await startInstance(entry, { DATABASE_URL: sqld.url });
    return {
      name,
      urls: [one.url],
      pids: { instances: [one.child.pid!], sqld: [sqld.child.pid!], redis: [] },
      stop: async () => {
        await stop(one.child);
        await stop(sqld.child);
      },
      startMs: performance.now() - started,
    };
  }
  const redis = await startRedisServer();
  const replica = (n: number) =>
    startInstance(entry, {
      DATABASE_URL: `file:${join(dir, `replica-${n}.db`)}`,
      DATABASE_SYNC_URL: sqld.url,
      REDIS_URL: redis.url,
    });
  // One after the other: each finds the migrations done (and the start-up lock free).
  const instances: Awaited<ReturnType<typeof replica>>[] = [];
  for (let n = 1; n <= (name === 'replicas4' ? 4 : 2); n++) instances.push(await replica(n));
  return {
    name,
    urls: instances.map((instance) => instance.url),
    pids: {
      instances: instances.map((instance) => instance.child.pid!),
      sqld: [sqld.child.pid!],
      redis: [redis.child.pid!],
    },
    stop: async () => {
      for (const instance of instances) await stop(instance.child);
      await stop(redis.child);
      await stop(sqld.child);
    },
    startMs: performance.now() - started,
  };
}
