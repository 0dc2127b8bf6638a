/**
 * Service-level query timings, no HTTP, no read cache (not part of `npm test`):
 *
 *   npx tsx bench/queries.ts <database file> [runs=100]
 *
 * The latency targets of keyword search and war history are about the query, so they are measured
 * here uncached; bench/run.ts measures the same endpoints over HTTP under load.
 */
import { openDatabase } from '../db/client';
import { listAssemblies } from '../server/domains/assembly/list';
import { CacheScope, scopePrefix } from '../server/infra/cache';
import { MemoryReadCache } from '../server/infra/cache/read-cache';
import { latestState } from '../server/domains/war/state';
import { warHistory } from '../server/domains/war/history';
import { WORDS } from './generate';

const [file, runsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: npx tsx bench/queries.ts <database file> [runs]');
const runs = Number(runsArg ?? 100);
const database = openDatabase(`file:${file}`);
const { db } = database;
// The file may predate the latest migrations (e.g. 0010's FTS5 prefix indexes): apply them, as the server would.
await database.migrate();
const noCache = {
  db,
  caches: { list: new CacheScope(new MemoryReadCache({ maxEntries: 1, ttlMs: 0 }), scopePrefix('list')) },
};
const now = new Date();

async function time(label: string, work: (i: number) => Promise<unknown>): Promise<void> {
  const warm = performance.now();
  await work(0);
  // A query that takes seconds (keyword search before issue 7) gets a few runs, not a hundred.
  const count = performance.now() - warm > 250 ? Math.min(runs, 10) : runs;
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await work(i);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * q))]!.toFixed(2);
  console.log(`${label.padEnd(48)} p50 ${at(0.5).padStart(8)} ms  p99 ${at(0.99).padStart(8)} ms  (${count} runs)`);
}

const search = (keyword: string, extra: { shipType?: string; sort?: 'latest' | 'hottest' | 'rating' } = {}) =>
  listAssemblies(noCache, {
    page: 1,
    pageSize: 20,
    sort: extra.sort ?? 'latest',
    order: 'desc',
    keyword,
    shipType: extra.shipType,
  });
const twoWords = (i: number) => `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]}`;
try {
  await time('search, two common words (~0.8% of rows)', (i) => search(twoWords(i)));
  await time('search, one common word (~10% of rows)', (i) => search(WORDS[i % WORDS.length]!));
  await time('search, one letter (the first keystroke)', (i) => search(WORDS[i % WORDS.length]!.slice(0, 1)));
  await time('search, two words of three letters each', (i) =>
    search(
      twoWords(i)
        .split(' ')
        .map((word) => word.slice(0, 3))
        .join(' '),
    ),
  );
  await time('search, a word plus a number (a handful)', (i) =>
    search(`${WORDS[i % WORDS.length]} ${((i * 7919) % 900_000) + 1}`),
  );
  await time('search, one common word + shipType=tank', (i) => search(WORDS[i % WORDS.length]!, { shipType: 'tank' }));
  await time('search, two common words, sort=hottest', (i) => search(twoWords(i), { sort: 'hottest' }));
  await time('search, one common word, sort=hottest', (i) => search(WORDS[i % WORDS.length]!, { sort: 'hottest' }));
  await time('list page 1, uncached', () =>
    listAssemblies(noCache, { page: 1, pageSize: 20, sort: 'latest', order: 'desc' }),
  );
  const cold = performance.now();
  await warHistory({ db, now: () => now }, { range: '7d' });
  console.log(`${'war history 7d, first call (computed)'.padEnd(48)} ${(performance.now() - cold).toFixed(2)} ms`);
  await time('war latest', () => latestState({ db, now: () => now }));
  await time('war history 7d (memo after the first call)', () => warHistory({ db, now: () => now }, { range: '7d' }));
} finally {
  database.close();
}
