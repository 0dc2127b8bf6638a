/** The child processes of the benchmarks (targets, servers they need) and what they cost: shared by bench/run.ts and bench/scale-out.ts. */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readSync, readFileSync, statSync } from 'node:fs';
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
 * How a target logs. `{ file }`: as in production, one info line per request, appended to `file` (ours:
 * LOG_LEVEL=info, its standard output; the equipped peer: Fastify's pino with `--log`); the plain peer
 * logs nothing either way. `'silent'`: ours with LOG_LEVEL=silent (benchmarks that compare ours with
 * nothing but itself); the equipped peer still logs, to a temporary file of its own.
 */
export type TTargetLog = { file: string } | 'silent';

/** Whether a target writes a request log (the equipped peer always; ours unless silent). */
export function targetLogs(target: string, log: TTargetLog): boolean {
  return target === 'equipped' || (target !== 'peer' && log !== 'silent');
}

/**
 * Starts a benchmark target on `db` at `port`: `peer`, `equipped`, or the main.js of a build of ours
 * (scripts/build.ts's buildDist) with the heap flags of every production command line.
 */
export function startTarget(
  target: string,
  ourMainJs: string,
  db: string,
  port: number,
  log: TTargetLog,
): ChildProcess {
  const file = log === 'silent' ? undefined : log.file;
  if (isPeerTarget(target))
    return start(target, [
      '--import',
      'tsx',
      'bench/peer/server.ts',
      db,
      String(port),
      ...(target === 'equipped' ? ['--equipped', ...(file ? ['--log', file] : [])] : []),
    ]);
  if (file === undefined) return start('ours', [...NODE_MEMORY_FLAGS, ourMainJs], ourBenchEnv(db, port));
  const fd = openSync(file, 'a');
  try {
    return start('ours', [...NODE_MEMORY_FLAGS, ourMainJs], ourBenchEnv(db, port, 'info'), fd);
  } finally {
    // The child holds its own copy of the descriptor.
    closeSync(fd);
  }
}

/** The size of a file in bytes, 0 when it does not exist yet: where a log's next lines will start. */
export function fileBytes(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

/** How many lines a file holds from byte `from` on, read in chunks (a run's request log is tens of MB). */
export function linesFrom(file: string, from = 0): number {
  if (!existsSync(file)) return 0;
  const fd = openSync(file, 'r');
  const chunk = Buffer.alloc(1 << 20);
  let lines = 0;
  try {
    for (let at = from; ; ) {
      const read = readSync(fd, chunk, 0, chunk.length, at);
      if (read === 0) break;
      const bytes = chunk.subarray(0, read);
      for (let newline = bytes.indexOf(10); newline !== -1; newline = bytes.indexOf(10, newline + 1)) lines++;
      at += read;
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}
