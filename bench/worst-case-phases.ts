/** bench/worst-case.ts's two phases against a running server: each case one request at a time (the table), then /api/health under `clients` clients. */
import { cpuMs } from './processes';
import { LIST_CASES, type TCase } from './worst-case-cases';
import { formatMs, quantile } from './timing-report';

interface TTimed {
  ms: number;
  status: number;
  stored: boolean;
}

/** One request, timed; a connection the server closed (its 30 s request timeout, say) is status 0. */
async function ask(base: string, path: string): Promise<TTimed> {
  const started = performance.now();
  try {
    const response = await fetch(base + path);
    await response.arrayBuffer();
    return { ms: performance.now() - started, status: response.status, stored: response.headers.has('age') };
  } catch {
    return { ms: performance.now() - started, status: 0, stored: false };
  }
}

/** One row of the table, as the JSON output holds it. */
export interface TCaseRow {
  case: string;
  p50: number;
  p99: number;
  max: number;
  statuses: string;
  stored: number;
}

/** Each case, `warmUp` untimed requests then `requests` timed ones, one at a time; prints the table and returns its rows. */
export async function oneAtATime(base: string, cases: TCase[], requests: number, warmUp: number): Promise<TCaseRow[]> {
  const rows: TCaseRow[] = [];
  console.log('\n| case | p50 ms | p99 ms | max ms | statuses | stored answers |\n|---|---:|---:|---:|---|---:|');
  for (const testCase of cases) {
    // Warm-up, not timed: windows from the far end of the rotation, so the timed ones stay misses.
    for (let i = 0; i < warmUp; i++) await ask(base, testCase.url(4000 + i));
    const timed: TTimed[] = [];
    for (let i = 0; i < requests; i++) timed.push(await ask(base, testCase.url(i)));
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
      `| ${testCase.name} | ${formatMs(quantile(ms, 0.5))} | ${formatMs(quantile(ms, 0.99))} | ${formatMs(Math.max(...ms))} | ${statuses} | ${stored} |`,
    );
  }
  return rows;
}

/** What the phase under load measured: latencies in ms, failures, and the server's CPU per request. */
export interface TUnderLoad {
  health: number[];
  healthFailed: number;
  stored: number[];
  loadLatencies: number[];
  loadFailed: number;
  loadStored: number;
  serverCpuUs: number;
}

/**
 * /api/health (and a stored answer) in a loop while `clients` clients send worst-case list requests
 * back to back for `seconds`, each on its own rotation of windows past the first phase's `requests`;
 * prints the three summary lines.
 */
export async function underLoad(
  base: string,
  serverPid: number,
  requests: number,
  seconds: number,
  clients: number,
): Promise<TUnderLoad> {
  const cpuBefore = cpuMs(serverPid);
  const until = performance.now() + seconds * 1000;
  const loadLatencies: number[] = [];
  let loadStored = 0;
  let loadFailed = 0;
  const senders = Array.from({ length: clients }, async (_, c) => {
    for (let i = 0; performance.now() < until; i++) {
      const testCase = LIST_CASES[(i + c) % LIST_CASES.length]!;
      // Past the single-request phase's windows, and apart from the other clients': no repeats, no cache hits.
      const timed = await ask(base, testCase.url(requests + c * 1000 + Math.floor(i / LIST_CASES.length)));
      loadLatencies.push(timed.ms);
      if (timed.stored) loadStored++;
      if (timed.status !== 200) loadFailed++;
    }
  });
  const health: number[] = [];
  let healthFailed = 0;
  const prober = (async () => {
    while (performance.now() < until) {
      const timed = await ask(base, '/api/health');
      health.push(timed.ms);
      if (timed.status !== 200) healthFailed++;
      await new Promise((done) => setTimeout(done, 10));
    }
  })();
  // For comparison, a request answered in one turn of the event loop: a stored list answer (REST
  // response cache). Health takes several turns (a database ping, access(2) on the file, an empty
  // write transaction), each queued behind the list requests.
  const storedUrl = '/api/assembly/list?page=1&pageSize=1';
  await ask(base, storedUrl);
  const stored: number[] = [];
  const storedProber = (async () => {
    while (performance.now() < until) {
      stored.push((await ask(base, storedUrl)).ms);
      await new Promise((done) => setTimeout(done, 10));
    }
  })();
  await Promise.all([...senders, prober, storedProber]);
  const serverCpuUs =
    ((cpuMs(serverPid) - cpuBefore) * 1000) / Math.max(1, loadLatencies.length + health.length + stored.length);
  console.log(
    `\n/api/health while ${clients} clients send worst-case list requests for ${seconds} s: p50 ${formatMs(quantile(health, 0.5))} ms, p99 ${formatMs(quantile(health, 0.99))} ms, max ${formatMs(Math.max(...health))} ms (${health.length} probes, ${healthFailed} not 200)`,
  );
  console.log(
    `a stored list answer (one event-loop turn) meanwhile: p50 ${formatMs(quantile(stored, 0.5))} ms, p99 ${formatMs(quantile(stored, 0.99))} ms (${stored.length} probes)`,
  );
  console.log(
    `the list requests meanwhile: ${loadLatencies.length} (${(loadLatencies.length / seconds).toFixed(0)}/s), p50 ${formatMs(quantile(loadLatencies, 0.5))} ms, p99 ${formatMs(quantile(loadLatencies, 0.99))} ms, ${loadFailed} not 200, ${loadStored} stored answers; server CPU ${serverCpuUs.toFixed(0)} µs per request`,
  );
  return { health, healthFailed, stored, loadLatencies, loadFailed, loadStored, serverCpuUs };
}
