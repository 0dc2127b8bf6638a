/**
 * CPU profile of our server under load on one endpoint (not part of `npm test`):
 *
 *   npx tsx bench/profile.ts <database file> <path> [seconds=5] [connections=10]
 *   e.g. npx tsx bench/profile.ts /tmp/bench.db '/api/stateOfWar/latest'
 *        PROFILE_TARGET=peer npx tsx bench/profile.ts ...   (the peer instead of ours; `equipped`: the equipped peer)
 *        npx tsx bench/profile.ts /tmp/bench.db '/api/assembly/item?uuid={uuid}'   (5,000 assemblies in rotation)
 *        npx tsx bench/profile.ts /tmp/bench.db '/api/assembly/list?{search}'      (the search cell's keywords)
 *        npx tsx bench/profile.ts /tmp/bench.db '/trpc/assembly.getItem?input={trpcuuid}'   (the same assemblies through native tRPC)
 *        npx tsx bench/profile.ts /tmp/bench.db 'POST /api/user/signin' 5 4   (the sign-in cell's bodies: its users in rotation)
 *
 * Starts our production build (PROFILE_TSX=1: server/main.ts through tsx) with `node --cpu-prof`, logging at info to a
 * file as in production (PROFILE_LOG=silent: without), drives the path with autocannon, stops the server
 * and prints the functions with the most self time, grouped by file (the .cpuprofile is kept for
 * Chrome DevTools).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import autocannon from 'autocannon';
import { buildDist } from '../scripts/build';
import { BENCH_PASSWORD, migrateBenchDatabase } from './generate';
import { NODE_MEMORY_FLAGS } from '../server/node-flags';
import { readBenchCounts, rotatingPath } from './workload';
import { linesFrom, ourBenchEnv } from './processes';

interface TNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const [db, path, seconds = '5', connections = '10'] = process.argv.slice(2);
if (!db || !path) throw new Error('usage: npx tsx bench/profile.ts <database file> <path> [seconds] [connections]');
/** `{uuid}` and `{trpcuuid}` in the path rotate over 5,000 public assemblies (PROFILE_ROTATION=100: the hot item cell's 100), `{search}` over 3,888 keyword searches (workload.ts, rotatingPath), as bench/run.ts's cells do. */
const ITEM_ROTATION = Number(process.env.PROFILE_ROTATION ?? 5000);

const root = resolve(import.meta.dirname, '..');
await migrateBenchDatabase(db);
const dir = mkdtempSync(join(tmpdir(), 'tidewatch-prof-'));
const port = 3121;
// `PROFILE_TARGET=peer` profiles the hand-written peer (bench/peer/server.ts) instead, to compare where each spends its time;
// `PROFILE_TARGET=equipped` the same peer with --equipped (its request log goes to a file in the profile's directory).
const target = process.env.PROFILE_TARGET === 'peer' || process.env.PROFILE_TARGET === 'equipped' ? 'peer' : 'ours';
const equipped = process.env.PROFILE_TARGET === 'equipped' ? ['--equipped', '--log', join(dir, 'requests.log')] : [];
/**
 * Ours runs as bench/run.ts runs it: the production build (bench/.build) with the heap flags, unless
 * PROFILE_TSX=1 (the sources through tsx: names and lines of the sources, slower).
 */
async function ourEntry(): Promise<string[]> {
  if (process.env.PROFILE_TSX === '1') return ['--import', 'tsx', 'server/main.ts'];
  const { outdir } = await buildDist(join(root, 'bench', '.build'));
  return [join(outdir, 'main.js')];
}
const child =
  target === 'peer'
    ? spawn(
        process.execPath,
        [
          '--cpu-prof',
          `--cpu-prof-dir=${dir}`,
          '--import',
          'tsx',
          'bench/peer/server.ts',
          db,
          String(port),
          ...equipped,
        ],
        { cwd: root, stdio: 'inherit' },
      )
    : spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...NODE_MEMORY_FLAGS, ...(await ourEntry())], {
        cwd: root,
        // The request log (pino's lines on standard output) goes to a file in the profile's directory.
        stdio: ['ignore', openSync(join(dir, 'requests.log'), 'a'), 'inherit'],
        env: { ...process.env, ...ourBenchEnv(db, port, process.env.PROFILE_LOG ?? 'info') },
      });
for (;;) {
  try {
    await fetch(`http://127.0.0.1:${port}${target === 'peer' ? '/' : '/api/health'}`);
    break;
  } catch {
    await new Promise((done) => setTimeout(done, 20));
  }
}
const [method, template] = path.startsWith('POST ') ? ['POST', path.slice(5)] : ['GET', path];
const counts = /\{(trpc)?uuid\}/.test(path) || method === 'POST' ? readBenchCounts(db) : { assemblies: 0, users: 0 };
let counter = 0;
const pathAt = (i: number) => rotatingPath(template, i, counts.assemblies, ITEM_ROTATION);
/** A POST sends the sign-in cell's body (bench/run.ts): its users in the same rotation. */
const bodyAt = (i: number) =>
  method === 'POST'
    ? JSON.stringify({ username: `sailor${(i * 31) % counts.users}`, password: BENCH_PASSWORD })
    : undefined;
const result = await autocannon({
  url: `http://127.0.0.1:${port}`,
  duration: Number(seconds),
  connections: Number(connections),
  requests: [
    {
      method,
      path: pathAt(0),
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => {
        const i = counter++;
        return { ...request, path: pathAt(i), body: bodyAt(i) };
      },
    },
  ],
});
console.log(
  `${path}: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`,
);
const exited = new Promise((done) => child.once('exit', done));
child.kill('SIGTERM');
await exited;
// Stopped, so every line is flushed: a target that logs and wrote nothing was not profiled as production runs.
const logsRequests =
  process.env.PROFILE_TARGET === 'equipped' ||
  (target === 'ours' && ['info', 'debug', 'trace'].includes(process.env.PROFILE_LOG ?? 'info'));
if (logsRequests && linesFrom(join(dir, 'requests.log')) === 0) throw new Error('the target wrote no request log line');

const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error('no profile written');
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
  nodes: TNode[];
  samples: number[];
  timeDeltas: number[];
};
const self = new Map<number, number>();
for (const [index, id] of profile.samples.entries())
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const answered = Math.max(1, result.requests.total);
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const node of profile.nodes) {
  const us = self.get(node.id) ?? 0;
  const url = node.callFrame.url.replace('file://', '');
  const where = url ? relative(root, url) : '(native)';
  const fileKey = where.startsWith('node_modules/')
    ? where
        .split('/')
        .slice(0, where.split('/')[1]!.startsWith('@') ? 3 : 2)
        .join('/')
    : where;
  const key = `${node.callFrame.functionName || '(anonymous)'}  ${where}:${node.callFrame.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + us);
}
const top = (map: Map<string, number>, n: number) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(
      ([key, us]) =>
        `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / answered).toFixed(1).padStart(6)} µs/req  ${key}`,
    )
    .join('\n');
// Inclusive time: a function's own samples plus everything it called (recursion counted once per stack).
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const keyOf = (node: TNode) => {
  const url = node.callFrame.url.replace('file://', '');
  return `${node.callFrame.functionName || '(anonymous)'}  ${url ? relative(root, url) : '(native)'}:${node.callFrame.lineNumber + 1}`;
};
const inclusive = new Map<string, number>();
const walk = (id: number, onStack: Set<string>): number => {
  const node = byId.get(id)!;
  const key = keyOf(node);
  let us = self.get(id) ?? 0;
  const nested = onStack.has(key);
  if (!nested) onStack.add(key);
  for (const child of node.children ?? []) us += walk(child, onStack);
  if (!nested) {
    onStack.delete(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
  return us;
};
walk(profile.nodes[0]!.id, new Set());
console.log(
  `\nself time by package/file:\n${top(byFile, 30)}\n\nself time by function:\n${top(byFunction, 50)}\n\ninclusive time by function:\n${top(inclusive, 45)}\n\nprofile: ${join(dir, file)}`,
);
