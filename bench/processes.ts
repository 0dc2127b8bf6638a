/** The child processes of the benchmarks (targets, servers they need) and what they cost: shared by bench/run.ts and bench/scale-out.ts. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { NODE_MEMORY_FLAGS } from '../server/node-flags';

export const ROOT = resolve(import.meta.dirname, '..');

/** Every child started, so a failed run can stop them all. */
export const children: ChildProcess[] = [];
const stopping = new Set<ChildProcess>();

/**
 * Starts `node <args>` (or `command <args>` for a program such as sqld or redis-server).
 * `stdout`: a file descriptor the child's standard output goes to (ignored otherwise).
 */
export function start(
  name: string,
  args: string[],
  env: Record<string, string> = {},
  stdout?: number,
  command = process.execPath,
): ChildProcess {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout ?? 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  child.on('exit', (code) => {
    if (code && code !== 0 && !stopping.has(child)) console.error(`${name} exited with ${code}\n${errors}`);
  });
  children.push(child);
  return child;
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  stopping.add(child);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  await exited;
}

/** Waits until `url` answers (any status when `anyStatus`, else a 2xx); returns the wait in ms. */
export async function waitFor(url: string, anyStatus = false, timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok || anyStatus) return performance.now() - started;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > timeoutMs) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 5));
  }
}

/** A memory figure of /proc/<pid>/status (VmRSS: now, VmHWM: the peak so far), in MB. */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
}

export function rssMb(pid: number): number {
  return statusMb(pid, 'VmRSS');
}

/** The peak RSS of a process so far. */
export function peakRssMb(pid: number): number {
  return statusMb(pid, 'VmHWM');
}

/** User and system clock ticks (1/100 s) a process has used so far. */
export function cpuTicks(pid: number): { user: number; sys: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]), sys: Number(fields[12]) };
}

/** CPU time (user + system) a process has used so far, in ms: start-up cost independent of the machine's load. */
export function cpuMs(pid: number): number {
  const { user, sys } = cpuTicks(pid);
  return ((user + sys) * 1000) / 100;
}

/** Our server's environment in the benchmarks: a generated database, no demo seed, the per-client limits out of the way, production mode. */
export function ourBenchEnv(db: string, port: number, logLevel = 'silent'): Record<string, string> {
  const big = '1000000000';
  return {
    DATABASE_URL: `file:${db}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    PAYMENT_MANUAL_SECRET: 'bench-secret-bench-secret',
    LOG_LEVEL: logLevel,
    SEED_DEMO: 'false',
    // The benchmark is one client hammering the service: the per-client limits would turn it into a 429 test.
    RATE_LIMIT_GLOBAL: big,
    RATE_LIMIT_SIGNIN: big,
    RATE_LIMIT_SIGNIN_ACCOUNT: big,
    WAR_THIN_AFTER_DAYS: '3650',
  };
}

/** Whether a benchmark target is one of the peers (bench/peer/server.ts) rather than a build of ours. */
export function isPeerTarget(target: string): boolean {
  return target === 'peer' || target === 'equipped';
}

/**
 * Starts a benchmark target on `db` at `port`: `peer`, `equipped`, or the main.js of a build of ours
 * (scripts/build.ts's buildDist) with the heap flags of every production command line.
 */
export function startTarget(target: string, ourMainJs: string, db: string, port: number): ChildProcess {
  if (isPeerTarget(target))
    return start(target, [
      '--import',
      'tsx',
      'bench/peer/server.ts',
      db,
      String(port),
      ...(target === 'equipped' ? ['--equipped'] : []),
    ]);
  return start('ours', [...NODE_MEMORY_FLAGS, ourMainJs], ourBenchEnv(db, port));
}
