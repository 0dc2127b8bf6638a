/**
 * The single executable (issue 32) against `node dist/main.js` and `npm start`, in one run, all three on the
 * Node.js inside the executable (line 26, scripts/fetch-node.sh) with the heap flags of every production
 * command line (server/node-flags.ts; the executable has them as its execArgv):
 *
 * - size: the executable, and dist/ (which also needs a `node` beside it);
 * - spawn to the first 200 of /api/health on an existing database: the executable cold (an empty cache
 *   directory: it writes its native addons and migrations first) and warm (they are there and only
 *   checked), `node dist/main.js`, `npm start`; the rounds alternate the order, medians;
 * - idle RSS 2 s after that answer, and peak RSS (VmHWM) after the load below;
 * - req/s on two read endpoints (a list page and an iCalendar feed), 10 connections, --duration s each,
 *   and the server's CPU time per request (on a shared machine it moves less with the load than req/s);
 *   --load-rounds rounds in turn, medians.
 *
 *   npx tsx bench/binary.ts [--rounds 7] [--load-rounds 3] [--duration 5]
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildDist } from '../scripts/build';
import { buildBinary } from '../scripts/build-binary';
import { NODE_MEMORY_FLAGS } from '../server/node-flags';
import { children, cpuMs, ourBenchEnv, peakRssMb, ROOT, rssMb, start, stop, waitFor } from './processes';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    'load-rounds': { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
  },
});
const rounds = Number(values.rounds);
const loadRounds = Number(values['load-rounds']);
const duration = Number(values.duration);

type TTarget = 'binary cold' | 'binary warm' | 'node dist/main.js' | 'npm start';
const TARGETS: TTarget[] = ['binary cold', 'binary warm', 'node dist/main.js', 'npm start'];
const READS = ['/api/assembly/list', '/api/calendar/events.ics?season=shatteredSeas'];

const node26 = execFileSync('bash', [join(ROOT, 'scripts/fetch-node.sh'), '26'], { encoding: 'utf8' }).trim();
const dir = mkdtempSync(join(tmpdir(), 'tidewatch-bench-binary-'));
const warmCache = join(dir, 'warm-cache');

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** A port nobody listens on now (the machine is shared: a fixed range met other sessions' servers). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

function sizeOf(path: string): number {
  const stat = statSync(path);
  return stat.isDirectory() ? readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0) : stat.size;
}

/** The server process itself: `npm start` is npm, whose child (sh exec'd into node) serves. */
function serverPid(child: ChildProcess, target: TTarget): number {
  if (target !== 'npm start') return child.pid!;
  const ids = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/);
  return Number(ids[0]);
}

function privateMb(pid: number): number {
  return Number(/RssAnon:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** Waits for the first 200 of /api/health, or fails as soon as the server exits. */
async function healthy(child: ChildProcess, target: TTarget, port: number): Promise<void> {
  let onExit: (code: number | null) => void = () => undefined;
  const exited = new Promise<never>((_, fail) => {
    onExit = (code) => fail(new Error(`${target} exited with ${code}`));
    child.once('exit', onExit);
  });
  try {
    await Promise.race([waitFor(`http://127.0.0.1:${port}/api/health`), exited]);
  } finally {
    child.off('exit', onExit);
  }
}

function launch(target: TTarget, paths: { binary: string; main: string }, db: string, port: number): ChildProcess {
  const env = { ...ourBenchEnv(db, port), PATH: `${node26}:${process.env.PATH}` };
  if (target === 'node dist/main.js')
    return start(target, [...NODE_MEMORY_FLAGS, paths.main], env, undefined, join(node26, 'node'));
  if (target === 'npm start') return start(target, ['start'], env, undefined, 'npm');
  const cache = target === 'binary warm' ? warmCache : mkdtempSync(join(dir, 'cold-cache-'));
  return start(target, [], { ...env, XDG_CACHE_HOME: cache }, undefined, paths.binary);
}

interface TStart {
  wallMs: number;
  cpuMs: number;
}

async function timedStart(target: TTarget, paths: { binary: string; main: string }, db: string): Promise<TStart> {
  const port = await freePort();
  const started = performance.now();
  const child = launch(target, paths, db, port);
  await healthy(child, target, port);
  const sample = { wallMs: performance.now() - started, cpuMs: cpuMs(serverPid(child, target)) };
  await stop(child);
  return sample;
}

interface TLoad {
  idleRssMb: number;
  /** Of which private (RssAnon): the rest is file-backed, the executable's or node's pages, shared and reclaimable. */
  idlePrivateMb: number;
  peakRssMb: number;
  /** Per read of READS: requests per second, and the server's CPU time per request in µs. */
  requestsPerSecond: number[];
  cpuUsPerRequest: number[];
}

async function underLoad(target: TTarget, paths: { binary: string; main: string }, db: string): Promise<TLoad> {
  const port = await freePort();
  const child = launch(target, paths, db, port);
  await healthy(child, target, port);
  const pid = serverPid(child, target);
  await new Promise((done) => setTimeout(done, 2_000));
  const sample: TLoad = {
    idleRssMb: rssMb(pid),
    idlePrivateMb: privateMb(pid),
    peakRssMb: 0,
    requestsPerSecond: [],
    cpuUsPerRequest: [],
  };
  for (const path of READS) {
    const cpuBefore = cpuMs(pid);
    const result = await autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: 10, duration });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${target} ${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    sample.requestsPerSecond.push(result.requests.average);
    sample.cpuUsPerRequest.push(((cpuMs(pid) - cpuBefore) * 1000) / result.requests.total);
  }
  sample.peakRssMb = peakRssMb(pid);
  await stop(child);
  return sample;
}

/** The rounds in turn, each starting with the next target, so that none always meets the same load. */
function rotated<T>(items: T[], round: number): T[] {
  return [...items.slice(round % items.length), ...items.slice(0, round % items.length)];
}

try {
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model}, load ${load()} at the start; ${rounds} rounds, ${duration} s per read`,
  );
  const dist = join(dir, 'dist');
  await buildDist(dist);
  // Run as installed, from a copy: the file --build-sea has just written shows about 25 MB more of it as
  // resident (file-backed pages mapped in larger runs), which a copied file, as every user has, does not.
  const binary = join(dir, 'tidewatch');
  copyFileSync((await buildBinary(join(dir, 'bin'))).file, binary);
  chmodSync(binary, 0o755);
  const paths = { binary, main: join(dist, 'main.js') };
  const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  console.log(
    `${version}\nsize: the executable ${mb(statSync(binary).size)}; dist/ ${mb(sizeOf(dist))} (and a node of ${mb(statSync(join(node26, 'node')).size)} beside it)\n`,
  );

  // The demo data set, made once by the executable (which also fills the warm cache), copied for each target.
  const seeded = join(dir, 'seeded.db');
  execFileSync(binary, ['seed'], { env: { DATABASE_URL: `file:${seeded}`, XDG_CACHE_HOME: warmCache } });
  const dbOf = (target: TTarget) => {
    const db = join(dir, `${target.replace(/\W+/g, '-')}.db`);
    copyFileSync(seeded, db);
    return db;
  };
  const dbs = Object.fromEntries(TARGETS.map((target) => [target, dbOf(target)])) as Record<TTarget, string>;

  const starts = Object.fromEntries(TARGETS.map((target) => [target, [] as TStart[]])) as Record<TTarget, TStart[]>;
  for (let round = 0; round < rounds; round++) {
    for (const target of rotated(TARGETS, round)) starts[target].push(await timedStart(target, paths, dbs[target]));
  }
  console.log('spawn to the first 200 of /api/health (existing database), medians:');
  const reference = median(starts['node dist/main.js'].map((s) => s.wallMs));
  for (const target of TARGETS) {
    const wall = median(starts[target].map((s) => s.wallMs));
    const cpu = median(starts[target].map((s) => s.cpuMs));
    console.log(
      `  ${target.padEnd(18)} ${wall.toFixed(0).padStart(5)} ms wall (${(wall / reference).toFixed(2)} x node dist/main.js) ${cpu.toFixed(0).padStart(5)} ms CPU`,
    );
  }

  console.log(`\nmemory, req/s and server CPU µs per request (${READS.join(', ')}), medians of ${loadRounds} rounds:`);
  const LOADED: TTarget[] = ['binary warm', 'node dist/main.js', 'npm start'];
  const loads = Object.fromEntries(LOADED.map((target) => [target, [] as TLoad[]])) as Record<TTarget, TLoad[]>;
  for (let round = 0; round < loadRounds; round++)
    for (const target of rotated(LOADED, round)) loads[target].push(await underLoad(target, paths, dbs[target]));
  const medianOf = (target: TTarget, pick: (sample: TLoad) => number) => median(loads[target].map(pick));
  const shown = (target: TTarget, pick: (sample: TLoad) => number) =>
    `${medianOf(target, pick).toFixed(0)} (${(medianOf(target, pick) / medianOf('node dist/main.js', pick)).toFixed(2)} x)`;
  for (const target of LOADED) {
    const reads = READS.map(
      (_, index) =>
        `${shown(target, (s) => s.requestsPerSecond[index]!)} req/s ${shown(target, (s) => s.cpuUsPerRequest[index]!)} µs`,
    );
    console.log(
      `  ${target.padEnd(18)} idle ${shown(target, (s) => s.idleRssMb)} MB (private ${shown(target, (s) => s.idlePrivateMb)}), peak ${shown(target, (s) => s.peakRssMb)} MB; ${reads.join('; ')}`,
    );
  }
  console.log(`\nload ${load()} at the end`);
} finally {
  await Promise.all(children.map((child) => stop(child)));
  rmSync(dir, { recursive: true, force: true });
}
