/**
 * Start-up with and without the module-resolution shortcuts (server/module-resolution.ts), as `npm start`
 * and `npm run cli` run them (node --import tsx). The baseline is the same code entered past the
 * shortcuts: server/serve.ts for the server, server/cli/main.ts for the CLI. The two alternate in each
 * round, so both meet the same load; medians of --rounds.
 *
 * Server: an existing database (migrated once beforehand, no seed), from spawn to the first 200 of
 * /api/health: wall time, the process's CPU time, and its peak RSS (VmHWM) then.
 * CLI: `--help`, to exit: wall time, CPU time, peak RSS.
 *
 *   npx tsx bench/startup.ts [--rounds 7]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { children, cpuMs, ourBenchEnv, peakRssMb, ROOT, start, stop, waitFor } from './processes';
import { openDatabase } from '../db/client';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '7' } } });
const rounds = Number(values.rounds);

interface TSample {
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
}

/** Hypervisor steal and all CPU time so far, in ticks (/proc/stat): the share stolen during the run. */
function cpuTotals(): { steal: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { steal: fields[7] ?? 0, total: fields.reduce((sum, n) => sum + n, 0) };
}

let nextPort = 24_000 + (process.pid % 1_000) * 10;

async function serverStart(entry: string, db: string): Promise<TSample> {
  const port = nextPort++;
  const started = performance.now();
  const child = start(entry, ['--import', 'tsx', entry], ourBenchEnv(db, port));
  await waitFor(`http://127.0.0.1:${port}/api/health`);
  const sample = { wallMs: performance.now() - started, cpuMs: cpuMs(child.pid!), peakRssMb: peakRssMb(child.pid!) };
  await stop(child);
  return sample;
}

/** Runs `node --import tsx <entry> --help` to its end; CPU and peak RSS from the kernel's accounting of the child (wait4). */
async function cliHelp(entry: string): Promise<TSample> {
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-f', '%U %S %M', process.execPath, '--import', 'tsx', entry, '--help'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  const [user, sys, maxKb] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  return { wallMs: performance.now() - started, cpuMs: (user! + sys!) * 1000, peakRssMb: maxKb! / 1024 };
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;

function report(what: string, shortened: TSample[], plain: TSample[]): void {
  const row = (name: string, samples: TSample[]) =>
    `  ${name.padEnd(28)} ${median(samples.map((s) => s.wallMs))
      .toFixed(0)
      .padStart(6)} ms wall ${median(samples.map((s) => s.cpuMs))
      .toFixed(0)
      .padStart(6)} ms CPU ${median(samples.map((s) => s.peakRssMb))
      .toFixed(0)
      .padStart(5)} MB peak RSS`;
  const ratio = (pick: (s: TSample) => number) => (median(shortened.map(pick)) / median(plain.map(pick))).toFixed(2);
  console.log(`${what}\n${row('with the shortcuts', shortened)}\n${row('without (baseline)', plain)}`);
  console.log(
    `  ratio with/without: wall ${ratio((s) => s.wallMs)}, CPU ${ratio((s) => s.cpuMs)}, peak RSS ${ratio((s) => s.peakRssMb)}\n`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'tidewatch-startup-'));
try {
  const db = join(dir, 'startup.db');
  const database = openDatabase(`file:${db}`);
  await database.migrate();
  database.close();
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model}, node ${process.version}, load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}; ${rounds} rounds\n`,
  );
  const before = cpuTotals();
  const server = { shortened: [] as TSample[], plain: [] as TSample[] };
  const cli = { shortened: [] as TSample[], plain: [] as TSample[] };
  for (let round = 0; round < rounds; round++) {
    // Alternating which goes first, so neither always meets a warmer page cache.
    const order = round % 2 === 0 ? (['shortened', 'plain'] as const) : (['plain', 'shortened'] as const);
    for (const kind of order)
      server[kind].push(await serverStart(kind === 'shortened' ? 'server/main.ts' : 'server/serve.ts', db));
    for (const kind of order)
      cli[kind].push(await cliHelp(kind === 'shortened' ? 'server/cli.ts' : 'server/cli/main.ts'));
  }
  const after = cpuTotals();
  report('server: spawn to the first 200 of /api/health (existing database)', server.shortened, server.plain);
  report('CLI: --help, spawn to exit', cli.shortened, cli.plain);
  console.log(
    `CPU stolen by the hypervisor during the run: ${((100 * (after.steal - before.steal)) / (after.total - before.total)).toFixed(1)}%; load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await Promise.all(children.map((child) => stop(child)));
  rmSync(dir, { recursive: true, force: true });
}
