/**
 * Load benchmarks against baselines on the same database file and payloads (not part of `npm test`):
 *
 *   npm run bench                         short run: generates a 100,000-assembly database, 3 s per cell
 *   npx tsx bench/run.ts --db <file>      an existing database (bench/generate.ts), e.g. the 1,000,000-row one
 *   options: --duration <s> --connections <n> --only list,search,... --targets peer,rest --repeat <n> --json <file>
 *            --repeat  runs every cell n times, the targets taking turns, and reports the median run
 *                      (on a shared machine one run's ratio can be off by a third)
 *            --quick   skip the start-up comparisons and bench/queries.ts (for iterating on one endpoint)
 *            --log <level>  our LOG_LEVEL (default info, as in production): our log goes to a file in the run's
 *                      temporary directory, as the equipped peer writes its own; `--log silent` turns ours off
 *                      (never for published figures: the equipped peer always logs)
 *
 * A cell of a target that logs (ours unless silent, the equipped peer) whose log file gained no line
 * fails the run: a comparison is only fair when both write their line per request.
 *
 * Each target runs in its own child process; autocannon drives them from this process over loopback:
 *   ceiling   bare node:http returning our REST body of each endpoint, precomputed (bench/ceiling.ts)
 *   peer      hand-written Fastify + better-sqlite3 doing the same queries (bench/peer/server.ts)
 *   equipped  the same peer with what ours does on every request: security headers, a per-client rate
 *             limit, a request id and log line, ETags (bench/peer/server.ts --equipped)
 *   rest      our server as production runs it (`npm run build`, node dist/main.js), REST surface /api/...
 *   trpc      the same server, native tRPC surface /trpc/<path>?input=<superjson>
 * Two more cells run on trpc alone: `trpc batch` (10 mixed reads in one batched request) and
 * `trpc single` (the same reads one per request), to compare CPU per batch with 10 single calls.
 * Prints req/s, p50, p99 and server CPU per request per endpoint and target, then the ratios of rest
 * and trpc to both peers, the batch against single calls, RSS under load and start-up time.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { generate, migrateBenchDatabase } from './generate';
import { parseArgs, type TTarget } from './run-args';
import { endpoints, targetsOf } from './run-cells';
import { load, loggedLines, type TCell } from './run-load';
import { batchSummary, fmt, logSize, medianRun, ratioTable, table } from './run-report';
import { buildOurs, checkFirstAnswers, PORTS, startOurs, type TOurLog } from './run-targets';
import { readBenchCounts } from './workload';
import { children, fileBytes, ROOT, rssMb, start, stop, waitFor } from './processes';

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const work = mkdtempSync(join(tmpdir(), 'tidewatch-bench-'));
  let db = args.db;
  let assemblyCount: number;
  let userCount: number;
  if (db) {
    if (!existsSync(db)) throw new Error(`${db} does not exist: create it with npx tsx bench/generate.ts ${db}`);
    await migrateBenchDatabase(db);
    const meta = readBenchCounts(db);
    assemblyCount = meta.assemblies;
    userCount = meta.users;
  } else {
    db = join(work, 'bench.db');
    assemblyCount = 100_000;
    userCount = 10_000;
    console.log(`generating ${db} (${assemblyCount} assemblies, ${userCount} users, 500 campaigns)`);
    await generate(db, { assemblies: assemblyCount, users: userCount, campaigns: 500, fts: 'bulk' });
  }
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}, load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  const ourLogFile = join(work, 'ours.log');
  const ourLog: TOurLog =
    args.log === 'silent' ? { level: 'silent' } : { level: args.log, fd: openSync(ourLogFile, 'a') };

  // Start-up on the existing database: twice, the first may fill tsx's transpile cache.
  const startups: number[] = [];
  const startupCpu: number[] = [];
  for (let i = 0; i < (args.quick ? 0 : 2); i++) {
    const { child, startupMs, startupCpuMs } = await startOurs(db, ourLog);
    startups.push(startupMs);
    startupCpu.push(startupCpuMs);
    await stop(child);
  }
  const bundled: number[] = [];
  const bundledCpu: number[] = [];
  const entry = await buildOurs();
  let bundledIdleRss = 0;
  for (let i = 0; i < (args.quick ? 1 : 2); i++) {
    const { child, startupMs, startupCpuMs } = await startOurs(db, ourLog, entry);
    bundled.push(startupMs);
    bundledCpu.push(startupCpuMs);
    bundledIdleRss = rssMb(child.pid!);
    await stop(child);
  }
  if (!args.quick) {
    const { child, startupMs, startupCpuMs } = await startOurs(db, ourLog);
    startups.push(startupMs);
    startupCpu.push(startupCpuMs);
    await stop(child);
  }
  // Under load ours runs from the bundle, as in production (issue 8's build); tsx only costs start-up and memory.
  const ours = await startOurs(db, ourLog, entry);
  const peer = start('peer', ['--import', 'tsx', 'bench/peer/server.ts', db, String(PORTS.peer)]);
  const equippedLog = join(work, 'equipped-requests.log');
  const equipped = start('equipped', [
    '--import',
    'tsx',
    'bench/peer/server.ts',
    db,
    String(PORTS.equipped),
    '--equipped',
    '--log',
    equippedLog,
  ]);
  await waitFor(`http://127.0.0.1:${PORTS.peer}/`, true);
  await waitFor(`http://127.0.0.1:${PORTS.equipped}/`, true);

  const list = endpoints(assemblyCount, userCount).filter(
    (endpoint) => (!args.only || args.only.includes(endpoint.name)) && targetsOf(endpoint, args.targets).length > 0,
  );
  const payloads = await checkFirstAnswers(list);
  const payloadFile = join(work, 'payloads.json');
  writeFileSync(payloadFile, JSON.stringify(payloads));
  const ceiling = start('ceiling', ['--import', 'tsx', 'bench/ceiling.ts', payloadFile, String(PORTS.ceiling)]);
  await waitFor(`http://127.0.0.1:${PORTS.ceiling}/`, true);

  const cells: TCell[] = [];
  let peakRss = rssMb(ours.child.pid!);
  /** Our server's peak RSS during the endpoint being measured (both of our targets). */
  let endpointPeakRss = 0;
  const sampler = setInterval(() => {
    if (ours.child.exitCode === null) {
      const rss = rssMb(ours.child.pid!);
      peakRss = Math.max(peakRss, rss);
      endpointPeakRss = Math.max(endpointPeakRss, rss);
    }
  }, 100);
  // A failed cell (an empty request log) throws past clearInterval: the sampler must not keep the runner alive.
  sampler.unref();
  const portOf: Record<TTarget, number> = {
    ceiling: PORTS.ceiling,
    peer: PORTS.peer,
    equipped: PORTS.equipped,
    rest: PORTS.ours,
    trpc: PORTS.ours,
  };
  const pidOf: Record<TTarget, number> = {
    ceiling: ceiling.pid!,
    peer: peer.pid!,
    equipped: equipped.pid!,
    rest: ours.child.pid!,
    trpc: ours.child.pid!,
  };
  /** The request log each target writes, if it writes one. */
  const logOf: Partial<Record<TTarget, string>> = {
    equipped: equippedLog,
    ...(ourLog.fd === undefined ? {} : { rest: ourLogFile, trpc: ourLogFile }),
  };
  for (const endpoint of list) {
    const targets = targetsOf(endpoint, args.targets);
    const runs = new Map<TTarget, TCell[]>(targets.map((target) => [target, []]));
    for (let round = 0; round < args.repeat; round++) {
      for (const target of targets) {
        // A short warm-up (JIT, SQLite page cache, read caches) that is not counted.
        await load(portOf[target], pidOf[target], endpoint, target, 1, args.connections);
        const logFile = logOf[target];
        const logStart = logFile === undefined ? 0 : fileBytes(logFile);
        const cell = await load(
          portOf[target],
          pidOf[target],
          endpoint,
          target,
          endpoint.minDuration ? Math.max(endpoint.minDuration, args.duration) : args.duration,
          args.connections,
        );
        runs.get(target)!.push(cell);
        const logged = logFile === undefined ? undefined : await loggedLines(logFile, logStart);
        if (logged === 0) throw new Error(`${endpoint.name}, ${target}: its request log (${logFile}) stayed empty`);
        console.log(
          `  ${endpoint.name.padEnd(16)} ${target.padEnd(9)} ${fmt(cell.rps).padStart(7)} req/s  p50 ${cell.p50} ms  p99 ${cell.p99} ms  ${fmt(cell.cpuUs)} µs CPU/req${logged === undefined ? '' : `  ${logged} log lines`}${cell.bad ? `  ${cell.bad} non-2xx/errors` : ''}`,
        );
      }
    }
    for (const target of targets) cells.push(medianRun(runs.get(target)!));
    console.log(`  ${endpoint.name.padEnd(16)} our peak RSS ${fmt(endpointPeakRss)} MB`);
    endpointPeakRss = 0;
  }
  clearInterval(sampler);
  const finalRss = rssMb(ours.child.pid!);

  console.log(
    `\n${table(
      cells,
      list.map((endpoint) => endpoint.name),
    )}\n`,
  );
  console.log(
    'ratios: req/s ours over baseline, and CPU per request baseline over ours (above 1 ours is ahead in both); CPU trpc/rest is what tRPC costs over REST',
  );
  console.log(
    `\n${ratioTable(
      cells,
      list.filter((endpoint) => endpoint.rest).map((endpoint) => endpoint.name),
    )}\n`,
  );
  const batch = batchSummary(cells);
  if (batch) console.log(`${batch}\n`);
  console.log(
    `database: ${assemblyCount} assemblies, ${userCount} users; ${args.duration} s per cell, ${args.connections} connections (search 2, sign-in 4)${args.repeat > 1 ? `; median of ${args.repeat} runs per cell` : ''}`,
  );
  console.log(
    `our LOG_LEVEL ${args.log}${ourLog.fd === undefined ? ' (no request log: not production terms)' : ' (to a file)'}; the equipped peer logs at info to a file`,
  );
  console.log(
    `our RSS (production build): ${fmt(bundledIdleRss)} MB idle after start-up, peak ${fmt(peakRss)} MB under load, ${fmt(finalRss)} MB after`,
  );
  const runs = (wall: number[], cpu: number[]) =>
    wall.map((ms, i) => `${fmt(ms)} ms (${fmt(cpu[i]!)} ms CPU)`).join(', ');
  console.log(
    `start-up to first healthy answer, wall (server CPU): node --import tsx ${runs(startups, startupCpu)}; production build (node dist/main.js) ${runs(bundled, bundledCpu)}`,
  );
  console.log(
    `load average at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  if (args.json) {
    writeFileSync(
      args.json,
      JSON.stringify(
        {
          at: new Date().toISOString(),
          assemblyCount,
          userCount,
          duration: args.duration,
          log: args.log,
          cells,
          peakRss,
          finalRss,
          bundledIdleRss,
          startups,
          startupCpu,
          bundled,
          bundledCpu,
          load: loadavg(),
        },
        null,
        2,
      ),
    );
  }
  for (const child of children) await stop(child);
  if (ourLog.fd !== undefined) closeSync(ourLog.fd);
  // Written after the processes stopped (flushed): evidence that each logged a line per request.
  console.log(
    `request logs: equipped peer ${logSize(equippedLog)}${ourLog.fd === undefined ? '' : `; ours ${logSize(ourLogFile)}`}`,
  );
  if (args.quick) return rmSync(work, { recursive: true, force: true });
  console.log('\nservice-level timings, uncached (bench/queries.ts):');
  spawnSync(process.execPath, ['--import', 'tsx', 'bench/queries.ts', db, '50'], { cwd: ROOT, stdio: 'inherit' });
  rmSync(work, { recursive: true, force: true });
}

main().catch(async (error: unknown) => {
  console.error(error);
  for (const child of children) await stop(child).catch(() => undefined);
  process.exitCode = 1;
});
