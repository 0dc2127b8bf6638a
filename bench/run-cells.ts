/**
 * The cells of bench/run.ts: each benchmarked endpoint, how its i-th request looks on the REST and
 * tRPC surfaces (rotating over generated assemblies, searches and users), and the two tRPC-only cells
 * (a batch of reads and the same reads one per request).
 */
import { BENCH_PASSWORD, WORDS } from './generate';
import type { TTarget } from './run-args';
import { benchPublicAssemblyUuid, benchSearchInput, queryString } from './workload';

export interface TRequestSpec {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** One benchmarked endpoint: how to build the i-th request on each surface. */
export interface TEndpoint {
  name: string;
  /** How many distinct requests it cycles through (1: always the same). */
  variants: number;
  /** The REST request, also what the peers and the ceiling answer; none for a tRPC-only cell (run on trpc alone). */
  rest?(i: number): TRequestSpec;
  trpc(i: number): TRequestSpec;
  connections?: number;
  /** Seconds of load at least (slow endpoints need more than a few requests for a p99). */
  minDuration?: number;
}

const trpcGet = (path: string, input: unknown): TRequestSpec => ({
  method: 'GET',
  path: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`,
});

/** tRPC's batched GET: the procedures joined by commas, the inputs (superjson's wire form) keyed by their position. */
const trpcBatchGet = (reads: [string, unknown][]): TRequestSpec => ({
  method: 'GET',
  path: `/trpc/${reads.map(([path]) => path).join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(Object.fromEntries(reads.map(([, input], k) => [k, { json: input }]))))}`,
});

/** How many reads one `trpc batch` request carries. */
export const BATCH_SIZE = 10;
/** Hot assemblies the batched reads rotate over (as the hot item cell: stored answers for ours). */
const BATCH_HOT_ITEMS = 100;

/**
 * The reads of the n-th batch, mixed as a page load asks them: two list pages, the drop, the war state
 * and a day of its history, and five popular assemblies (five new ones in each batch, over 100).
 */
function batchReads(n: number, assemblyCount: number): [string, unknown][] {
  const item = (k: number): [string, unknown] => [
    'assembly.getItem',
    { uuid: benchPublicAssemblyUuid((n * 5 + k) % BATCH_HOT_ITEMS, assemblyCount) },
  ];
  return [
    ['assembly.list', { page: 1, pageSize: 20 }],
    ['drop.getCurrent', {}],
    ['war.getLatest', {}],
    ['war.getHistory', { range: '1d' }],
    ['assembly.list', { page: 2, pageSize: 20 }],
    ...[0, 1, 2, 3, 4].map(item),
  ];
}

export function endpoints(assemblyCount: number, userCount: number): TEndpoint[] {
  const itemEndpoint = (name: string, variants: number): TEndpoint => ({
    name,
    variants,
    rest: (i) => ({
      method: 'GET',
      path: `/api/assembly/item?${queryString({ uuid: benchPublicAssemblyUuid(i, assemblyCount) })}`,
    }),
    trpc: (i) => trpcGet('assembly.getItem', { uuid: benchPublicAssemblyUuid(i, assemblyCount) }),
  });
  const signinBody = (i: number) => ({ username: `sailor${(i * 31) % userCount}`, password: BENCH_PASSWORD });
  return [
    {
      name: 'list',
      variants: 1,
      rest: () => ({ method: 'GET', path: `/api/assembly/list?${queryString({ page: 1, pageSize: 20 })}` }),
      trpc: () => trpcGet('assembly.list', { page: 1, pageSize: 20 }),
    },
    {
      name: 'search',
      variants: WORDS.length * WORDS.length * 3,
      // Uncached searches over a million rows take far longer than a cached read: more connections only queue.
      connections: 2,
      minDuration: 10,
      rest: (i) => ({ method: 'GET', path: `/api/assembly/list?${queryString(benchSearchInput(i))}` }),
      trpc: (i) => trpcGet('assembly.list', benchSearchInput(i)),
    },
    // 5,000 assemblies, more than the read cache's 2,000 entries: nearly every read is a miss, as for a cold catalogue.
    itemEndpoint('item', 5000),
    // Popular loadouts: 100 assemblies read over and over, stored answers for ours (each read still counts a view); the peer has no cache.
    itemEndpoint('hot item', 100),
    {
      name: 'drop current',
      variants: 1,
      rest: () => ({ method: 'GET', path: '/api/drop/current' }),
      trpc: () => trpcGet('drop.getCurrent', {}),
    },
    {
      name: 'war latest',
      variants: 1,
      rest: () => ({ method: 'GET', path: '/api/stateOfWar/latest' }),
      trpc: () => trpcGet('war.getLatest', {}),
    },
    {
      name: 'war history 7d',
      variants: 1,
      rest: () => ({ method: 'GET', path: '/api/stateOfWar/history?range=7d' }),
      trpc: () => trpcGet('war.getHistory', { range: '7d' }),
    },
    {
      name: 'sign-in',
      variants: 1000,
      // Argon2id (19 MiB, 2 passes) dominates: a few connections saturate the CPU.
      connections: 4,
      rest: (i) => ({ method: 'POST', path: '/api/user/signin', body: JSON.stringify(signinBody(i)) }),
      trpc: (i) => ({ method: 'POST', path: '/trpc/user.signin', body: JSON.stringify({ json: signinBody(i) }) }),
    },
    // tRPC only: the same ten reads in one batched request, and one per request (CPU per batch against 10x CPU per call).
    {
      name: BATCH,
      variants: BATCH_HOT_ITEMS / 5,
      trpc: (i) => trpcBatchGet(batchReads(i, assemblyCount)),
    },
    {
      name: SINGLE,
      variants: (BATCH_HOT_ITEMS / 5) * BATCH_SIZE,
      trpc: (i) => trpcGet(...batchReads(Math.floor(i / BATCH_SIZE), assemblyCount)[i % BATCH_SIZE]!),
    },
  ];
}

export const BATCH = 'trpc batch';
export const SINGLE = 'trpc single';

/** Which of the selected targets a cell runs on: a tRPC-only cell on trpc alone. */
export function targetsOf(endpoint: TEndpoint, selected: TTarget[]): TTarget[] {
  return endpoint.rest ? selected : selected.filter((target) => target === 'trpc');
}

export function requestFor(endpoint: TEndpoint, target: TTarget, i: number): TRequestSpec {
  return target === 'trpc' || !endpoint.rest ? endpoint.trpc(i) : endpoint.rest(i);
}
