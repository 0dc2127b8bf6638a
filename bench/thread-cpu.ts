/**
 * CPU per request of one server process, by thread (issue 22): its main thread (user and system time)
 * and V8's worker threads (the garbage collector's concurrent marking and sweeping), read from
 * /proc/<pid>/task before and after a load on one path. Every run starts a fresh server; `--warm`
 * paths load it first for 3 s each, as bench/run.ts's earlier cells do (their caches and heap).
 * Not part of `npm test`; Linux only.
 *
 *   npx tsx bench/thread-cpu.ts <database file> <path> [--target ours|peer] [--build <main.js>] [--seconds 5] [--rotation 5000] [--warm <path>,...]
 *   e.g. npx tsx bench/thread-cpu.ts /tmp/bench.db '/api/assembly/item?uuid={uuid}'
 *        npx tsx bench/thread-cpu.ts /tmp/bench.db /api/drop/current --target peer
 *        npx tsx bench/thread-cpu.ts /tmp/bench.db /api/drop/current --build /tmp/old/main.js   (another build of ours, for an A/B)
 *
 * `{uuid}`, `{trpcuuid}` and `{search}` rotate as in bench/profile.ts (workload.ts, rotatingPath). Ours
 * runs as the production build (bench/.build, built here unless --build names one) with the heap flags.
 * Both log as in production: ours at info, the equipped peer its line per request (to a temporary file).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { buildDist } from '../scripts/build';
import { migrateBenchDatabase } from './generate';
import { isPeerTarget, linesFrom, ROOT, startTarget, stop, waitFor } from './processes';
import { readBenchCounts, rotatingPath } from './workload';

const [db, path, ...rest] = process.argv.slice(2);
if (!db || !path)
  throw new Error(
    'usage: npx tsx bench/thread-cpu.ts <database file> <path> [--target ours|peer] [--build <main.js>] [--seconds 5] [--rotation 5000] [--warm <path>,...]',
  );
const option = (name: string, fallback: string) => {
  const at = rest.indexOf(`--${name}`);
  return at >= 0 && rest[at + 1] !== undefined ? rest[at + 1]! : fallback;
};
const target = option('target', 'ours');
const seconds = Number(option('seconds', '5'));
const rotation = Number(option('rotation', '5000'));
const warm = option('warm', '').split(',').filter(Boolean);
const port = 3131;

await migrateBenchDatabase(db);
const ourMainJs = isPeerTarget(target)
  ? ''
  : option('build', '') || join((await buildDist(join(ROOT, 'bench', '.build'))).outdir, 'main.js');
// Logging as in production (ours at info, the equipped peer its line per request), to a file removed at the end.
const logs = mkdtempSync(join(tmpdir(), 'tidewatch-thread-cpu-'));
const child = startTarget(target, ourMainJs, db, port, { file: join(logs, 'requests.log') });
await waitFor(`http://127.0.0.1:${port}${isPeerTarget(target) ? '/' : '/api/health'}`, true);

/** Clock ticks (1/100 s) of each kind of thread: main, and the others by name without their number (V8Worker, libuv-worker). */
function ticksByThread(pid: number): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const name =
      task === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+$/, '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks.set(`${name} user`, (ticks.get(`${name} user`) ?? 0) + Number(fields[11]));
    ticks.set(`${name} sys`, (ticks.get(`${name} sys`) ?? 0) + Number(fields[12]));
  }
  return ticks;
}

const assemblyCount = readBenchCounts(db).assemblies;
let counter = 0;
const load = (template: string, duration: number, cellRotation: number) =>
  autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 10,
    duration,
    requests: [
      {
        path: rotatingPath(template, 0, assemblyCount, cellRotation),
        setupRequest: (request) => ({
          ...request,
          path: rotatingPath(template, counter++, assemblyCount, cellRotation),
        }),
      },
    ],
  });

for (const path of warm) await load(path, 3, 5000);
await load(path, 2, rotation);
const before = ticksByThread(child.pid!);
const result = await load(path, seconds, rotation);
const after = ticksByThread(child.pid!);
await stop(child);
// Stopped, so every line is flushed: a target that logs and wrote nothing was not measured as production runs.
const logged = linesFrom(join(logs, 'requests.log'));
rmSync(logs, { recursive: true, force: true });
if (target !== 'peer' && logged === 0) throw new Error(`${target} wrote no request log line`);

const requests = Math.max(1, result.requests.total);
const parts = [...after]
  .map(([name, ticks]) => [name, ((ticks - (before.get(name) ?? 0)) * 10_000) / requests] as const)
  .filter(([, us]) => us >= 0.05);
const total = parts.reduce((sum, [, us]) => sum + us, 0);
console.log(
  `${target} ${path}: ${Math.round(requests / seconds)} req/s${result.non2xx ? ` (${result.non2xx} non-2xx)` : ''}, ${total.toFixed(1)} µs CPU a request: ` +
    parts.map(([name, us]) => `${name} ${us.toFixed(1)}`).join(', '),
);
