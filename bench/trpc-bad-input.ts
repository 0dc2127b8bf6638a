/**
 * What a malformed tRPC input costs the server (issue 31, item 7): the superjson annotation that used
 * to recurse until the stack overflowed, against the 400s every server answers (a field zod refuses;
 * `?input=` that is not JSON) and a 200. Server CPU per request from /proc, the kinds interleaved
 * request by request so they share the host's noise; median wall time per request beside it.
 *
 *   npx tsx bench/trpc-bad-input.ts [--requests 2000] [--root <a checkout of another build>]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { children, cpuMs, ourBenchEnv, ROOT, start, stop, waitFor } from './processes';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '2000' }, root: { type: 'string' } } });
const requests = Number(values.requests);
const root = values.root ? resolve(values.root) : ROOT;

const input = (value: unknown) => `input=${encodeURIComponent(JSON.stringify(value))}`;
const KINDS: Record<string, string> = {
  'a 200 (assembly.list, page 1)': `assembly.list?${input({ json: { page: 1 } })}`,
  'a 400 from zod (page "x")': `assembly.list?${input({ json: { page: 'x' } })}`,
  'a 400: ?input= not JSON': 'assembly.list?input=%7Bnope',
  'the issue\'s annotation ("bigint" bare)': `assembly.list?${input({ json: { page: 1 }, meta: { values: { page: 'bigint' } } })}`,
};

const port = 24_500 + (process.pid % 400);
const dir = mkdtempSync(join(tmpdir(), 'tidewatch-bench-'));
// The entry's own directory: --root runs another checkout's server with its own sources.
const child = start(
  'ours',
  ['--import', 'tsx', join(root, 'server/main.ts')],
  ourBenchEnv(join(dir, 'bench.db'), port),
);
try {
  await waitFor(`http://127.0.0.1:${port}/api/health`);
  const base = `http://127.0.0.1:${port}/trpc/`;
  const names = Object.keys(KINDS);
  const cpu = new Map(names.map((name) => [name, 0]));
  const wall = new Map<string, number[]>(names.map((name) => [name, []]));
  const statuses = new Map<string, number>();
  for (const name of names) await (await fetch(base + KINDS[name])).arrayBuffer(); // warm-up
  const load = loadavg()[0]!;
  for (let round = 0; round < requests; round++) {
    for (const name of names) {
      const cpuBefore = cpuMs(child.pid!);
      const started = performance.now();
      const response = await fetch(base + KINDS[name]);
      await response.arrayBuffer();
      wall.get(name)!.push(performance.now() - started);
      cpu.set(name, cpu.get(name)! + cpuMs(child.pid!) - cpuBefore);
      statuses.set(name, response.status);
    }
  }
  const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;
  const reference = cpu.get('a 400 from zod (page "x")')!;
  console.log(
    `${requests} requests of each kind, interleaved; load average ${load.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end (${root})`,
  );
  console.log('| request | status | server CPU µs/request | against the zod 400 | median wall ms |');
  console.log('|---|---|---|---|---|');
  for (const name of names) {
    const perRequest = (cpu.get(name)! * 1000) / requests;
    console.log(
      `| ${name} | ${statuses.get(name)} | ${perRequest.toFixed(0)} | ${(cpu.get(name)! / reference).toFixed(2)} | ${median(wall.get(name)!).toFixed(2)} |`,
    );
  }
} finally {
  await Promise.all(children.map((one) => stop(one)));
  rmSync(dir, { recursive: true, force: true });
}
