/**
 * Paired A/B (issue 22): two targets loaded at the same time on one path, CPU per request of each
 * read from /proc, round after round. A busy host moves a cell's CPU by 10 to 50% from one run to the
 * next (bench/README.md); two targets measured side by side share that noise, so their ratio holds
 * where two runs one after the other do not. Each round starts both fresh. Not part of `npm test`;
 * Linux only.
 *
 *   npx tsx bench/paired.ts <database file> <path> <target A> <target B> [--rounds 5] [--seconds 4] [--warm 2] [--rotation 5000]
 *   e.g. npx tsx bench/paired.ts /tmp/bench.db '/api/assembly/item?uuid={uuid}' ours peer
 *        npx tsx bench/paired.ts /tmp/bench.db /api/drop/current ours /tmp/old-build/main.js
 *
 * A target is `ours` (the production build of this tree, bench/.build), `peer`, `equipped`, or the
 * main.js of another build of ours (scripts/build.ts's buildDist). B runs on its own copy of the
 * database (`<file>-paired`, made when missing or older), so that neither waits on the other's
 * writes (the view counters). Both share the machine's two CPUs with their load generators: the µs
 * are higher than bench/run.ts's; read the ratio. `{uuid}`, `{trpcuuid}` and `{search}` rotate as in
 * bench/run.ts (workload.ts, rotatingPath). Both log as in production (ours at info, the equipped peer
 * its line per request, each to a file of its own); a round in which a target that logs wrote no line
 * fails the run.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { buildDist } from '../scripts/build';
import { migrateBenchDatabase } from './generate';
import {
  cpuTicks,
  fileBytes,
  isPeerTarget,
  linesFrom,
  ROOT,
  startTarget,
  stop,
  targetLogs,
  waitFor,
} from './processes';
import { readBenchCounts, rotatingPath } from './workload';

const [db, path, targetA, targetB, ...rest] = process.argv.slice(2);
if (!db || !path || !targetA || !targetB) {
  throw new Error(
    'usage: npx tsx bench/paired.ts <database file> <path> <target A> <target B> [--rounds 5] [--seconds 4] [--warm 2] [--rotation 5000]',
  );
}
const option = (name: string, fallback: number) => {
  const at = rest.indexOf(`--${name}`);
  return at >= 0 && rest[at + 1] !== undefined ? Number(rest[at + 1]) : fallback;
};
const rounds = option('rounds', 5);
const seconds = option('seconds', 4);
/** Seconds of load before the measured ones, not counted: the JIT, the heap, the caches (ours takes longer to settle than the peer, bench/README.md). */
const warm = option('warm', 2);
const rotation = option('rotation', 5000);

await migrateBenchDatabase(db);
const copy = `${db}-paired`;
if (!existsSync(copy) || statSync(copy).mtimeMs < statSync(db).mtimeMs) {
  for (const suffix of ['-wal', '-shm']) rmSync(copy + suffix, { force: true });
  copyFileSync(db, copy);
}
const ourBuild = [targetA, targetB].includes('ours')
  ? join((await buildDist(join(ROOT, 'bench', '.build'))).outdir, 'main.js')
  : '';

const assemblyCount = readBenchCounts(db).assemblies;
const logs = mkdtempSync(join(tmpdir(), 'tidewatch-paired-'));
const targets = [
  { name: targetA, file: db, port: 3141, log: { file: join(logs, 'a.log') } },
  { name: targetB, file: copy, port: 3142, log: { file: join(logs, 'b.log') } },
];
const perRound: { us: number; sysUs: number; rps: number }[][] = [];
for (let round = 1; round <= rounds; round++) {
  const children = targets.map(({ name, file, port, log }) =>
    startTarget(name, name === 'ours' ? ourBuild : name, file, port, log),
  );
  await Promise.all(
    targets.map(({ name, port }) =>
      waitFor(`http://127.0.0.1:${port}${isPeerTarget(name) ? '/' : '/api/health'}`, true),
    ),
  );
  const counters = [0, 0];
  const load = (index: number, duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${targets[index]!.port}`,
      connections: 5,
      duration,
      requests: [
        {
          path: rotatingPath(path, 0, assemblyCount, rotation),
          setupRequest: (request) => ({
            ...request,
            path: rotatingPath(path, counters[index]!++, assemblyCount, rotation),
          }),
        },
      ],
    });
  await Promise.all([load(0, warm), load(1, warm)]);
  const before = children.map((child) => cpuTicks(child.pid!));
  const logStarts = targets.map(({ log }) => fileBytes(log.file));
  const results = await Promise.all([load(0, seconds), load(1, seconds)]);
  const after = children.map((child) => cpuTicks(child.pid!));
  for (const child of children) await stop(child);
  // Stopped, so every line is flushed: a target that logs and wrote nothing was not measured as production runs.
  for (const [i, { name, log }] of targets.entries()) {
    if (targetLogs(name, log) && linesFrom(log.file, logStarts[i]) === 0)
      throw new Error(`round ${round}: ${name} wrote no request log line`);
  }
  const measured = results.map((result, i) => {
    const requests = Math.max(1, result.requests.total);
    if (result.non2xx) console.warn(`${targets[i]!.name}: ${result.non2xx} answers were not 2xx`);
    const user = after[i]!.user - before[i]!.user;
    const sys = after[i]!.sys - before[i]!.sys;
    return { us: ((user + sys) * 10_000) / requests, sysUs: (sys * 10_000) / requests, rps: requests / seconds };
  });
  perRound.push(measured);
  const [a, b] = measured as [(typeof measured)[0], (typeof measured)[0]];
  console.log(
    `round ${round}: A ${a.us.toFixed(1)} µs (sys ${a.sysUs.toFixed(1)}, ${Math.round(a.rps)} req/s), ` +
      `B ${b.us.toFixed(1)} µs (sys ${b.sysUs.toFixed(1)}, ${Math.round(b.rps)} req/s), CPU A/B ${(a.us / b.us).toFixed(3)}`,
  );
}
rmSync(logs, { recursive: true, force: true });
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
const ratios = perRound.map(([a, b]) => a!.us / b!.us);
console.log(
  `${path}: A ${targetA} ${median(perRound.map(([a]) => a!.us)).toFixed(1)} µs, B ${targetB} ${median(perRound.map(([, b]) => b!.us)).toFixed(1)} µs a request (medians); ` +
    `CPU A/B per round ${ratios.map((ratio) => ratio.toFixed(2)).join(' ')}, median ${median(ratios).toFixed(3)}`,
);
