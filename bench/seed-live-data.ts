/**
 * Measures the live-data demo seed (2 seasons x 2,016 war snapshots, campaigns, calendars) on a
 * fresh SQLite file, then the war history query of each range on the seeded data:
 * `npx tsx bench/seed-live-data.ts [runs]`. Not part of `npm test`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../db/client';
import { seedLiveData } from '../server/seed/live-data';
import { HISTORY_RANGES, warHistory } from '../server/domains/war/history';
import type { THistoryRange } from '../server/domains/war/schemas';

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 3);
  const timings: number[] = [];
  for (let run = 0; run < runs; run++) {
    const dir = mkdtempSync(join(tmpdir(), 'tidewatch-bench-'));
    // DATABASE_DRIVER=libsql measures the same through @libsql/client.
    const database = openDatabase(`file:${join(dir, 'bench.db')}`, {
      driver: process.env.DATABASE_DRIVER === 'libsql' ? 'libsql' : undefined,
    });
    await database.migrate();
    const stats = await seedLiveData({ db: database.db, now: () => new Date() });
    timings.push(stats.ms);
    console.log(
      `run ${run + 1}: ${stats.ms} ms (${stats.snapshots} snapshots, ${stats.campaigns} campaigns, ${stats.calendarEvents} calendar events)`,
    );
    if (run === 0) {
      for (const range of Object.keys(HISTORY_RANGES) as THistoryRange[]) {
        const samples: number[] = [];
        for (let i = 0; i < 30; i++) {
          const started = performance.now();
          await warHistory({ db: database.db, now: () => new Date() }, { range });
          samples.push(performance.now() - started);
        }
        samples.sort((a, b) => a - b);
        console.log(`  history ${range}: median ${samples[15]!.toFixed(1)} ms over 30 calls`);
      }
    }
    database.close();
    rmSync(dir, { recursive: true, force: true });
  }
  timings.sort((a, b) => a - b);
  console.log(`median ${timings[Math.floor(timings.length / 2)]} ms over ${runs} runs`);
}

void main();
