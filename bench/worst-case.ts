/**
 * Worst-case list and search requests against our production server (not part of `npm test`):
 *
 *   npx tsx bench/worst-case.ts <database file> [--requests 100] [--warm-up 10] [--seconds 10] [--clients 4] [--json <file>]
 *
 * Issue 16: one anonymous request could stall the server for seconds (a deep page of sort=hottest
 * sorted every listable row), and every page number was a new cache miss. This drives the server as
 * bench/run.ts does (the production build of scripts/build.ts with the heap flags, NODE_ENV=production,
 * LOG_LEVEL=silent, the per-client limit raised) and asks, one at a time, what costs the most: the
 * deepest reachable page of each sort, with and without a shipType (common, single-hull, no hull at
 * all), both orders, date ranges at the end of their cap, and the costliest searches (one letter or two common words sorted hottest or by rating at
 * the last page of the search cap, a common word with a hull class). Every request of a case is a
 * different page window, so none is a read-cache hit (the runner counts answers carrying `Age`, which
 * only stored answers have). Then `--clients` clients send such requests back to back for
 * `--seconds` while one more asks /api/health in a loop: health's p99 is what any other user waits.
 * Prints the machine and its load average before and after.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildDist } from '../scripts/build';
import { NODE_MEMORY_FLAGS } from '../server/node-flags';
import { MAX_LIST_WINDOW, MAX_SEARCH_RESULTS } from '../server/domains/assembly/schemas';
import { readBenchCounts } from './workload';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    requests: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '4' },
    port: { type: 'string', default: '3917' },
    'warm-up': { type: 'string', default: '10' },
    json: { type: 'string' },
  },
});
const db = positionals[0];
if (!db)
  throw new Error(
    'usage: npx tsx bench/worst-case.ts <database file> [--requests 100] [--seconds 10] [--clients 4] [--json <file>]',
  );
const REQUESTS = Number(values.requests);
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const PORT = Number(values.port);
/** Untimed requests per case first: the first reads of an index after start-up (or a migration) come from disk. */
const WARM_UP = Number(values['warm-up']);
const BASE = `http://127.0.0.1:${PORT}`;

/**
 * The deep windows of a list or search whose results stop at `reach`: every page size from 100 down
 * to 1 at the last page that still fits, then each at the page before, and so on while the window
 * starts in the last tenth of `reach`. About 5,000 distinct windows for the list, 500 for a search,
 * so a case need not repeat a request (a repeat would be a read-cache hit).
 */
function deepWindows(reach: number): { page: number; pageSize: number }[] {
  const windows: { page: number; pageSize: number }[] = [];
  for (let back = 0; back < reach; back++) {
    const before = windows.length;
    for (let pageSize = 100; pageSize >= 1; pageSize--) {
      const page = Math.floor(reach / pageSize) - back;
      if (page >= 1 && (page - 1) * pageSize >= 0.9 * reach) windows.push({ page, pageSize });
    }
    if (windows.length === before) break;
  }
  return windows;
}
const WINDOWS = new Map<number, { page: number; pageSize: number }[]>();
function deepWindow(i: number, reach: number): { page: number; pageSize: number } {
  if (!WINDOWS.has(reach)) WINDOWS.set(reach, deepWindows(reach));
  const windows = WINDOWS.get(reach)!;
  return windows[i % windows.length]!;
}

type TCase = { name: string; url: (i: number) => string };

const list =
  (params: string, reach = MAX_LIST_WINDOW) =>
  (i: number) => {
    const { page, pageSize } = deepWindow(i, reach);
    return `/api/assembly/list?${params}&page=${page}&pageSize=${pageSize}`;
  };
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** A search at the last page of the search cap; the keyword rotates too. */
const search = (params: string, keyword: (i: number) => string) => (i: number) => {
  const { page, pageSize } = deepWindow(i, MAX_SEARCH_RESULTS);
  return `/api/assembly/list?${params}&keyword=${encodeURIComponent(keyword(i))}&page=${page}&pageSize=${pageSize}`;
};
const letter = (i: number) => LETTERS[i % LETTERS.length]!;
const COMMON = ['storm', 'kraken', 'raider', 'merchant', 'broadside', 'ember', 'tide', 'reef', 'gale', 'corsair'];
const twoWords = (i: number) => `${COMMON[i % COMMON.length]} ${COMMON[(i * 3 + 1) % COMMON.length]}`;

// The generated hulls (bench/generate.ts) over the demo catalog: small = cutter + hulk (40% of rows),
// scout = dhow alone (20%), large = no hull of the catalog at all.
export const LIST_CASES: TCase[] = [
  { name: 'list latest, deepest page', url: list('sort=latest') },
  { name: 'list hottest, deepest page', url: list('sort=hottest') },
  { name: 'list rating, deepest page', url: list('sort=rating') },
  { name: 'list hottest shipType=small (2 hulls)', url: list('sort=hottest&shipType=small') },
  { name: 'list rating shipType=scout (1 hull)', url: list('sort=rating&shipType=scout') },
  { name: 'list latest shipType=tank (2 hulls)', url: list('sort=latest&shipType=tank') },
  { name: 'list latest shipType=large (no hull)', url: list('sort=latest&shipType=large') },
  { name: 'list updated, deepest page', url: list('sort=updated') },
  { name: 'list hottest asc, deepest page', url: list('sort=hottest&sortOrder=asc') },
  { name: 'list updated asc shipType=scout (1 hull)', url: list('sort=updated&sortOrder=asc&shipType=scout') },
];
/** Date ranges (issue 18) at the last page of their cap: a range as wide as the table, on the sorted field and on another. */
const WIDE = 'createdStart=2000-01-01&createdEnd=2100-01-01';
const RANGE_CASES: TCase[] = [
  { name: 'range created, latest, last page', url: list(WIDE, MAX_SEARCH_RESULTS) },
  { name: 'range created, hottest, last page', url: list(`${WIDE}&sort=hottest`, MAX_SEARCH_RESULTS) },
  {
    name: 'range updated + created, rating asc, shipType=scout',
    url: list(`${WIDE}&updatedStart=2000-01-01&sort=rating&sortOrder=asc&shipType=scout`, MAX_SEARCH_RESULTS),
  },
  { name: 'range updated + search one letter, updated', url: search('sort=updated&updatedStart=2000-01-01', letter) },
];
const SEARCH_CASES: TCase[] = [
  { name: 'search one letter, hottest, last page', url: search('sort=hottest', letter) },
  { name: 'search one letter, rating, last page', url: search('sort=rating', letter) },
  { name: 'search two common words, hottest', url: search('sort=hottest', twoWords) },
  { name: 'search one letter, latest, last page', url: search('sort=latest', letter) },
  {
    name: 'search common word + shipType=large',
    url: search('sort=latest&shipType=large', (i) => COMMON[i % COMMON.length]!),
  },
  { name: 'search one letter + shipType=scout, hottest', url: search('sort=hottest&shipType=scout', letter) },
];
/** The request of the issue: beyond the reachable window, so now a 400 (before: a full sort per page number). */
const BEYOND: TCase = {
  name: 'list hottest page=500001 (issue 16)',
  url: (i) => `/api/assembly/list?sort=hottest&page=${500_001 + i}`,
};

interface TTimed {
  ms: number;
  status: number;
  stored: boolean;
}

/** One request, timed; a connection the server closed (its 30 s request timeout, say) is status 0. */
async function ask(path: string): Promise<TTimed> {
  const started = performance.now();
  try {
    const response = await fetch(BASE + path);
    await response.arrayBuffer();
    return { ms: performance.now() - started, status: response.status, stored: response.headers.has('age') };
  } catch {
    return { ms: performance.now() - started, status: 0, stored: false };
  }
}

function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;
}

const fmt = (ms: number) => ms.toFixed(ms < 10 ? 2 : 1);

/** CPU time (user + system) a process has used so far, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function waitHealthy(timeoutMs: number): Promise<void> {
  const started = performance.now();
  for (;;) {
    try {
      const response = await fetch(`${BASE}/api/health`);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet (a pending migration runs first)
    }
    if (performance.now() - started > timeoutMs) throw new Error(`no healthy answer within ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

async function main(): Promise<void> {
  const counts = readBenchCounts(db!);
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}`,
  );
  console.log(
    `load average at the start: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `database: ${counts.assemblies} assemblies; ${REQUESTS} requests per case, one at a time; then ${CLIENTS} clients for ${SECONDS} s`,
  );

  // Its own build directory: bench/run.ts builds into bench/.build and may be running.
  const { outdir } = await buildDist(join(tmpdir(), 'tidewatch-worst-case-build'));
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...NODE_MEMORY_FLAGS, join(outdir, 'main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: `file:${resolve(db!)}`,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      PAYMENT_MANUAL_SECRET: 'bench-secret-bench-secret',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      // One client asking back to back would otherwise be a rate-limit test.
      RATE_LIMIT_GLOBAL: '1000000000',
      WAR_THIN_AFTER_DAYS: '3650',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitHealthy(600_000);
    console.log(
      `server healthy after ${((performance.now() - started) / 1000).toFixed(1)} s (includes any pending migration)`,
    );

    const rows: Record<string, unknown>[] = [];
    console.log('\n| case | p50 ms | p99 ms | max ms | statuses | stored answers |\n|---|---:|---:|---:|---|---:|');
    for (const testCase of [...LIST_CASES, ...RANGE_CASES, ...SEARCH_CASES, BEYOND]) {
      // Warm-up, not timed: windows from the far end of the rotation, so the timed ones stay misses.
      for (let i = 0; i < WARM_UP; i++) await ask(testCase.url(4000 + i));
      const timed: TTimed[] = [];
      for (let i = 0; i < REQUESTS; i++) timed.push(await ask(testCase.url(i)));
      const ms = timed.map((t) => t.ms);
      const statuses = [...new Set(timed.map((t) => t.status))].join(',');
      const stored = timed.filter((t) => t.stored).length;
      rows.push({
        case: testCase.name,
        p50: quantile(ms, 0.5),
        p99: quantile(ms, 0.99),
        max: Math.max(...ms),
        statuses,
        stored,
      });
      console.log(
        `| ${testCase.name} | ${fmt(quantile(ms, 0.5))} | ${fmt(quantile(ms, 0.99))} | ${fmt(Math.max(...ms))} | ${statuses} | ${stored} |`,
      );
    }

    // Health while CLIENTS clients send worst-case list requests back to back, each on its own rotation of windows.
    const cpuBefore = cpuMs(child.pid!);
    const until = performance.now() + SECONDS * 1000;
    const loadLatencies: number[] = [];
    let loadStored = 0;
    let loadFailed = 0;
    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; performance.now() < until; i++) {
        const testCase = LIST_CASES[(i + c) % LIST_CASES.length]!;
        // Past the single-request phase's windows, and apart from the other clients': no repeats, no cache hits.
        const timed = await ask(testCase.url(REQUESTS + c * 1000 + Math.floor(i / LIST_CASES.length)));
        loadLatencies.push(timed.ms);
        if (timed.stored) loadStored++;
        if (timed.status !== 200) loadFailed++;
      }
    });
    const health: number[] = [];
    let healthFailed = 0;
    const prober = (async () => {
      while (performance.now() < until) {
        const timed = await ask('/api/health');
        health.push(timed.ms);
        if (timed.status !== 200) healthFailed++;
        await new Promise((done) => setTimeout(done, 10));
      }
    })();
    // For comparison, a request answered in one turn of the event loop: a stored list answer (REST
    // response cache). Health takes several turns (a database ping, access(2) on the file, an empty
    // write transaction), each queued behind the list requests.
    const storedUrl = '/api/assembly/list?page=1&pageSize=1';
    await ask(storedUrl);
    const stored: number[] = [];
    const storedProber = (async () => {
      while (performance.now() < until) {
        stored.push((await ask(storedUrl)).ms);
        await new Promise((done) => setTimeout(done, 10));
      }
    })();
    await Promise.all([...clients, prober, storedProber]);
    const serverCpuUs =
      ((cpuMs(child.pid!) - cpuBefore) * 1000) / Math.max(1, loadLatencies.length + health.length + stored.length);
    console.log(
      `\n/api/health while ${CLIENTS} clients send worst-case list requests for ${SECONDS} s: p50 ${fmt(quantile(health, 0.5))} ms, p99 ${fmt(quantile(health, 0.99))} ms, max ${fmt(Math.max(...health))} ms (${health.length} probes, ${healthFailed} not 200)`,
    );
    console.log(
      `a stored list answer (one event-loop turn) meanwhile: p50 ${fmt(quantile(stored, 0.5))} ms, p99 ${fmt(quantile(stored, 0.99))} ms (${stored.length} probes)`,
    );
    console.log(
      `the list requests meanwhile: ${loadLatencies.length} (${(loadLatencies.length / SECONDS).toFixed(0)}/s), p50 ${fmt(quantile(loadLatencies, 0.5))} ms, p99 ${fmt(quantile(loadLatencies, 0.99))} ms, ${loadFailed} not 200, ${loadStored} stored answers; server CPU ${serverCpuUs.toFixed(0)} µs per request`,
    );
    console.log(
      `load average at the end: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
    if (values.json) {
      writeFileSync(
        values.json,
        JSON.stringify(
          {
            at: new Date().toISOString(),
            assemblies: counts.assemblies,
            requests: REQUESTS,
            rows,
            health: {
              p50: quantile(health, 0.5),
              p99: quantile(health, 0.99),
              probes: health.length,
              failed: healthFailed,
            },
            stored: { p50: quantile(stored, 0.5), p99: quantile(stored, 0.99) },
            load: {
              requests: loadLatencies.length,
              p50: quantile(loadLatencies, 0.5),
              p99: quantile(loadLatencies, 0.99),
              failed: loadFailed,
              serverCpuUs,
            },
            loadAverage: loadavg(),
          },
          null,
          2,
        ),
      );
    }
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
}

await main();
