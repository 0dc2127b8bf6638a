/** What the one-request-at-a-time benchmarks (nearby.ts, worst-case.ts) print: latency quantiles in ms, the machine and its load average. */
import { cpus, loadavg, totalmem } from 'node:os';

/** The `q` quantile (0.5: the median) of `samples`, NaN when there are none. */
export function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;
}

/** A latency in ms: two decimals below 10 ms, one above. */
export const formatMs = (ms: number) => ms.toFixed(ms < 10 ? 2 : 1);

/** The three load averages, two decimals each, separated by spaces. */
export const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** The machine: cores and model, memory, node version. */
export const machineLine = () =>
  `machine: ${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}`;
