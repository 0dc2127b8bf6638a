/**
 * Loading one target with one cell of bench/run.ts through autocannon: req/s, latency and the
 * target's CPU per request, and the lines its request log gained meanwhile.
 */
import autocannon from 'autocannon';
import { TARGETS, type TTarget } from './run-args';
import { requestFor, type TEndpoint } from './run-cells';
import { cpuMs, linesFrom, waitFor } from './processes';

export interface TCell {
  endpoint: string;
  target: TTarget;
  rps: number;
  p50: number;
  p99: number;
  bad: number;
  /** Server CPU time (user + system) per answered request, in µs: what the target itself spends, whatever autocannon's share of the cores. */
  cpuUs: number;
}

export async function load(
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

/**
 * Lines a request log gained since byte `from`. Both targets write through pino's asynchronous
 * destination (sonic-boom): a line may still be on its way when the cell ends, so an empty log is
 * looked at again for up to a second before it counts as empty.
 */
export async function loggedLines(file: string, from: number): Promise<number> {
  for (let waited = 0; ; waited += 50) {
    const lines = linesFrom(file, from);
    if (lines > 0 || waited >= 1000) return lines;
    await new Promise((done) => setTimeout(done, 50));
  }
}
