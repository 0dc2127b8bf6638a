/**
 * The targets of bench/run.ts as processes: their ports, our server's production build and start-up,
 * and the check of each cell's first answer on every target before any load.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { buildDist } from '../scripts/build';
import { NODE_MEMORY_FLAGS } from '../server/node-flags';
import type { TEndpoint, TRequestSpec } from './run-cells';
import { cpuMs, ourBenchEnv, ROOT, start, waitFor } from './processes';

export const PORTS = { ours: 3111, peer: 3112, ceiling: 3113, equipped: 3114 };

/** How our server logs: its LOG_LEVEL and, when it is not silent, the file its standard output (pino's JSON lines) goes to. */
export interface TOurLog {
  level: string;
  fd?: number;
}

/** The production build (`npm run build`, scripts/build.ts) in bench/.build: what operators run. */
export async function buildOurs(): Promise<string> {
  const { outdir } = await buildDist(join(ROOT, 'bench', '.build'));
  return join(outdir, 'main.js');
}

/** Spawn to first healthy answer: wall time and the server's CPU time, in ms. */
export async function startOurs(
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

/**
 * Asks ours (REST and tRPC), the peer and the equipped peer each cell's first request once, before any
 * load: prints the bodies' sizes and throws on an error answer or an equipped peer without its headers.
 * Returns our REST body of each path, what the ceiling sends.
 */
export async function checkFirstAnswers(list: TEndpoint[]): Promise<Record<string, string>> {
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
  return payloads;
}
