/**
 * What the benchmarks ask of a generated database (bench/generate.ts): which assemblies and searches
 * the rotating cells use, shared by bench/run.ts and bench/profile.ts.
 */
import Database from 'better-sqlite3';
import { benchUuid, WORDS } from './generate';

/** The i-th of the public generated assemblies (every 20th one is private), spread over all `total`. */
export function benchPublicAssemblyUuid(i: number, total: number): string {
  return benchUuid(2, ((i * 7919) % Math.floor(total / 20)) * 20 + 1 + (i % 19));
}

/** Two-word keywords over 3 pages: 3,888 distinct searches, more than the read cache holds (2,000), so none is a hit. */
export function benchSearchInput(i: number): { keyword: string; page: number; pageSize: number } {
  const pair = i % (WORDS.length * WORDS.length);
  return {
    keyword: `${WORDS[pair % WORDS.length]} ${WORDS[Math.floor(pair / WORDS.length)]}`,
    page: 1 + (Math.floor(i / (WORDS.length * WORDS.length)) % 3),
    pageSize: 20,
  };
}

/**
 * The `i`-th request of a path template, as the rotating cells ask: `{uuid}` is one of `rotation` public
 * assemblies (5,000: the item cell; 100: the hot item cell), `{trpcuuid}` the same as a tRPC input
 * (`{"json":{"uuid":...}}`, encoded), `{search}` the search cell's keyword query, `{trpcsearch}` the same as a
 * tRPC input.
 */
export function rotatingPath(template: string, i: number, assemblyCount: number, rotation = 5000): string {
  return template
    .replace('{uuid}', () => benchPublicAssemblyUuid(i % rotation, assemblyCount))
    .replace('{trpcuuid}', () =>
      encodeURIComponent(JSON.stringify({ json: { uuid: benchPublicAssemblyUuid(i % rotation, assemblyCount) } })),
    )
    .replace('{search}', () => queryString(benchSearchInput(i)))
    .replace('{trpcsearch}', () => encodeURIComponent(JSON.stringify({ json: benchSearchInput(i) })));
}

export function queryString(params: Record<string, string | number>): string {
  return new URLSearchParams(
    Object.entries(params).map(([key, value]): [string, string] => [key, String(value)]),
  ).toString();
}

/** How many assemblies and generated users a database holds. */
export function readBenchCounts(db: string): { assemblies: number; users: number } {
  // Opened read-only through the peer's driver: the benchmark must not depend on our code to read its inputs.
  const client = new Database(db, { readonly: true });
  try {
    const assemblies = (client.prepare('select count(*) as n from assemblies').get() as { n: number }).n;
    const users = (
      client.prepare("select count(*) as n from users where username like 'sailor%'").get() as { n: number }
    ).n;
    return { assemblies, users };
  } finally {
    client.close();
  }
}
