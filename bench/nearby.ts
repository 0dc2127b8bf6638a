/**
 * Issue 31: the nearby search over 1,000,000 map points, most of them private (not part of `npm test`):
 *
 *   npx tsx bench/nearby.ts <database file> [--points 1000000] [--requests 200] [--before-requests 20] [--seconds 10] [--clients 4] [--fresh]
 *
 * The file is filled once (again with --fresh), straight into the database (db/bulk.ts), 10,000 points
 * per owner (the per-user limit):
 * - the issue's layout: 5 owners' 50,000 private points 50 to 150 km from the spot (10.5, 20.05),
 *   which holds 2 public points;
 * - 45,000 public points: 40,000 over the globe, 5,000 within 20 km of (-30, 100) (past the cap);
 * - the rest private, in the latitude band of the spot's 500 km box (5° to 16°) round the globe;
 * - the signed-in caller: 500 points of its own and 10 private collections of 100 points shared with
 *   it, all within 300 km of the spot.
 * Half of each kind sits in collections of up to 1,000 points, half are orphans.
 *
 * It then times the statement alone in this process, before (the statement of the previous release,
 * on its index map_points_place, made for the measurement and dropped after) and now, on the same
 * file; then starts the production server as bench/worst-case.ts does and asks over HTTP one request
 * at a time (p50, p99), and finally probes /api/health every 10 ms while `--clients` clients ask
 * nearby back to back. Prints the machine and its load average before and after.
 */
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client';
import { overHttp } from './nearby-http';
import { CALLER_ID, fill } from './nearby-layout';
import { statementTimes } from './nearby-statements';
import { loadAverage, machineLine } from './timing-report';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    points: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '200' },
    'before-requests': { type: 'string', default: '20' },
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '4' },
    port: { type: 'string', default: '3931' },
    fresh: { type: 'boolean', default: false },
  },
});
const file = positionals[0] && resolve(positionals[0]);
if (!file)
  throw new Error(
    'usage: npx tsx bench/nearby.ts <database file> [--points 1000000] [--requests 200] [--before-requests 20] [--seconds 10] [--clients 4] [--fresh]',
  );
const POINTS = Number(values.points);
const REQUESTS = Number(values.requests);
/** The previous statement takes up to seconds a request here: fewer of them. */
const BEFORE_REQUESTS = Number(values['before-requests']);

async function main(file: string): Promise<void> {
  console.log(machineLine());
  console.log(`load average at the start: ${loadAverage()}`);
  if (values.fresh) for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  const fresh = !existsSync(file);
  const database = openDatabase(`file:${file}`);
  try {
    await database.migrate();
    if (fresh) {
      const started = performance.now();
      await fill(database.db, POINTS);
      console.log(`filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const counts = await database.db.get<{ points: number; readable: number }>(
      sql`SELECT count(*) AS points, sum(readable_by_anyone) AS readable FROM map_points`,
    );
    console.log(`database: ${counts?.points} points, ${counts?.readable} of them readable by anyone`);
    await statementTimes(file, database.db, CALLER_ID, REQUESTS, BEFORE_REQUESTS);
  } finally {
    database.close();
  }
  await overHttp({
    file,
    port: Number(values.port),
    requests: REQUESTS,
    seconds: Number(values.seconds),
    clients: Number(values.clients),
  });
  console.log(`\nload average at the end: ${loadAverage()}`);
}

await main(file);
