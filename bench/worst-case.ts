/**
 * Worst-case list and search requests against our production server (not part of `npm test`):
 *
 *   npx tsx bench/worst-case.ts <database file> [--requests 100] [--warm-up 10] [--seconds 10] [--clients 4] [--json <file>]
 *
 * Issue 16: one anonymous request could stall the server for seconds (a deep page of sort=hottest
 * sorted every listable row), and every page number was a new cache miss. This drives the server as
 * bench/run.ts does (the production build of scripts/build.ts with the heap flags, NODE_ENV=production,
 * LOG_LEVEL=silent, the per-client limit raised) and asks, one at a time, what costs the most: the
 * deepest reachable page of each sort, with and without a shipType (common, single-hull, no hull at
 * all), both orders, date ranges at the end of their cap, and the costliest searches (one letter or two common words sorted hottest or by rating at
 * the last page of the search cap, a common word with a hull class). Every request of a case is a
 * different page window, so none is a read-cache hit (the runner counts answers carrying `Age`, which
 * only stored answers have). Then `--clients` clients send such requests back to back for
 * `--seconds` while one more asks /api/health in a loop: health's p99 is what any other user waits.
 * Prints the machine and its load average before and after.
 */
import { writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildDist } from '../scripts/build';
import { startTarget, stop, waitFor } from './processes';
import { loadAverage, machineLine, quantile } from './timing-report';
import { readBenchCounts } from './workload';
import { BEYOND, LIST_CASES, RANGE_CASES, SEARCH_CASES } from './worst-case-cases';
import { oneAtATime, underLoad } from './worst-case-phases';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    requests: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '4' },
    port: { type: 'string', default: '3917' },
    'warm-up': { type: 'string', default: '10' },
    json: { type: 'string' },
  },
});
const db = positionals[0];
if (!db)
  throw new Error(
    'usage: npx tsx bench/worst-case.ts <database file> [--requests 100] [--seconds 10] [--clients 4] [--json <file>]',
  );
const REQUESTS = Number(values.requests);
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const PORT = Number(values.port);
/** Untimed requests per case first: the first reads of an index after start-up (or a migration) come from disk. */
const WARM_UP = Number(values['warm-up']);
const BASE = `http://127.0.0.1:${PORT}`;

async function main(db: string): Promise<void> {
  const counts = readBenchCounts(db);
  console.log(machineLine());
  console.log(`load average at the start: ${loadAverage()}`);
  console.log(
    `database: ${counts.assemblies} assemblies; ${REQUESTS} requests per case, one at a time; then ${CLIENTS} clients for ${SECONDS} s`,
  );

  // Its own build directory: bench/run.ts builds into bench/.build and may be running.
  const { outdir } = await buildDist(join(tmpdir(), 'tidewatch-worst-case-build'));
  const started = performance.now();
  const child = startTarget('ours', join(outdir, 'main.js'), resolve(db), PORT, 'silent');
  try {
    await waitFor(`${BASE}/api/health`, false, 600_000);
    console.log(
      `server healthy after ${((performance.now() - started) / 1000).toFixed(1)} s (includes any pending migration)`,
    );

    const rows = await oneAtATime(BASE, [...LIST_CASES, ...RANGE_CASES, ...SEARCH_CASES, BEYOND], REQUESTS, WARM_UP);
    const { health, healthFailed, stored, loadLatencies, loadFailed, serverCpuUs } = await underLoad(
      BASE,
      child.pid!,
      REQUESTS,
      SECONDS,
      CLIENTS,
    );
    console.log(`load average at the end: ${loadAverage()}`);
    if (values.json) {
      writeFileSync(
        values.json,
        JSON.stringify(
          {
            at: new Date().toISOString(),
            assemblies: counts.assemblies,
            requests: REQUESTS,
            rows,
            health: {
              p50: quantile(health, 0.5),
              p99: quantile(health, 0.99),
              probes: health.length,
              failed: healthFailed,
            },
            stored: { p50: quantile(stored, 0.5), p99: quantile(stored, 0.99) },
            load: {
              requests: loadLatencies.length,
              p50: quantile(loadLatencies, 0.5),
              p99: quantile(loadLatencies, 0.99),
              failed: loadFailed,
              serverCpuUs,
            },
            loadAverage: loadavg(),
          },
          null,
          2,
        ),
      );
    }
  } finally {
    await stop(child);
  }
}

await main(db);
