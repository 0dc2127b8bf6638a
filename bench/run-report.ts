/**
 * The report of bench/run.ts: the median of repeated runs, the table of req/s, latency and CPU per
 * request by endpoint and target, the ratios of ours to the peers and the ceiling, the batch against
 * single calls, and the size of a request log.
 */
import { existsSync, statSync } from 'node:fs';
import { PEERS, TARGETS, type TTarget } from './run-args';
import { BATCH, BATCH_SIZE, SINGLE } from './run-cells';
import type { TCell } from './run-load';
import { linesFrom } from './processes';

/** The run with the median req/s (the lower middle one for an even count), reported whole. */
export function medianRun(runs: TCell[]): TCell {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

/** Per endpoint and target: req/s, latency and the server's CPU per answered request (`-` where a target did not run). */
export function table(cells: TCell[], names: string[]): string {
  const lines = [
    `| endpoint | ${TARGETS.map((t) => `${t} req/s`).join(' | ')} | ${TARGETS.map((t) => `${t} p50/p99 ms`).join(' | ')} | ${TARGETS.map((t) => `${t} µs CPU/req`).join(' | ')} |`,
    `|---|${TARGETS.map(() => '---:').join('|')}|${TARGETS.map(() => '---:').join('|')}|${TARGETS.map(() => '---:').join('|')}|`,
  ];
  for (const name of names) {
    const of = (target: TTarget) => cells.find((cell) => cell.endpoint === name && cell.target === target);
    const lat = (target: TTarget) => {
      const cell = of(target);
      return cell ? `${cell.p50}/${cell.p99}${cell.bad ? ` (${cell.bad} non-2xx!)` : ''}` : '-';
    };
    lines.push(
      `| ${name} | ${TARGETS.map((t) => fmt(of(t)?.rps ?? NaN)).join(' | ')} | ${TARGETS.map(lat).join(' | ')} | ${TARGETS.map((t) => fmt(of(t)?.cpuUs ?? NaN)).join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

/** Our CPU per request on tRPC over REST, at most this (issue 15). */
const TRPC_REST_CPU_TARGET = 1.25;
const OURS = ['rest', 'trpc'] as const;

type TMeasure = (target: TTarget) => number;
/**
 * The ratio columns: req/s of each of our surfaces over each peer and the ceiling (above 1: ours answers
 * more), each peer's CPU per request over ours (above 1: ours spends less), and tRPC's CPU per request
 * over REST's (at most TRPC_REST_CPU_TARGET).
 */
const RATIO_COLUMNS: [string, (rps: TMeasure, cpu: TMeasure) => string][] = [
  ...OURS.flatMap((ours) =>
    PEERS.map((peer): [string, (rps: TMeasure, cpu: TMeasure) => string] => [
      `${ours}/${peer}`,
      (rps) => fmt(rps(ours) / rps(peer), 2),
    ]),
  ),
  ['rest/ceiling', (rps) => fmt(rps('rest') / rps('ceiling'), 2)],
  ...OURS.flatMap((ours) =>
    PEERS.map((peer): [string, (rps: TMeasure, cpu: TMeasure) => string] => [
      `CPU ${peer}/${ours}`,
      (_, cpu) => fmt(cpu(peer) / cpu(ours), 2),
    ]),
  ),
  [
    `CPU trpc/rest (≤ ${TRPC_REST_CPU_TARGET})`,
    (_, cpu) => {
      const ratio = cpu('trpc') / cpu('rest');
      return Number.isFinite(ratio) ? `${fmt(ratio, 2)} ${ratio <= TRPC_REST_CPU_TARGET ? '✓' : '✗'}` : '-';
    },
  ],
];

export function ratioTable(cells: TCell[], names: string[]): string {
  const lines = [
    `| endpoint | ${RATIO_COLUMNS.map(([title]) => title).join(' | ')} |`,
    `|---|${RATIO_COLUMNS.map(() => '---:').join('|')}|`,
  ];
  for (const name of names) {
    const of = (target: TTarget) => cells.find((cell) => cell.endpoint === name && cell.target === target);
    const rps = (target: TTarget) => of(target)?.rps ?? NaN;
    const cpu = (target: TTarget) => of(target)?.cpuUs ?? NaN;
    lines.push(`| ${name} | ${RATIO_COLUMNS.map(([, value]) => value(rps, cpu)).join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The batch cell against the single calls of the same reads: CPU per batch and BATCH_SIZE times the CPU per call. */
export function batchSummary(cells: TCell[]): string | undefined {
  const batch = cells.find((cell) => cell.endpoint === BATCH && cell.target === 'trpc');
  const single = cells.find((cell) => cell.endpoint === SINGLE && cell.target === 'trpc');
  if (!batch || !single) return undefined;
  const singles = single.cpuUs * BATCH_SIZE;
  return [
    `trpc batch of ${BATCH_SIZE} reads: ${fmt(batch.cpuUs)} µs CPU per batch (${fmt(batch.rps * BATCH_SIZE)} reads/s)`,
    `${BATCH_SIZE} single trpc reads of the same: ${BATCH_SIZE} x ${fmt(single.cpuUs)} = ${fmt(singles)} µs CPU (${fmt(single.rps)} reads/s)`,
    `batch / ${BATCH_SIZE} singles, CPU: ${fmt(batch.cpuUs / singles, 2)} (target below 1: ${batch.cpuUs < singles ? 'met' : 'not met'})`,
  ].join('\n');
}

/** Lines and size of a log file. */
export function logSize(file: string): string {
  if (!existsSync(file)) return 'none written';
  return `${linesFrom(file)} lines, ${fmt(statSync(file).size / 2 ** 20, 1)} MB`;
}
