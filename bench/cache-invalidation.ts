/**
 * What a write's cache invalidations cost with the shared LRU full (not part of `npm test`):
 *
 *   npx tsx bench/cache-invalidation.ts [--entries 2000] [--rounds 5]
 *
 * A like, an edit or a rating drops its assembly's entry with its stored answers
 * (CacheScope.invalidate: a key and the prefix `<scope><uuid>|`) and the whole list scope
 * (invalidateAll: the prefix `assembly:list:`); every other instance does the same when the message
 * arrives. The LRU is filled as server/app.ts makes it (2,000 entries) with item entries, their stored
 * answers and 20 list pages, then each write's drops are timed on a cache with the key groups
 * (CACHE_KEY_GROUPS, indexed) and on one without (a walk of every key per prefix), in alternating
 * rounds, each refilled to the same keys. Prints µs per write for both and their ratio, and the load.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { CACHE_KEY_GROUPS, createCaches } from '../server/infra/cache';
import { MemoryReadCache } from '../server/infra/cache/read-cache';
import { localBus } from '../server/infra/redis/invalidation';

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const entries = option('entries', 2000);
const rounds = option('rounds', 5);
const writesPerRound = 2000;

/**
 * The keys of a full LRU: item entries with their stored answers, and 20 list pages (the pages read
 * since the last write: every write drops them all, so few are held at any time).
 */
const listPages = Array.from({ length: 20 }, (_, page) => `assembly:list:page=${page + 1}&pageSize=20|rest`);
const uuids = Array.from({ length: Math.ceil((entries - listPages.length) / 2) }, () => randomUUID());
const keys = [
  ...uuids.flatMap((uuid) => [`assembly:item:${uuid}`, `assembly:item:${uuid}|rest|/api/assembly/item?uuid=${uuid}`]),
  ...listPages,
].slice(-entries);

function filledCaches(grouped: boolean) {
  const lru = new MemoryReadCache({
    maxEntries: entries,
    ttlMs: 3_600_000,
    ...(grouped && { groups: CACHE_KEY_GROUPS }),
  });
  const caches = createCaches(lru, localBus);
  return { lru, caches };
}

/** µs per write: its assembly's drop and the list scope's, the LRU refilled between writes untimed. */
async function timeWrites(grouped: boolean): Promise<number> {
  const { lru, caches } = filledCaches(grouped);
  let spentNs = 0n;
  for (let write = 0; write < writesPerRound; write++) {
    for (const key of keys) if (lru.get(key) === undefined) lru.set(key, write);
    const started = process.hrtime.bigint();
    await caches.item.invalidate(uuids[write % uuids.length]!);
    await caches.list.invalidateAll();
    spentNs += process.hrtime.bigint() - started;
  }
  return Number(spentNs) / writesPerRound / 1000;
}

console.log(
  `${entries} entries, ${rounds} rounds of ${writesPerRound} writes each way, load ${loadavg()[0]!.toFixed(2)}`,
);
const walked: number[] = [];
const indexed: number[] = [];
for (let round = 1; round <= rounds; round++) {
  walked.push(await timeWrites(false));
  indexed.push(await timeWrites(true));
  console.log(
    `round ${round}: walking ${walked.at(-1)!.toFixed(1)} µs, indexed ${indexed.at(-1)!.toFixed(1)} µs a write`,
  );
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(
  `median: walking ${median(walked).toFixed(1)} µs, indexed ${median(indexed).toFixed(1)} µs a write (x${(median(walked) / median(indexed)).toFixed(0)}), load ${loadavg()[0]!.toFixed(2)}`,
);
