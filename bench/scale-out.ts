/**
 * What scaling out costs per request (issue 20): the same load cells, in one run, against
 *   file       one instance on a local SQLite file (better-sqlite3), as a self-hoster runs it
 *   sqld       one instance on a libSQL server (sqld) over HTTP on loopback
 *   replicas   two instances, each on an embedded replica of that sqld, sharing a redis-server,
 *              behind a round robin (autocannon's own: it spreads its connections over both URLs)
 * Each target runs from the production build (`npm run build`), on a copy of one generated database
 * (bench/generate.ts; sqld takes the file as its database). CPU per request counts every process the
 * target needs: the instances, sqld and redis-server. Writes are like toggles by 50 signed-in users.
 *
 *   npx tsx bench/scale-out.ts [--assemblies N] [--duration S] [--connections N] [--only item,list,...]
 *
 * Prints req/s, p50, p99 and CPU per request per cell and target, and each target's cost against
 * `file`. Needs .tools/sqld (scripts/fetch-sqld.sh) and redis-server.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { buildDist } from '../scripts/build';
import { NODE_MEMORY_FLAGS } from '../server/node-flags';
import { BENCH_PASSWORD, generate } from './generate';
import { children, cpuMs, ROOT, start, stop, waitFor } from './processes';
import { benchPublicAssemblyUuid, queryString } from './workload';

interface TArgs {
  assemblies: number;
  duration: number;
  connections: number;
  only?: string[];
}

function parseArgs(argv: string[]): TArgs {
  const args: TArgs = { assemblies: 20_000, duration: 5, connections: 10 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i]!, argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--assemblies') args.assemblies = Number(value);
    else if (flag === '--duration') args.duration = Number(value);
    else if (flag === '--connections') args.connections = Number(value);
    else if (flag === '--only') args.only = value.split(',');
    else throw new Error(`unknown option ${flag}`);
  }
  return args;
}

type TTargetName = 'file' | 'sqld' | 'replicas';

interface TTarget {
  name: TTargetName;
  urls: string[];
  /** Every process whose CPU the target's requests cost. */
  pids: number[];
  stop: () => Promise<void>;
}

interface TCell {
  name: string;
  variants: number;
  method: 'GET' | 'POST';
  path: (i: number) => string;
  body?: (i: number) => string;
  /** Requests carry the token of the i-th signed-in user. */
  signedIn?: boolean;
}

const USERS_SIGNED_IN = 50;

function cells(assemblies: number): TCell[] {
  const item = (i: number) => `/api/assembly/item?${queryString({ uuid: benchPublicAssemblyUuid(i, assemblies) })}`;
  return [
    { name: 'item', variants: 5000, method: 'GET', path: item },
    { name: 'hot item', variants: 100, method: 'GET', path: item },
    {
      name: 'list',
      variants: 1,
      method: 'GET',
      path: () => `/api/assembly/list?${queryString({ page: 1, pageSize: 20 })}`,
    },
    { name: 'war latest', variants: 1, method: 'GET', path: () => '/api/stateOfWar/latest' },
    {
      name: 'like toggle (write)',
      variants: 1000,
      method: 'POST',
      path: () => '/api/likes/toggle',
      body: (i) => JSON.stringify({ targetType: 'assembly', targetId: benchPublicAssemblyUuid(i, assemblies) }),
      signedIn: true,
    },
  ];
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
async function startSqldOn(db: string, dir: string): Promise<{ child: ChildProcess; url: string }> {
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

async function startTarget(
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
      pids: [one.child.pid!],
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
      pids: [one.child.pid!, sqld.child.pid!],
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
  // One after the other: the second finds the migrations done (and the start-up lock free).
  const a = await replica(1);
  const b = await replica(2);
  return {
    name,
    urls: [a.url, b.url],
    pids: [a.child.pid!, b.child.pid!, sqld.child.pid!, redis.child.pid!],
    stop: async () => {
      await stop(a.child);
      await stop(b.child);
      await stop(redis.child);
      await stop(sqld.child);
    },
    startMs: performance.now() - started,
  };
}

async function signInTokens(url: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${url}/api/user/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `sailor${i}`, password: BENCH_PASSWORD }),
    });
    const body = (await response.json()) as { data: { token: string } };
    if (!response.ok) throw new Error(`sign-in failed: ${JSON.stringify(body)}`);
    tokens.push(body.data.token);
  }
  return tokens;
}

interface TResult {
  cell: string;
  target: TTargetName;
  rps: number;
  p50: number;
  p99: number;
  bad: number;
  cpuUs: number;
}

async function load(target: TTarget, cell: TCell, tokens: string[], args: TArgs): Promise<TResult> {
  const cpuBefore = target.pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  let counter = 0;
  const headers = (i: number): Record<string, string> => ({
    ...(cell.body ? { 'content-type': 'application/json' } : {}),
    ...(cell.signedIn ? { authorization: `Bearer ${tokens[i % tokens.length]}` } : {}),
  });
  const result = await autocannon({
    url: target.urls.length === 1 ? target.urls[0]! : target.urls,
    connections: args.connections,
    duration: args.duration,
    requests: [
      {
        method: cell.method,
        path: cell.path(0),
        headers: headers(0),
        body: cell.body?.(0),
        setupRequest: (request: Record<string, unknown>) => {
          const i = counter++ % cell.variants;
          return { ...request, path: cell.path(i), headers: headers(i), body: cell.body?.(i) };
        },
      },
    ],
  });
  for (const url of target.urls) await waitFor(`${url}/api/health`, true, 120_000);
  const cpuUs =
    ((target.pids.reduce((sum, pid) => sum + cpuMs(pid), 0) - cpuBefore) * 1000) / Math.max(1, result.requests.total);
  return {
    cell: cell.name,
    target: target.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
    cpuUs,
  };
}

function report(results: TResult[], names: TTargetName[]): void {
  console.log(
    '\n| cell | target | req/s | p50 ms | p99 ms | CPU µs/req (all processes) | non-2xx/errors | req/s vs file | CPU vs file |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const result of results) {
    const base = results.find((other) => other.cell === result.cell && other.target === 'file');
    const ratio = (a: number, b?: number) => (b ? (a / b).toFixed(2) : '');
    console.log(
      `| ${result.cell} | ${result.target} | ${Math.round(result.rps)} | ${result.p50} | ${result.p99} | ${Math.round(result.cpuUs)} | ${result.bad} | ${ratio(result.rps, base?.rps)} | ${ratio(result.cpuUs, base?.cpuUs)} |`,
    );
  }
  void names;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const work = mkdtempSync(join(tmpdir(), 'tidewatch-scale-bench-'));
  try {
    const db = join(work, 'bench.db');
    console.log(`generating ${db} (${args.assemblies} assemblies)`);
    await generate(db, {
      assemblies: args.assemblies,
      users: Math.max(USERS_SIGNED_IN, Math.round(args.assemblies / 10)),
      campaigns: 100,
      fts: 'bulk',
      progress: () => {},
    });
    // sqld takes the file as it is: no WAL beside it.
    const checkpoint = new Database(db);
    checkpoint.pragma('wal_checkpoint(TRUNCATE)');
    checkpoint.pragma('journal_mode = DELETE');
    checkpoint.close();
    const { outdir } = await buildDist(join(ROOT, 'bench', '.build'));
    const entry = join(outdir, 'main.js');
    console.log(
      `machine: ${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}, load ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
    console.log(`${args.duration} s per cell, ${args.connections} connections`);
    const selected = cells(args.assemblies).filter((cell) => !args.only || args.only.includes(cell.name));
    const names: TTargetName[] = ['file', 'sqld', 'replicas'];
    const results: TResult[] = [];
    for (const name of names) {
      const target = await startTarget(name, entry, db, work);
      console.log(
        `${name}: started in ${Math.round(target.startMs)} ms (${target.urls.length} instance${target.urls.length > 1 ? 's' : ''})`,
      );
      try {
        const tokens = await signInTokens(target.urls[0]!, USERS_SIGNED_IN);
        for (const cell of selected) {
          const result = await load(target, cell, tokens, args);
          results.push(result);
          console.log(
            `  ${cell.name.padEnd(20)} ${Math.round(result.rps).toString().padStart(6)} req/s  p99 ${result.p99} ms  ${Math.round(result.cpuUs)} µs CPU/req${result.bad ? `  ${result.bad} non-2xx` : ''}`,
          );
        }
      } finally {
        await target.stop();
      }
    }
    report(results, names);
    console.log(
      `\nload after the run: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch(async (error: unknown) => {
  console.error(error);
  for (const child of children) await stop(child).catch(() => undefined);
  process.exitCode = 1;
});
