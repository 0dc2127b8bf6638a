/**
 * Issue 36's live targets, in one run (not part of `npm test`): 10,000 subscribers on one instance, half
 * on the web client's WebSocket (/ws), half on GET /api/events (SSE), and
 *   - the server's RSS with them against idle (target: at most 150 MB more);
 *   - one event delivered to all of them: the time from its publication (POST /api/teamup/publish) to
 *     each subscriber's receipt, p99 (target: under 500 ms);
 *   - GET /api/health one request at a time while 10 events a second go out, p99 (target: under 50 ms);
 *   - the request benchmarks with and without the subscribers: req/s and p99 of a few reads (autocannon),
 *     before they connect, while they are connected and idle, and after they left (target: unchanged within noise).
 *
 *   npx tsx bench/live.ts [--subscribers 10000] [--events 5] [--health-seconds 10] [--load-seconds 5]
 *
 * The server runs as production runs it (scripts/build.ts's dist, NODE_ENV=production); the subscribers
 * live in two child processes of their own (one per kind), so the server's RSS is its own. Everything
 * shares the machine's cores: the load average is printed with the results.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import WebSocket from 'ws';
import { buildDist } from '../scripts/build';
import { NODE_MEMORY_FLAGS } from '../server/node-flags';
import { migrateBenchDatabase } from './generate';
import { cpuMs, ourBenchEnv, rssMb, start, stop, waitFor } from './processes';

const MARKER = /bench (\d+) (\d+)/g;

// ---------------------------------------------------------------- a subscriber process (--client ws|sse <url> <n>)
async function runClients(kind: string, url: string, count: number): Promise<void> {
  const latencies = new Map<number, number[]>();
  const received = (text: string) => {
    const now = Date.now();
    for (const match of text.matchAll(MARKER)) {
      const seq = Number(match[1]);
      const list = latencies.get(seq) ?? [];
      list.push(now - Number(match[2]));
      latencies.set(seq, list);
    }
  };
  const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const open = (): Promise<void> =>
    new Promise((resolve, reject) => {
      if (kind === 'ws') {
        const socket = new WebSocket(`${url.replace('http', 'ws')}/ws`);
        socket.on('message', (data) => received(data.toString()));
        socket.once('open', () => resolve());
        socket.once('error', reject);
        return;
      }
      const req = request(`${url}/api/events?topics=teamups`, { agent }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`SSE ${res.statusCode}`));
        res.setEncoding('utf8');
        res.on('data', received);
        resolve();
      });
      req.once('error', reject);
      req.end();
    });
  for (let opened = 0; opened < count; opened += 100) {
    await Promise.all(Array.from({ length: Math.min(100, count - opened) }, open));
  }
  process.send!({ type: 'ready' });
  process.on('message', (message: { type: string; seq: number }) => {
    if (message.type === 'report')
      process.send!({ type: 'latencies', seq: message.seq, list: latencies.get(message.seq) ?? [] });
    if (message.type === 'exit') process.exit(0);
  });
}

// ---------------------------------------------------------------- the run
function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function ask(child: ChildProcess, seq: number): Promise<number[]> {
  return new Promise((resolve) => {
    const onMessage = (message: { type: string; seq: number; list: number[] }) => {
      if (message.type !== 'latencies' || message.seq !== seq) return;
      child.off('message', onMessage);
      resolve(message.list);
    };
    child.on('message', onMessage);
    child.send({ type: 'report', seq });
  });
}

async function publish(url: string, seq: number): Promise<void> {
  const response = await fetch(`${url}/api/teamup/publish`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ player: 'Bench#1', description: `bench ${seq} ${Date.now()}`, expiresMinutesAt: 10 }),
  });
  if (response.status !== 200) throw new Error(`publish: ${response.status} ${await response.text()}`);
}

/** GET /api/health one request at a time for `seconds`: each one's time in ms. */
async function healthChecks(url: string, seconds: number): Promise<number[]> {
  const times: number[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const begun = performance.now();
    await new Promise<void>((resolve, reject) => {
      request(`${url}/api/health`, (res) => res.resume().once('end', resolve))
        .once('error', reject)
        .end();
    });
    times.push(performance.now() - begun);
  }
  return times;
}

const READS = ['/api/drop/current', '/api/teamups', '/api/stateOfWar/seasons'];

async function requestLoad(url: string, seconds: number): Promise<string[]> {
  const rows: string[] = [];
  if (seconds <= 0) return rows;
  for (const path of READS) {
    const result = await autocannon({ url: `${url}${path}`, connections: 10, duration: seconds });
    rows.push(`${path} ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`);
  }
  return rows;
}

async function main(): Promise<void> {
  const subscribers = option('subscribers', 10_000);
  const events = option('events', 5);
  const healthSeconds = option('health-seconds', 10);
  const loadSeconds = option('load-seconds', 5);
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-live-bench-'));
  const lines: string[] = [
    `load average at start: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  ];
  let server: ChildProcess | undefined;
  const clients: ChildProcess[] = [];
  try {
    const { outdir } = await buildDist(join(dir, 'dist'));
    const db = join(dir, 'live.db');
    await migrateBenchDatabase(db);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const big = '1000000000';
    server = start(
      'ours',
      [...NODE_MEMORY_FLAGS, ...(process.env.LIVE_BENCH_NODE_ARGS?.split(' ') ?? []), join(outdir, 'main.js')],
      {
        ...ourBenchEnv(db, port),
        LIVE_MAX_CONNECTIONS_PER_CLIENT: String(subscribers * 2),
        LIVE_MAX_CONNECTIONS: String(subscribers * 2),
        RATE_LIMIT_TEAMUP_ANONYMOUS: big,
      },
    );
    await waitFor(`${url}/api/health`);
    await requestLoad(url, 2); // warm-up: the JIT, the caches
    lines.push(
      `requests before the subscribers (autocannon, 10 connections, ${loadSeconds} s each):`,
      ...(await requestLoad(url, loadSeconds)),
    );
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = rssMb(server.pid!);

    const started = performance.now();
    for (const kind of ['ws', 'sse']) {
      clients.push(
        fork(import.meta.filename, ['--client', kind, url, String(subscribers / 2)], { execArgv: ['--import', 'tsx'] }),
      );
    }
    await Promise.all(clients.map((child) => new Promise((resolve) => child.once('message', resolve))));
    lines.push(
      `${subscribers} subscribers (${subscribers / 2} WebSocket, ${subscribers / 2} SSE) connected in ${Math.round(performance.now() - started)} ms`,
    );
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const loaded = rssMb(server.pid!);
    lines.push(
      `server RSS: idle ${idle.toFixed(0)} MB, with the subscribers ${loaded.toFixed(0)} MB: +${(loaded - idle).toFixed(0)} MB (target at most +150)`,
    );

    const all: number[] = [];
    for (let seq = 1; seq <= events; seq++) {
      const cpuBefore = cpuMs(server.pid!);
      await publish(url, seq);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const cpu = cpuMs(server.pid!) - cpuBefore;
      const got = (await Promise.all(clients.map((child) => ask(child, seq)))).flat();
      all.push(...got);
      lines.push(
        `event ${seq}: delivered to ${got.length}/${subscribers}, p50 ${percentile(got, 50)} ms, p99 ${percentile(got, 99)} ms, max ${Math.max(...got)} ms; server CPU ${cpu.toFixed(0)} ms`,
      );
    }
    lines.push(`one event to all: p99 over ${events} events ${percentile(all, 99)} ms (target under 500)`);

    const idleHealth = await healthChecks(url, healthSeconds / 2);
    lines.push(
      `GET /api/health with the subscribers idle (${idleHealth.length} checks): p50 ${percentile(idleHealth, 50).toFixed(1)} ms, p99 ${percentile(idleHealth, 99).toFixed(1)} ms`,
    );
    let seq = 1000;
    const publisher = setInterval(() => void publish(url, seq++).catch(() => undefined), 100);
    const healthMs = await healthChecks(url, healthSeconds);
    clearInterval(publisher);
    const sent = seq - 1000;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const lastDelivered = (await Promise.all(clients.map((child) => ask(child, seq - 1)))).flat().length;
    lines.push(
      `GET /api/health while 10 events/s went out (${sent} events, ${healthMs.length} checks): p50 ${percentile(healthMs, 50).toFixed(1)} ms, p99 ${percentile(healthMs, 99).toFixed(1)} ms (target under 50); the last event reached ${lastDelivered}/${subscribers}`,
    );
    lines.push('requests with the subscribers connected (idle):', ...(await requestLoad(url, loadSeconds)));
    for (const child of clients) child.send({ type: 'exit' });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    lines.push('requests after the subscribers left:', ...(await requestLoad(url, loadSeconds)));
  } finally {
    for (const child of clients) child.kill();
    if (server) await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
  lines.push(
    `load average at the end: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  console.log(lines.join('\n'));
}

if (process.argv[2] === '--client') await runClients(process.argv[3]!, process.argv[4]!, Number(process.argv[5]));
else await main();
