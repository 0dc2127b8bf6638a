/**
 * What scaling out costs per request (issues 20 and 37): the same load cells, in one run, against
 *   file       one instance on a local SQLite file (better-sqlite3), as a self-hoster runs it
 *   sqld       one instance on a libSQL server (sqld) on loopback
 *   replicas   two instances, each on an embedded replica of that sqld, sharing a redis-server,
 *              behind a round robin (autocannon's own: it spreads its connections over both URLs)
 *   replicas4  the same with four instances
 * Each target runs from the production build (`npm run build`), on a copy of one generated database
 * (bench/generate.ts; sqld takes the file as its database). CPU per request counts every process the
 * target needs, and is split into the instances, sqld and redis-server. Writes are like toggles by 50
 * signed-in users. Then the like toggle's transaction in its forms, in process against a sqld of its
 * own (bench/transaction-forms.ts): interactive over HTTP as before, over a WebSocket one at a time
 * and with the pool, and as one batch.
 *
 *   npx tsx bench/scale-out.ts [--assemblies N] [--duration S] [--connections N] [--only item,list,...]
 *                              [--targets file,sqld,replicas,replicas4] [--forms yes|no]
 *
 * Prints the machine's load before each target and at the end, req/s, p50, p99 and CPU per request
 * per cell and target, and each target's cost against `file`. Needs .tools/sqld
 * (scripts/fetch-sqld.sh) and redis-server.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { buildDist } from '../scripts/build';
import { BENCH_PASSWORD, generate } from './generate';
import { children, cpuMs, ROOT, stop, waitFor } from './processes';
import { startSqldOn, startTarget, TARGETS, type TTarget, type TTargetName } from './scale-out-targets';
import { runTransactionForms, type TFormResult } from './transaction-forms';
import { benchPublicAssemblyUuid, queryString } from './workload';

interface TArgs {
  assemblies: number;
  duration: number;
  connections: number;
  only?: string[];
  targets: TTargetName[];
  forms: boolean;
}

function parseArgs(argv: string[]): TArgs {
  const args: TArgs = { assemblies: 20_000, duration: 5, connections: 10, targets: TARGETS, forms: true };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i]!, argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--assemblies') args.assemblies = Number(value);
    else if (flag === '--duration') args.duration = Number(value);
    else if (flag === '--connections') args.connections = Number(value);
    else if (flag === '--only') args.only = value.split(',');
    else if (flag === '--targets') args.targets = value.split(',') as TTargetName[];
    else if (flag === '--forms') args.forms = value !== 'no';
    else throw new Error(`unknown option ${flag}`);
  }
  return args;
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
  /** CPU per request of the instances, sqld and redis-server. */
  split: { instances: number; sqld: number; redis: number };
}

type TRole = keyof TTarget['pids'];
const ROLES: TRole[] = ['instances', 'sqld', 'redis'];

function cpuByRole(target: TTarget): Record<TRole, number> {
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + cpuMs(pid), 0);
  return { instances: sum(target.pids.instances), sqld: sum(target.pids.sqld), redis: sum(target.pids.redis) };
}

async function load(target: TTarget, cell: TCell, tokens: string[], args: TArgs): Promise<TResult> {
  const cpuBefore = cpuByRole(target);
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
  const cpuAfter = cpuByRole(target);
  const perRequest = (role: TRole) => ((cpuAfter[role] - cpuBefore[role]) * 1000) / Math.max(1, result.requests.total);
  const split = { instances: perRequest('instances'), sqld: perRequest('sqld'), redis: perRequest('redis') };
  return {
    cell: cell.name,
    target: target.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
    cpuUs: ROLES.reduce((sum, role) => sum + split[role], 0),
    split,
  };
}

function report(results: TResult[]): void {
  console.log(
    '\n| cell | target | req/s | p50 ms | p99 ms | CPU µs/req (all processes) | of which instances / sqld / redis | non-2xx/errors | req/s vs file | CPU vs file |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const result of results) {
    const base = results.find((other) => other.cell === result.cell && other.target === 'file');
    const ratio = (a: number, b?: number) => (b ? (a / b).toFixed(2) : '');
    const split = ROLES.map((role) => Math.round(result.split[role])).join(' / ');
    console.log(
      `| ${result.cell} | ${result.target} | ${Math.round(result.rps)} | ${result.p50} | ${result.p99} | ${Math.round(result.cpuUs)} | ${split} | ${result.bad} | ${ratio(result.rps, base?.rps)} | ${ratio(result.cpuUs, base?.cpuUs)} |`,
    );
  }
}

function reportForms(results: TFormResult[], mismatches: number): void {
  console.log(
    '\n| like toggle transaction | database | per s | p50 ms | p99 ms | CPU µs (this process) | CPU µs (sqld) | failed |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const result of results) {
    console.log(
      `| ${result.form} | ${result.target} | ${Math.round(result.perSecond)} | ${result.p50} | ${result.p99} | ${Math.round(result.cpuUs)} | ${Math.round(result.sqldCpuUs)} | ${result.failed} |`,
    );
  }
  console.log(`like counts that disagree with their rows afterwards: ${mismatches}`);
}

const load3 = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

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
      `machine: ${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}, load ${load3()}`,
    );
    console.log(`${args.duration} s per cell, ${args.connections} connections`);
    const selected = cells(args.assemblies).filter((cell) => !args.only || args.only.includes(cell.name));
    const results: TResult[] = [];
    for (const name of args.targets) {
      const target = await startTarget(name, entry, db, work);
      console.log(
        `${name}: started in ${Math.round(target.startMs)} ms (${target.urls.length} instance${target.urls.length > 1 ? 's' : ''}), load ${load3()}`,
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
    report(results);
    if (args.forms) {
      console.log(
        `\nthe like toggle's transaction, ${args.connections} callers, ${args.duration} s each, load ${load3()}`,
      );
      const sqld = await startSqldOn(db, join(work, 'forms', 'sqld'));
      const file = join(work, 'forms', 'bench.db');
      copyFileSync(db, file);
      try {
        const forms = await runTransactionForms({
          sqldUrl: sqld.url,
          sqldPid: sqld.child.pid!,
          file,
          concurrency: args.connections,
          durationS: args.duration,
        });
        reportForms(forms.results, forms.mismatches);
      } finally {
        await stop(sqld.child);
      }
    }
    console.log(`\nload after the run: ${load3()}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch(async (error: unknown) => {
  console.error(error);
  for (const child of children) await stop(child).catch(() => undefined);
  process.exitCode = 1;
});
