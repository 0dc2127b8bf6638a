/**
 * The shared set-up of the hostile-input suites (hostile-input*.test.ts): a test server with the
 * demo catalog, a published assembly, a map collection and point, a user and an admin, the endpoints
 * of the OpenAPI document; the nasty values fuzzed into them; sending one input on REST and its
 * procedure over native tRPC (test/support/surface-trpc.ts), never a 500 and always in the surface's
 * format; and the digest of the whole database that proves a refused write left it exactly as it was.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { perDatabase } from '../../db/prepared';
import type { TDb } from '../../db/types';
import { setRole } from '../../server/domains/user/account';
import { readDemoCatalog } from '../../server/seed/assemblies';
import { DEMO_SUBSCRIPTION_CATALOG } from '../../server/seed/subscription';
import { startTestServer, type TTestServer } from '../support/helpers';
import { documentOperations, type TDocumentOperation } from '../support/openapi-operations';
import { skippedUnderSqld } from '../support/sqld';
import { suite } from '../support/suite';
import type { Findings, TLabel } from '../support/surface-compare';
import { TrpcSurface, type TLink } from '../support/surface-trpc';
import { restCall, type TAnswer, type TCase, type TSurface } from '../support/surfaces';

interface TTally {
  inputs: number;
  requests: Record<TSurface, number>;
  refusedWrites: Record<TSurface, number>;
  endpoints: number;
}

export type TOperation = TDocumentOperation;

export const HUGE = 'A'.repeat(100_000);
export const DEEP = JSON.parse('['.repeat(1500) + ']'.repeat(1500));
export const NASTY_STRINGS = [
  '',
  ' ',
  HUGE,
  '🏴‍☠️⚓️🌊',
  'مرحبا\u202Eevil',
  'nul\u0000byte',
  "' OR '1'='1' --",
  "'; DROP TABLE users; --",
  '" AND (',
  'NEAR(a b) OR * ^',
  '{"$ne": null}',
  '__proto__',
  '../../../etc/passwd',
  '%00%ff',
  '<script>alert(1)</script>',
  '-1',
  '1e309',
  '9007199254740993',
  'true',
  'null',
];
export const NASTY_VALUES: unknown[] = [
  ...NASTY_STRINGS,
  0,
  -1,
  -1e308,
  1e308,
  2 ** 53 + 1,
  0.5,
  true,
  false,
  null,
  [],
  [1, 'two', null],
  {},
  { __proto__: { polluted: true } },
  { constructor: { prototype: { polluted: true } } },
  DEEP,
];

export interface THostile {
  app: TTestServer;
  trpc: TrpcSurface;
  operations: TOperation[];
  userToken: string;
  adminToken: string;
  tally: TTally;
}

/**
 * A suite of hostile inputs: its own test server, set up as above, stopped after it with a tally of
 * what was sent. Its `run` skips the suite under TEST_DATABASE=sqld: its database digest after every
 * fuzzed write is ~40 queries; over HTTP that is 100,000+ round trips.
 */
export function hostileSuite(name: string) {
  const hostile = suite<THostile>(name);
  hostile.before(async (context) => {
    const app = await startTestServer();
    context.app = app;
    context.trpc = new TrpcSurface(app);
    // Importing the community data set (accepted for an empty body) makes the database about forty times
    // larger (its codex and catalog), and the digest after every write reads all of it: fuzzed last, so
    // the writes before it are checked against a small database.
    const operations = documentOperations((await app.rest('GET', '/api/openapi.json')).body);
    const growsTheDatabase = (operation: TOperation) => operation.key === 'POST /admin/community-data/import';
    context.operations = [
      ...operations.filter((operation) => !growsTheDatabase(operation)),
      ...operations.filter(growsTheDatabase),
    ];
    const user = await app.signUp();
    const admin = await app.signUp();
    await setRole({ db: app.database.db }, { username: admin.username, role: 'admin' });
    context.userToken = user.token;
    context.adminToken = admin.token;
    await app.rest('POST', '/api/admin/catalog/import', {
      token: admin.token,
      body: readDemoCatalog() as Record<string, unknown>,
    });
    await app.rest('POST', '/api/admin/subscription/import', {
      token: admin.token,
      body: DEMO_SUBSCRIPTION_CATALOG as unknown as Record<string, unknown>,
    });
    await app.rest('POST', '/api/assembly/publish', {
      token: user.token,
      body: { name: 'Fuzz target', shipId: 'cutter', weapons: [{ slot: 'frontWeapon', itemId: 'culverin1' }] },
    });
    // The digest sees a write, down to one field of one row, and only the content counts: the checks
    // of refused writes (WriteWatch) rest on it.
    const before = await fingerprint(app);
    await app.rest('POST', '/api/map/collection', { token: user.token, body: { title: 'Fuzz map' } });
    const after = await fingerprint(app);
    assert.is.not(after, before, 'a write changes the digest');
    await app.database.db.run(sql`update map_collections set title = 'Fuzz map!' where title = 'Fuzz map'`);
    assert.is.not(await fingerprint(app), after, 'one field of one row');
    await app.database.db.run(sql`update map_collections set title = 'Fuzz map' where title = 'Fuzz map!'`);
    assert.is(await fingerprint(app), after, 'the same content, the same digest');
    await app.rest('POST', '/api/map/point', {
      token: user.token,
      body: { title: 'Fuzz point', latitude: 0.6, longitude: -0.6, public: 1 },
    });
    context.tally = { inputs: 0, requests: { REST: 0, tRPC: 0 }, refusedWrites: { REST: 0, tRPC: 0 }, endpoints: 0 };
  });
  hostile.after(async ({ app, trpc, tally }) => {
    console.log(
      `      hostile input: ${tally.endpoints} endpoints, ${tally.inputs} inputs; REST ${tally.requests.REST} requests, ` +
        `tRPC ${tally.requests.tRPC} calls in ${trpc.requests} HTTP requests (${trpc.rawCalls} as raw wire requests: inputs the superjson client refuses); ` +
        `refused writes verified to change nothing: ` +
        `REST ${tally.refusedWrites.REST}, tRPC ${tally.refusedWrites.tRPC}`,
    );
    await app.stop();
  });
  const runSuite = hostile.run;
  return Object.assign(hostile, {
    run: () => {
      const reason =
        'its database digest after every fuzzed write is ~40 queries; over HTTP that is 100,000+ round trips (the suite runs on both file drivers)';
      if (!skippedUnderSqld(name, reason)) runSuite();
    },
  });
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * One prepared query that reads the whole database: per table, every row as its quoted values, the
 * rows sorted (so a row's place, such as a rowid given anew, does not count). Built once per database
 * (perDatabase): the schema does not change during the suite. The fingerprint is taken after every
 * write request, and preparing a statement per table each time was most of the suite's time.
 */
async function digestQueryOf(db: TDb) {
  const tables = await db.all<{ name: string }>(
    sql`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const columns = await db.all<{ name: string }>(sql.raw(`select name from pragma_table_info(${literal(name)})`));
    const row = columns.map((column) => `quote(${quoted(column.name)})`).join(` || ',' || `);
    parts.push(
      `${literal(name)}, (select group_concat(row, char(10)) from (select ${row} as row from ${quoted(name)} order by row))`,
    );
  }
  return db
    .select({ tables: sql<string>`json_array(${sql.raw(parts.join(',\n'))})` })
    .from(sql`(select 1)`)
    .prepare();
}

/** A digest of every row of every table: equal digests mean an unchanged database. */
async function fingerprint(app: TTestServer): Promise<string> {
  const query = await perDatabase(app.database.db, 'hostile-input:digest', digestQueryOf);
  const [row] = await query.all();
  return createHash('sha1').update(row!.tables).digest('hex');
}

export function refused(answer: TAnswer): boolean {
  return !(answer.status !== undefined && answer.status < 400);
}

/**
 * Watches the writes of one endpoint, sent one request after another: the fingerprint taken after a
 * request is the one before the next. When every call of a request is refused (one call, or a batch
 * of them), the database must be exactly as it was before it.
 */
export class WriteWatch {
  private last: string | undefined;

  constructor(
    private readonly context: THostile,
    private readonly findings: Findings,
  ) {}

  async run(label: TLabel, surface: TSurface, send: () => Promise<TAnswer[]>): Promise<TAnswer[]> {
    const before = this.last ?? (await fingerprint(this.context.app));
    const answers = await send();
    this.last = await fingerprint(this.context.app);
    if (answers.every(refused)) {
      this.findings.expect(
        this.last === before,
        label,
        `refused write${answers.length > 1 ? 's (one batch)' : ''} changed the database on ${surface}`,
      );
      this.context.tally.refusedWrites[surface] += answers.length;
    }
    return answers;
  }
}

/** Endpoints whose success would end the session the fuzzer uses: fuzzed anonymously. */
const ANONYMOUS_ONLY = new Set(['POST /user/signout', 'POST /user/password', 'PUT /user/changePassword']);

function tokenFor(context: THostile, operation: TOperation): string | undefined {
  if (ANONYMOUS_ONLY.has(operation.key)) return undefined;
  return operation.path.startsWith('/admin/') ? context.adminToken : context.userToken;
}

/** A case REST sends; `rawBody`, when set, goes verbatim as the JSON body (REST only). */
export interface TInput extends TCase {
  path: Record<string, string>;
  rawBody?: string;
}

export function labelOf(operation: TOperation, surface: TSurface, input: unknown): () => string {
  return () => `${operation.key} on ${surface} ${(JSON.stringify(input) ?? 'no input').slice(0, 160)}`;
}

/** Never a 500, always the surface's format. */
function checkAnswer(findings: Findings, label: TLabel, answer: TAnswer): void {
  findings.expect(
    answer.status === undefined || answer.status < 500,
    label,
    `${answer.status} ${answer.text.slice(0, 200)}`,
  );
  findings.add(label, answer.malformed);
}

export async function sendRest(
  context: THostile,
  findings: Findings,
  watch: WriteWatch,
  operation: TOperation,
  input: TInput,
): Promise<TAnswer> {
  const label = labelOf(operation, 'REST', input);
  const send = async () => [await restCall(context.app, operation, tokenFor(context, operation), input, 'x')];
  const [answer] = operation.method === 'GET' ? await send() : await watch.run(label, 'REST', send);
  context.tally.requests.REST++;
  checkAnswer(findings, label, answer!);
  return answer!;
}

/**
 * Sends procedure inputs over tRPC, in order: through httpBatchLink in batches (one request each, one
 * fingerprint around each batch of writes), or one by one through httpLink.
 */
export async function sendTrpc(
  context: THostile,
  findings: Findings,
  watch: WriteWatch,
  operation: TOperation,
  inputs: unknown[],
  link: TLink,
): Promise<TAnswer[]> {
  const token = tokenFor(context, operation);
  const answers: TAnswer[] = [];
  for (const group of link === 'httpBatchLink'
    ? batches(inputs, context.trpc.maxBatchSize)
    : inputs.map((input) => [input])) {
    const send = () => Promise.all(group.map((input) => context.trpc.callInput(operation, token, input, link)));
    const label = labelOf(operation, 'tRPC', group.length > 1 ? { batch: group } : group[0]);
    answers.push(...(operation.method === 'GET' ? await send() : await watch.run(label, 'tRPC', send)));
  }
  context.tally.requests.tRPC += inputs.length;
  for (const [index, answer] of answers.entries())
    checkAnswer(findings, labelOf(operation, 'tRPC', inputs[index]), answer);
  return answers;
}

/** Batches of at most `maxItems` calls and 256 KiB of input, each one request far below the body limit. */
function batches(inputs: unknown[], maxItems: number): unknown[][] {
  const groups: unknown[][] = [];
  let size = Infinity;
  for (const input of inputs) {
    const bytes = (JSON.stringify(input) ?? '').length;
    const current = groups.at(-1);
    if (!current || current.length >= maxItems || size + bytes > 256 * 1024) {
      groups.push([input]);
      size = bytes;
    } else {
      current.push(input);
      size += bytes;
    }
  }
  return groups;
}
