/**
 * Load benchmarks against baselines on the same database file and payloads (not part of `npm test`):
 *
 *   npm run bench                         short run: generates a 100,000-assembly database, 3 s per cell
 *   npx tsx bench/run.ts --db <file>      an existing database (bench/generate.ts), e.g. the 1,000,000-row one
 *   options: --duration <s> --connections <n> --only list,search,... --targets peer,rest --repeat <n> --json <file>
 *            --repeat  runs every cell n times, the targets taking turns, and reports the median run
 *                      (on a shared machine one run's ratio can be off by a third)
 *            --quick   skip the start-up comparisons and bench/queries.ts (for iterating on one endpoint)
 *            --log <level>  our LOG_LEVEL (default info, as in production): our log goes to a file in the run's
 *                      temporary directory, as the equipped peer writes its own; `--log silent` turns ours off
 *                      (never for published figures: the equipped peer always logs)
 *
 * A cell of a target that logs (ours unless silent, the equipped peer) whose log file gained no line
 * fails the run: a comparison is only fair when both write their line per request.
 *
 * Each target runs in its own child process; autocannon drives them from this process over loopback:
 *   ceiling   bare node:http returning our REST body of each endpoint, precomputed (bench/ceiling.ts)
 *   peer      hand-written Fastify + better-sqlite3 doing the same queries (bench/peer/server.ts)
 *   equipped  the same peer with what ours does on every request: security headers, a per-client rate
 *             limit, a request id and log line, ETags (bench/peer/server.ts --equipped)
 *   rest      our server as production runs it (`npm run build`, node dist/main.js), REST surface /api/...
 *   trpc      the same server, native tRPC surface /trpc/<path>?input=<superjson>
 * Two more cells run on trpc alone: `trpc batch` (10 mixed reads in one batched request) and
 * `trpc single` (the same reads one per request), to compare CPU per batch with 10 single calls.
 * Prints req/s, p50, p99 and server CPU per request per endpoint and target, then the ratios of rest
 * and trpc to both peers, the batch against single calls, RSS under load and start-up time.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { buildDist } from '../scripts/build';
import { NODE_MEMORY_FLAGS } from '../server/node-flags';
import { BENCH_PASSWORD, generate, migrateBenchDatabase, WORDS } from './generate';
import { benchPublicAssemblyUuid, benchSearchInput, queryString, readBenchCounts } from './workload';
import { children, cpuMs, fileBytes, linesFrom, ourBenchEnv, ROOT, rssMb, start, stop, waitFor } from './processes';

interface TArgs {
  db?: string;
  duration: number;
  connections: number;
  only?: string[];
  /** Which of TARGETS to drive (default all). */
  targets: TTarget[];
  /** Runs per cell; the median by req/s is reported. */
  repeat: number;
  json?: string;
  quick: boolean;
  /** Our LOG_LEVEL: info by default, to a file in the run's directory; silent turns our log off. */
  log: string;
}

function parseArgs(argv: string[]): TArgs {
  const args: TArgs = {
    duration: 3,
    connections: 10,
    quick: argv.includes('--quick'),
    targets: TARGETS,
    repeat: 1,
    log: 'info',
  };
  const pairs = argv.filter((arg) => arg !== '--quick');
  for (let i = 0; i < pairs.length; i += 2) {
    const [flag, value] = [pairs[i]!, pairs[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--db') args.db = value;
    else if (flag === '--duration') args.duration = Number(value);
    else if (flag === '--connections') args.connections = Number(value);
    else if (flag === '--only') args.only = value.split(',');
    else if (flag === '--json') args.json = value;
    else if (flag === '--repeat') args.repeat = Math.max(1, Number(value));
    else if (flag === '--targets') args.targets = TARGETS.filter((target) => value.split(',').includes(target));
    else if (flag === '--log') args.log = value;
    else throw new Error(`unknown option ${flag}`);
  }
  return args;
}

const PORTS = { ours: 3111, peer: 3112, ceiling: 3113, equipped: 3114 };
type TTarget = 'ceiling' | 'peer' | 'equipped' | 'rest' | 'trpc';
const TARGETS: TTarget[] = ['ceiling', 'peer', 'equipped', 'rest', 'trpc'];
const PEERS = ['peer', 'equipped'] as const;

interface TRequestSpec {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** One benchmarked endpoint: how to build the i-th request on each surface. */
interface TEndpoint {
  name: string;
  /** How many distinct requests it cycles through (1: always the same). */
  variants: number;
  /** The REST request, also what the peers and the ceiling answer; none for a tRPC-only cell (run on trpc alone). */
  rest?(i: number): TRequestSpec;
  trpc(i: number): TRequestSpec;
  connections?: number;
  /** Seconds of load at least (slow endpoints need more than a few requests for a p99). */
  minDuration?: number;
}

const trpcGet = (path: string, input: unknown): TRequestSpec => ({
  method: 'GET',
  path: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`,
});

/** tRPC's batched GET: the procedures joined by commas, the inputs (superjson's wire form) keyed by their position. */
const trpcBatchGet = (reads: [string, unknown][]): TRequestSpec => ({
  method: 'GET',
  path: `/trpc/${reads.map(([path]) => path).join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(Object.fromEntries(reads.map(([, input], k) => [k, { json: input }]))))}`,
});

/** How many reads one `trpc batch` request carries. */
const BATCH_SIZE = 10;
/** Hot assemblies the batched reads rotate over (as the hot item cell: stored answers for ours). */
const BATCH_HOT_ITEMS = 100;

/**
 * The reads of the n-th batch, mixed as a page load asks them: two list pages, the drop, the war state
 * and a day of its history, and five popular assemblies (five new ones in each batch, over 100).
 */
function batchReads(n: number, assemblyCount: number): [string, unknown][] {
  const item = (k: number): [string, unknown] => [
    'assembly.getItem',
    { uuid: benchPublicAssemblyUuid((n * 5 + k) % BATCH_HOT_ITEMS, assemblyCount) },
  ];
  return [
    ['assembly.list', { page: 1, pageSize: 20 }],
    ['drop.getCurrent', {}],
    ['war.getLatest', {}],
    ['war.getHistory', { range: '1d' }],
    ['assembly.list', { page: 2, pageSize: 20 }],
    ...[0, 1, 2, 3, 4].map(item),
  ];
}

function endpoints(assemblyCount: number, userCount: number): TEndpoint[] {
  const itemEndpoint = (name: string, variants: number): TEndpoint => ({
    name,
    variants,
    rest: (i) => ({
      method: 'GET',
      path: `/api/assembly/item?${queryString({ uuid: benchPublicAssemblyUuid(i, assemblyCount) })}`,
    }),
    trpc: (i) => trpcGet('assembly.getItem', { uuid: benchPublicAssemblyUuid(i, assemblyCount) }),
  });
  const signinBody = (i: number) => ({ username: `sailor${(i * 31) % userCount}`, password: BENCH_PASSWORD });
  return [
    {
      name: 'list',
      variants: 1,
      rest: () => ({ method: 'GET', path: `/api/assembly/list?${queryString({ page: 1, pageSize: 20 })}` }),
      trpc: () => trpcGet('assembly.list', { page: 1, pageSize: 20 }),
    },
    {
      name: 'search',
      variants: WORDS.length * WORDS.length * 3,
      // Uncached searches over a million rows take far longer than a cached read: more connections only queue.
      connections: 2,
      minDuration: 10,
      rest: (i) => ({ method: 'GET', path: `/api/assembly/list?${queryString(benchSearchInput(i))}` }),
      trpc: (i) => trpcGet('assembly.list', benchSearchInput(i)),
    },
    // 5,000 assemblies, more than the read cache's 2,000 entries: nearly every read is a miss, as for a cold catalogue.
    itemEndpoint('item', 5000),
    // Popular loadouts: 100 assemblies read over and over, stored answers for ours (each read still counts a view); the peer has no cache.
    itemEndpoint('hot item', 100),
    {
      name: 'drop current',
      variants: 1,
      rest: () => ({ method: 'GET', path: '/api/drop/current' }),
      trpc: () => trpcGet('drop.getCurrent', {}),
    },
    {
      name: 'war latest',
      variants: 1,
      rest: () => ({ method: 'GET', path: '/api/stateOfWar/latest' }),
      trpc: () => trpcGet('war.getLatest', {}),
    },
    {
      name: 'war history 7d',
      variants: 1,
      rest: () => ({ method: 'GET', path: '/api/stateOfWar/history?range=7d' }),
      trpc: () => trpcGet('war.getHistory', { range: '7d' }),
    },
    {
      name: 'sign-in',
      variants: 1000,
      // Argon2id (19 MiB, 2 passes) dominates: a few connections saturate the CPU.
      connections: 4,
      rest: (i) => ({ method: 'POST', path: '/api/user/signin', body: JSON.stringify(signinBody(i)) }),
      trpc: (i) => ({ method: 'POST', path: '/trpc/user.signin', body: JSON.stringify({ json: signinBody(i) }) }),
    },
    // tRPC only: the same ten reads in one batched request, and one per request (CPU per batch against 10x CPU per call).
    {
      name: BATCH,
      variants: BATCH_HOT_ITEMS / 5,
      trpc: (i) => trpcBatchGet(batchReads(i, assemblyCount)),
    },
    {
      name: SINGLE,
      variants: (BATCH_HOT_ITEMS / 5) * BATCH_SIZE,
      trpc: (i) => trpcGet(...batchReads(Math.floor(i / BATCH_SIZE), assemblyCount)[i % BATCH_SIZE]!),
    },
  ];
}

const BATCH = 'trpc batch';
const SINGLE = 'trpc single';

/** Which of the selected targets a cell runs on: a tRPC-only cell on trpc alone. */
function targetsOf(endpoint: TEndpoint, selected: TTarget[]): TTarget[] {
  return endpoint.rest ? selected : selected.filter((target) => target === 'trpc');
}

function requestFor(endpoint: TEndpoint, target: TTarget, i: number): TRequestSpec {
  return target === 'trpc' || !endpoint.rest ? endpoint.trpc(i) : endpoint.rest(i);
}

// ---------- processes ----------

/** How our server logs: its LOG_LEVEL and, when it is not silent, the file its standard output (pino's JSON lines) goes to. */
interface TOurLog {
  level: string;
  fd?: number;
}

/** The production build (`npm run build`, scripts/build.ts) in bench/.build: what operators run. */
async function buildOurs(): Promise<string> {
  const { outdir } = await buildDist(join(ROOT, 'bench', '.build'));
  return join(outdir, 'main.js');
}

/** Spawn to first healthy answer: wall time and the server's CPU time, in ms. */
async function startOurs(
  db: string,
  log: TOurLog,
  entry?: string,
): Promise<{ child: ChildProcess; startupMs: number; startupCpuMs: number }> {
  const started = performance.now();
  // The heap flags of every production command line (server/node-flags.ts).
  const child = start(
    'ours',
    [...NODE_MEMORY_FLAGS, ...(entry ? [entry] : ['--import', 'tsx', 'server/main.ts'])],
    ourBenchEnv(db, PORTS.ours, log.level),
    log.fd,
  );
  await waitFor(`http://127.0.0.1:${PORTS.ours}/api/health`);
  return { child, startupMs: performance.now() - started, startupCpuMs: cpuMs(child.pid!) };
}

// ---------- load ----------

interface TCell {
  endpoint: string;
  target: TTarget;
  rps: number;
  p50: number;
  p99: number;
  bad: number;
  /** Server CPU time (user + system) per answered request, in µs: what the target itself spends, whatever autocannon's share of the cores. */
  cpuUs: number;
}

async function load(
  port: number,
  pid: number,
  endpoint: TEndpoint,
  target: TTarget,
  seconds: number,
  connections: number,
): Promise<TCell> {
  const cpuBefore = cpuMs(pid);
  // Each target starts elsewhere in the variants: otherwise tRPC would re-ask what REST just put in the shared read cache.
  let counter = TARGETS.indexOf(target) * 997;
  const first = requestFor(endpoint, target, counter % endpoint.variants);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: endpoint.connections ?? connections,
    duration: seconds,
    headers: first.body ? { 'content-type': 'application/json' } : {},
    requests: [
      {
        method: first.method,
        path: first.path,
        body: first.body,
        // One shared counter: concurrent connections do not ask for the same variant in lockstep.
        setupRequest: (request: Record<string, unknown>) => {
          const spec = requestFor(endpoint, target, counter++ % endpoint.variants);
          return { ...request, method: spec.method, path: spec.path, body: spec.body };
        },
      },
    ],
  });
  // Taken after the server has worked through what it received (drained), so its backlog is counted.
  await drainedAt(port, target);
  const cpuUs = ((cpuMs(pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total);
  return {
    endpoint: endpoint.name,
    target,
    cpuUs,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * autocannon stops sending, but a slow server still works through what it received: wait until it
 * answers again, so the next cell does not share the CPU with this one's backlog.
 */
function drainedAt(port: number, target: TTarget): Promise<number> {
  return waitFor(
    `http://127.0.0.1:${port}${target === 'rest' || target === 'trpc' ? '/api/health' : '/'}`,
    true,
    120_000,
  );
}

// ---------- report ----------

/** The run with the median req/s (the lower middle one for an even count), reported whole. */
function medianRun(runs: TCell[]): TCell {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

/** Per endpoint and target: req/s, latency and the server's CPU per answered request (`-` where a target did not run). */
function table(cells: TCell[], names: string[]): string {
  const lines = [
    `| endpoint | ${TARGETS.map((t) => `${t} req/s`).join(' | ')} | ${TARGETS.map((t) => `${t} p50/p99 ms`).join(' | ')} | ${TARGETS.map((t) => `${t} µs CPU/req`).join(' | ')} |`,
    `|---|${TARGETS.map(() => '---:').join('|')}|${TARGETS.map(() => '---:').join('|')}|${TARGETS.map(() => '---:').join('|')}|`,
  ];
  for (const name of names) {
    const of = (target: TTarget) => cells.find((cell) => cell.endpoint === name && cell.target === target);
    const lat = (target: TTarget) => {
      const cell = of(target);
      return cell ? `${cell.p50}/${cell.p99}${cell.bad ? ` (${cell.bad} non-2xx!)` : ''}` : '-';
    };
    lines.push(
      `| ${name} | ${TARGETS.map((t) => fmt(of(t)?.rps ?? NaN)).join(' | ')} | ${TARGETS.map(lat).join(' | ')} | ${TARGETS.map((t) => fmt(of(t)?.cpuUs ?? NaN)).join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

/** Our CPU per request on tRPC over REST, at most this (issue 15). */
const TRPC_REST_CPU_TARGET = 1.25;
const OURS = ['rest', 'trpc'] as const;

type TMeasure = (target: TTarget) => number;
/**
 * The ratio columns: req/s of each of our surfaces over each peer and the ceiling (above 1: ours answers
 * more), each peer's CPU per request over ours (above 1: ours spends less), and tRPC's CPU per request
 * over REST's (at most TRPC_REST_CPU_TARGET).
 */
const RATIO_COLUMNS: [string, (rps: TMeasure, cpu: TMeasure) => string][] = [
  ...OURS.flatMap((ours) =>
    PEERS.map((peer): [string, (rps: TMeasure, cpu: TMeasure) => string] => [
      `${ours}/${peer}`,
      (rps) => fmt(rps(ours) / rps(peer), 2),
    ]),
  ),
  ['rest/ceiling', (rps) => fmt(rps('rest') / rps('ceiling'), 2)],
  ...OURS.flatMap((ours) =>
    PEERS.map((peer): [string, (rps: TMeasure, cpu: TMeasure) => string] => [
      `CPU ${peer}/${ours}`,
      (_, cpu) => fmt(cpu(peer) / cpu(ours), 2),
    ]),
  ),
  [
    `CPU trpc/rest (≤ ${TRPC_REST_CPU_TARGET})`,
    (_, cpu) => {
      const ratio = cpu('trpc') / cpu('rest');
      return Number.isFinite(ratio) ? `${fmt(ratio, 2)} ${ratio <= TRPC_REST_CPU_TARGET ? '✓' : '✗'}` : '-';
    },
  ],
];

function ratioTable(cells: TCell[], names: string[]): string {
  const lines = [
    `| endpoint | ${RATIO_COLUMNS.map(([title]) => title).join(' | ')} |`,
    `|---|${RATIO_COLUMNS.map(() => '---:').join('|')}|`,
  ];
  for (const name of names) {
    const of = (target: TTarget) => cells.find((cell) => cell.endpoint === name && cell.target === target);
    const rps = (target: TTarget) => of(target)?.rps ?? NaN;
    const cpu = (target: TTarget) => of(target)?.cpuUs ?? NaN;
    lines.push(`| ${name} | ${RATIO_COLUMNS.map(([, value]) => value(rps, cpu)).join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The batch cell against the single calls of the same reads: CPU per batch and BATCH_SIZE times the CPU per call. */
function batchSummary(cells: TCell[]): string | undefined {
  const batch = cells.find((cell) => cell.endpoint === BATCH && cell.target === 'trpc');
  const single = cells.find((cell) => cell.endpoint === SINGLE && cell.target === 'trpc');
  if (!batch || !single) return undefined;
  const singles = single.cpuUs * BATCH_SIZE;
  return [
    `trpc batch of ${BATCH_SIZE} reads: ${fmt(batch.cpuUs)} µs CPU per batch (${fmt(batch.rps * BATCH_SIZE)} reads/s)`,
    `${BATCH_SIZE} single trpc reads of the same: ${BATCH_SIZE} x ${fmt(single.cpuUs)} = ${fmt(singles)} µs CPU (${fmt(single.rps)} reads/s)`,
    `batch / ${BATCH_SIZE} singles, CPU: ${fmt(batch.cpuUs / singles, 2)} (target below 1: ${batch.cpuUs < singles ? 'met' : 'not met'})`,
  ].join('\n');
}

/**
 * Lines a request log gained since byte `from`. Both targets write through pino's asynchronous
 * destination (sonic-boom): a line may still be on its way when the cell ends, so an empty log is
 * looked at again for up to a second before it counts as empty.
 */
async function loggedLines(file: string, from: number): Promise<number> {
  for (let waited = 0; ; waited += 50) {
    const lines = linesFrom(file, from);
    if (lines > 0 || waited >= 1000) return lines;
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** Lines and size of a log file. */
function logSize(file: string): string {
  if (!existsSync(file)) return 'none written';
  return `${linesFrom(file)} lines, ${fmt(statSync(file).size / 2 ** 20, 1)} MB`;
}

/** Asks a target once, outside any cell (the bodies' sizes, what the equipped peer sends, whether tRPC answers). */
async function ask(port: number, spec: TRequestSpec): Promise<{ response: Response; text: string }> {
  const response = await fetch(`http://127.0.0.1:${port}${spec.path}`, {
    method: spec.method,
    body: spec.body,
    headers: spec.body ? { 'content-type': 'application/json' } : {},
  });
  return { response, text: await response.text() };
}

/** What every answer of the equipped peer must carry: its security headers, rate limit, request id and ETag are on. */
const EQUIPPED_HEADERS = ['content-security-policy', 'x-ratelimit-remaining', 'x-request-id', 'etag'];

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const work = mkdtempSync(join(tmpdir(), 'tidewatch-bench-'));
  let db = args.db;
  let assemblyCount: number;
  let userCount: number;
  if (db) {
    if (!existsSync(db)) throw new Error(`${db} does not exist: create it with npx tsx bench/generate.ts ${db}`);
    await migrateBenchDatabase(db);
    const meta = readBenchCounts(db);
    assemblyCount = meta.assemblies;
    userCount = meta.users;
  } else {
    db = join(work, 'bench.db');
    assemblyCount = 100_000;
    userCount = 10_000;
    console.log(`generating ${db} (${assemblyCount} assemblies, ${userCount} users, 500 campaigns)`);
    await generate(db, { assemblies: assemblyCount, users: userCount, campaigns: 500, fts: 'bulk' });
  }
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}, load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  const ourLogFile = join(work, 'ours.log');
  const ourLog: TOurLog =
    args.log === 'silent' ? { level: 'silent' } : { level: args.log, fd: openSync(ourLogFile, 'a') };

  // Start-up on the existing database: twice, the first may fill tsx's transpile cache.
  const startups: number[] = [];
  const startupCpu: number[] = [];
  for (let i = 0; i < (args.quick ? 0 : 2); i++) {
    const { child, startupMs, startupCpuMs } = await startOurs(db, ourLog);
    startups.push(startupMs);
    startupCpu.push(startupCpuMs);
    await stop(child);
  }
  const bundled: number[] = [];
  const bundledCpu: number[] = [];
  const entry = await buildOurs();
  let bundledIdleRss = 0;
  for (let i = 0; i < (args.quick ? 1 : 2); i++) {
    const { child, startupMs, startupCpuMs } = await startOurs(db, ourLog, entry);
    bundled.push(startupMs);
    bundledCpu.push(startupCpuMs);
    bundledIdleRss = rssMb(child.pid!);
    await stop(child);
  }
  if (!args.quick) {
    const { child, startupMs, startupCpuMs } = await startOurs(db, ourLog);
    startups.push(startupMs);
    startupCpu.push(startupCpuMs);
    await stop(child);
  }
  // Under load ours runs from the bundle, as in production (issue 8's build); tsx only costs start-up and memory.
  const ours = await startOurs(db, ourLog, entry);
  const peer = start('peer', ['--import', 'tsx', 'bench/peer/server.ts', db, String(PORTS.peer)]);
  const equippedLog = join(work, 'equipped-requests.log');
  const equipped = start('equipped', [
    '--import',
    'tsx',
    'bench/peer/server.ts',
    db,
    String(PORTS.equipped),
    '--equipped',
    '--log',
    equippedLog,
  ]);
  await waitFor(`http://127.0.0.1:${PORTS.peer}/`, true);
  await waitFor(`http://127.0.0.1:${PORTS.equipped}/`, true);

  const list = endpoints(assemblyCount, userCount).filter(
    (endpoint) => (!args.only || args.only.includes(endpoint.name)) && targetsOf(endpoint, args.targets).length > 0,
  );
  const payloads: Record<string, string> = {};
  for (const endpoint of list) {
    const trpc = await ask(PORTS.ours, endpoint.trpc(0));
    // A batch answers 200 with an error in one of its entries: every entry must be a result.
    const trpcFailed = !trpc.response.ok || [JSON.parse(trpc.text) as object].flat().some((entry) => 'error' in entry);
    if (trpcFailed)
      throw new Error(`${endpoint.name}: our tRPC answered ${trpc.response.status}: ${trpc.text.slice(0, 300)}`);
    if (!endpoint.rest) {
      console.log(`  ${endpoint.name.padEnd(16)} trpc body ${trpc.text.length} B`);
      continue;
    }
    const spec = endpoint.rest(0);
    const { response, text } = await ask(PORTS.ours, spec);
    if (!response.ok) throw new Error(`${endpoint.name}: our REST answered ${response.status}: ${text.slice(0, 300)}`);
    const peerAnswer = await ask(PORTS.peer, spec);
    const equippedAnswer = await ask(PORTS.equipped, spec);
    const unequipped = EQUIPPED_HEADERS.filter((name) => !equippedAnswer.response.headers.has(name));
    if (unequipped.length)
      throw new Error(`${endpoint.name}: the equipped peer answered without ${unequipped.join(', ')}`);
    console.log(
      `  ${endpoint.name.padEnd(16)} body ${text.length} B (peer ${peerAnswer.text.length} B, equipped ${equippedAnswer.text.length} B), trpc body ${trpc.text.length} B`,
    );
    payloads[spec.path.split('?')[0]!] = text;
  }
  const payloadFile = join(work, 'payloads.json');
  writeFileSync(payloadFile, JSON.stringify(payloads));
  const ceiling = start('ceiling', ['--import', 'tsx', 'bench/ceiling.ts', payloadFile, String(PORTS.ceiling)]);
  await waitFor(`http://127.0.0.1:${PORTS.ceiling}/`, true);

  const cells: TCell[] = [];
  let peakRss = rssMb(ours.child.pid!);
  /** Our server's peak RSS during the endpoint being measured (both of our targets). */
  let endpointPeakRss = 0;
  const sampler = setInterval(() => {
    if (ours.child.exitCode === null) {
      const rss = rssMb(ours.child.pid!);
      peakRss = Math.max(peakRss, rss);
      endpointPeakRss = Math.max(endpointPeakRss, rss);
    }
  }, 100);
  // A failed cell (an empty request log) throws past clearInterval: the sampler must not keep the runner alive.
  sampler.unref();
  const portOf: Record<TTarget, number> = {
    ceiling: PORTS.ceiling,
    peer: PORTS.peer,
    equipped: PORTS.equipped,
    rest: PORTS.ours,
    trpc: PORTS.ours,
  };
  const pidOf: Record<TTarget, number> = {
    ceiling: ceiling.pid!,
    peer: peer.pid!,
    equipped: equipped.pid!,
    rest: ours.child.pid!,
    trpc: ours.child.pid!,
  };
  /** The request log each target writes, if it writes one. */
  const logOf: Partial<Record<TTarget, string>> = {
    equipped: equippedLog,
    ...(ourLog.fd === undefined ? {} : { rest: ourLogFile, trpc: ourLogFile }),
  };
  for (const endpoint of list) {
    const targets = targetsOf(endpoint, args.targets);
    const runs = new Map<TTarget, TCell[]>(targets.map((target) => [target, []]));
    for (let round = 0; round < args.repeat; round++) {
      for (const target of targets) {
        // A short warm-up (JIT, SQLite page cache, read caches) that is not counted.
        await load(portOf[target], pidOf[target], endpoint, target, 1, args.connections);
        const logFile = logOf[target];
        const logStart = logFile === undefined ? 0 : fileBytes(logFile);
        const cell = await load(
          portOf[target],
          pidOf[target],
          endpoint,
          target,
          endpoint.minDuration ? Math.max(endpoint.minDuration, args.duration) : args.duration,
          args.connections,
        );
        runs.get(target)!.push(cell);
        const logged = logFile === undefined ? undefined : await loggedLines(logFile, logStart);
        if (logged === 0) throw new Error(`${endpoint.name}, ${target}: its request log (${logFile}) stayed empty`);
        console.log(
          `  ${endpoint.name.padEnd(16)} ${target.padEnd(9)} ${fmt(cell.rps).padStart(7)} req/s  p50 ${cell.p50} ms  p99 ${cell.p99} ms  ${fmt(cell.cpuUs)} µs CPU/req${logged === undefined ? '' : `  ${logged} log lines`}${cell.bad ? `  ${cell.bad} non-2xx/errors` : ''}`,
        );
      }
    }
    for (const target of targets) cells.push(medianRun(runs.get(target)!));
    console.log(`  ${endpoint.name.padEnd(16)} our peak RSS ${fmt(endpointPeakRss)} MB`);
    endpointPeakRss = 0;
  }
  clearInterval(sampler);
  const finalRss = rssMb(ours.child.pid!);

  console.log(
    `\n${table(
      cells,
      list.map((endpoint) => endpoint.name),
    )}\n`,
  );
  console.log(
    'ratios: req/s ours over baseline, and CPU per request baseline over ours (above 1 ours is ahead in both); CPU trpc/rest is what tRPC costs over REST',
  );
  console.log(
    `\n${ratioTable(
      cells,
      list.filter((endpoint) => endpoint.rest).map((endpoint) => endpoint.name),
    )}\n`,
  );
  const batch = batchSummary(cells);
  if (batch) console.log(`${batch}\n`);
  console.log(
    `database: ${assemblyCount} assemblies, ${userCount} users; ${args.duration} s per cell, ${args.connections} connections (search 2, sign-in 4)${args.repeat > 1 ? `; median of ${args.repeat} runs per cell` : ''}`,
  );
  console.log(
    `our LOG_LEVEL ${args.log}${ourLog.fd === undefined ? ' (no request log: not production terms)' : ' (to a file)'}; the equipped peer logs at info to a file`,
  );
  console.log(
    `our RSS (production build): ${fmt(bundledIdleRss)} MB idle after start-up, peak ${fmt(peakRss)} MB under load, ${fmt(finalRss)} MB after`,
  );
  const runs = (wall: number[], cpu: number[]) =>
    wall.map((ms, i) => `${fmt(ms)} ms (${fmt(cpu[i]!)} ms CPU)`).join(', ');
  console.log(
    `start-up to first healthy answer, wall (server CPU): node --import tsx ${runs(startups, startupCpu)}; production build (node dist/main.js) ${runs(bundled, bundledCpu)}`,
  );
  console.log(
    `load average at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  if (args.json) {
    writeFileSync(
      args.json,
      JSON.stringify(
        {
          at: new Date().toISOString(),
          assemblyCount,
          userCount,
          duration: args.duration,
          log: args.log,
          cells,
          peakRss,
          finalRss,
          bundledIdleRss,
          startups,
          startupCpu,
          bundled,
          bundledCpu,
          load: loadavg(),
        },
        null,
        2,
      ),
    );
  }
  for (const child of children) await stop(child);
  if (ourLog.fd !== undefined) closeSync(ourLog.fd);
  // Written after the processes stopped (flushed): evidence that each logged a line per request.
  console.log(
    `request logs: equipped peer ${logSize(equippedLog)}${ourLog.fd === undefined ? '' : `; ours ${logSize(ourLogFile)}`}`,
  );
  if (args.quick) return rmSync(work, { recursive: true, force: true });
  console.log('\nservice-level timings, uncached (bench/queries.ts):');
  spawnSync(process.execPath, ['--import', 'tsx', 'bench/queries.ts', db, '50'], { cwd: ROOT, stdio: 'inherit' });
  rmSync(work, { recursive: true, force: true });
}

main().catch(async (error: unknown) => {
  console.error(error);
  for (const child of children) await stop(child).catch(() => undefined);
  process.exitCode = 1;
});
