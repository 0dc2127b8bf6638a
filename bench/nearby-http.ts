/** bench/nearby.ts over HTTP: the production server on the file, each case one request at a time, then /api/health while clients ask nearby back to back. */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDist } from '../scripts/build';
import type { TNearbyInput } from '../server/domains/map/point-schemas';
import { BENCH_PASSWORD } from './generate';
import { CALLER } from './nearby-layout';
import { CASES, summary } from './nearby-statements';
import { startTarget, stop, waitFor } from './processes';
import { formatMs, quantile } from './timing-report';

export interface THttpOptions {
  file: string;
  port: number;
  /** Timed requests per case. */
  requests: number;
  /** How long the clients ask back to back. */
  seconds: number;
  clients: number;
}

async function ask(
  base: string,
  path: string,
  token?: string,
): Promise<{ ms: number; status: number; truncated?: boolean; points?: number }> {
  const started = performance.now();
  const response = await fetch(base + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const body = (await response.json()) as { data?: { truncated?: boolean; points?: unknown[] } };
  return {
    ms: performance.now() - started,
    status: response.status,
    truncated: body.data?.truncated,
    points: body.data?.points?.length,
  };
}
const nearbyPath = ({ latitude, longitude, radius, limit }: TNearbyInput) =>
  `/api/map/point/nearby?latitude=${latitude}&longitude=${longitude}&radius=${radius}&limit=${limit}`;

export async function overHttp({ file, port, requests, seconds, clients: clientCount }: THttpOptions): Promise<void> {
  const base = `http://127.0.0.1:${port}`;
  const { outdir } = await buildDist(join(tmpdir(), 'tidewatch-nearby-build'));
  // Latency one request at a time, measured without the request log since issue 31.
  const server = startTarget('ours', join(outdir, 'main.js'), file, port, 'silent');
  try {
    await waitFor(`${base}/api/health`, false, 600_000);
    const signin = await fetch(`${base}/api/user/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: CALLER, password: BENCH_PASSWORD }),
    });
    const token = ((await signin.json()) as { data: { token: string } }).data.token;
    console.log(
      '\nOver HTTP (REST, production build), one request at a time (ms):\n\n| case | p50 | p99 | points | truncated |\n|---|---:|---:|---:|---|',
    );
    for (const c of CASES) {
      for (let i = 0; i < 10; i++) await ask(base, nearbyPath(c.query(i)), c.signedIn ? token : undefined);
      const timed = [];
      for (let i = 0; i < requests; i++)
        timed.push(await ask(base, nearbyPath(c.query(i)), c.signedIn ? token : undefined));
      if (timed.some((t) => t.status !== 200)) throw new Error(`${c.name}: not 200`);
      console.log(`| ${c.name} | ${summary(timed.map((t) => t.ms))} | ${timed[0]!.points} | ${timed[0]!.truncated} |`);
    }
    const until = performance.now() + seconds * 1000;
    const hammered: number[] = [];
    const clients = Array.from({ length: clientCount }, async (_, c) => {
      for (let i = 0; performance.now() < until; i++) {
        const chosen = CASES[(i + c) % 2]!;
        hammered.push((await ask(base, nearbyPath(chosen.query(i)), chosen.signedIn ? token : undefined)).ms);
      }
    });
    const health: number[] = [];
    const prober = (async () => {
      while (performance.now() < until) {
        const timed = await ask(base, '/api/health');
        if (timed.status !== 200) throw new Error(`health answered ${timed.status}`);
        health.push(timed.ms);
        await new Promise((done) => setTimeout(done, 10));
      }
    })();
    await Promise.all([...clients, prober]);
    console.log(
      `\n/api/health while ${clientCount} clients ask the issue's request back to back (anonymous and signed in) for ${seconds} s: p50 ${formatMs(quantile(health, 0.5))} ms, p99 ${formatMs(quantile(health, 0.99))} ms, max ${formatMs(Math.max(...health))} ms (${health.length} probes)`,
    );
    console.log(
      `the nearby requests meanwhile: ${hammered.length} (${(hammered.length / seconds).toFixed(0)}/s), p50 ${formatMs(quantile(hammered, 0.5))} ms, p99 ${formatMs(quantile(hammered, 0.99))} ms`,
    );
  } finally {
    await stop(server);
  }
}
