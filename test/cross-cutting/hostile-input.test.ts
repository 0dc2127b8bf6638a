/**
 * Hostile input, generated from the OpenAPI document and run on both surfaces: every endpoint gets
 * wrong types, huge strings, unicode, injection strings, deep nesting, extreme numbers, missing and
 * extra fields, plus property-based random JSON (fast-check), on REST and on its procedure over native
 * tRPC (test/support/surfaces.ts); tRPC also gets typed values REST cannot carry in a query, and the abuse of
 * its own protocol (malformed ?input=, bodies not superjson, wrong methods, unknown paths, oversized
 * bodies). Not one 500, every answer in its surface's format (the envelope, tRPC's error shape), the
 * same answer on both surfaces to the same input, and a write that is refused leaves the database
 * exactly as it was.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { perDatabase } from '../../db/prepared';
import type { TDb } from '../../db/types';
import { readDemoCatalog } from '../../server/seed/assemblies';
import { DEMO_SUBSCRIPTION_CATALOG } from '../../server/seed/subscription';
import { setRole } from '../../server/domains/user/account';
import { BODY_LIMIT_BYTES } from '../../server/rest/body';
import { normaliseText } from '../../server/text';
import { startTestServer, type TTestServer } from '../support/helpers';
import { documentOperations, type TDocumentOperation } from '../support/openapi-operations';
import {
  differences,
  Findings,
  procedureInput,
  restCall,
  trpcErrorShapeProblem,
  TrpcSurface,
  VOLATILE_DATA,
  type TAnswer,
  type TCase,
  type TLabel,
  type TLink,
  type TSurface,
} from '../support/surfaces';
import { skippedUnderSqld } from '../support/sqld';

interface TTally {
  inputs: number;
  requests: Record<TSurface, number>;
  refusedWrites: Record<TSurface, number>;
  endpoints: number;
}

type TOperation = TDocumentOperation;

const HUGE = 'A'.repeat(100_000);
const DEEP = JSON.parse('['.repeat(1500) + ']'.repeat(1500));
const NASTY_STRINGS = [
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
const NASTY_VALUES: unknown[] = [
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

interface THostile {
  app: TTestServer;
  trpc: TrpcSurface;
  operations: TOperation[];
  userToken: string;
  adminToken: string;
  tally: TTally;
}

const Hostile = suite<THostile>('hostile input on every endpoint, on REST and native tRPC');

Hostile.before(async (context) => {
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
  // of refused writes below rest on it.
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
Hostile.after(async ({ app, trpc, tally }) => {
  console.log(
    `      hostile input: ${tally.endpoints} endpoints, ${tally.inputs} inputs; REST ${tally.requests.REST} requests, ` +
      `tRPC ${tally.requests.tRPC} calls in ${trpc.requests} HTTP requests (${trpc.rawCalls} as raw wire requests: inputs the superjson client refuses); ` +
      `refused writes verified to change nothing: ` +
      `REST ${tally.refusedWrites.REST}, tRPC ${tally.refusedWrites.tRPC}`,
  );
  await app.stop();
});

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

function refused(answer: TAnswer): boolean {
  return !(answer.status !== undefined && answer.status < 400);
}

/**
 * Watches the writes of one endpoint, sent one request after another: the fingerprint taken after a
 * request is the one before the next. When every call of a request is refused (one call, or a batch
 * of them), the database must be exactly as it was before it.
 */
class WriteWatch {
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
interface TInput extends TCase {
  path: Record<string, string>;
  rawBody?: string;
}

function labelOf(operation: TOperation, surface: TSurface, input: unknown): () => string {
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

async function sendRest(
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
async function sendTrpc(
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

function valueAsQuery(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
}

/** Inputs tRPC carries that a REST request cannot: typed query values, and a whole input that is not an object. */
function trpcOnlyInputs(operation: TOperation, pathWith: (value: string) => Record<string, string>): unknown[] {
  const inputs: unknown[] = [undefined, null, 'just a string', [1, 'two', null], { deep: DEEP, ...pathWith('x') }];
  for (const field of operation.queryParams) {
    for (const value of NASTY_VALUES.filter((candidate) => typeof candidate !== 'string'))
      inputs.push({ [field]: value, ...pathWith('x') });
  }
  return inputs;
}

Hostile('hand-picked malformed inputs on every field of every endpoint, on REST and tRPC alike', async (context) => {
  const findings = new Findings();
  for (const operation of context.operations) {
    context.tally.endpoints++;
    const inputs: TInput[] = [];
    const restOnly: TInput[] = [];
    const pathWith = (value: string) => Object.fromEntries(operation.pathParams.map((name) => [name, value]));
    // Path parameters
    for (const value of NASTY_STRINGS.slice(0, 14)) {
      if (operation.pathParams.length > 0)
        inputs.push({ path: pathWith(value === '' ? ' ' : value.slice(0, 2000)), query: {} });
    }
    // Missing everything, then each field with each nasty value
    inputs.push({ path: pathWith('x'), query: {}, body: {} });
    for (const field of operation.queryParams) {
      for (const value of NASTY_VALUES)
        inputs.push({ path: pathWith('x'), query: { [field]: valueAsQuery(value).slice(0, 7000) } });
    }
    for (const field of operation.bodyFields) {
      for (const value of NASTY_VALUES) inputs.push({ path: pathWith('x'), query: {}, body: { [field]: value } });
    }
    if (operation.method === 'GET') {
      inputs.push({ path: pathWith('x'), query: { extra: 'field' } });
    } else {
      inputs.push({
        path: pathWith('x'),
        query: {},
        body: {
          extra: 'field',
          __proto__: { admin: true },
          ...Object.fromEntries(operation.bodyFields.map((f) => [f, HUGE])),
        },
      });
      restOnly.push({ path: pathWith('x'), query: {}, rawBody: '{"a":' });
      restOnly.push({ path: pathWith('x'), query: {}, rawBody: 'null' });
      restOnly.push({ path: pathWith('x'), query: {}, rawBody: '"just a string"' });
      restOnly.push({ path: pathWith('x'), query: {}, rawBody: JSON.stringify({ deep: DEEP }) });
    }
    const trpcOnly = trpcOnlyInputs(operation, pathWith);
    context.tally.inputs += inputs.length + restOnly.length + trpcOnly.length;

    const watch = new WriteWatch(context, findings);
    const restAnswers: TAnswer[] = [];
    for (const input of inputs) restAnswers.push(await sendRest(context, findings, watch, operation, input));
    for (const input of restOnly) await sendRest(context, findings, watch, operation, input);

    // The tRPC twins, one drop-refresh interval later, so a per-client allowance the REST pass used
    // (GET /drop/current?refresh) is back: those REST accepted one by one, in order, then those it
    // refused in batches (a refused batch must leave the database as it was; calls of a batch run
    // together, so only calls that change nothing share one); then what only tRPC can send.
    context.app.clock.advance(context.app.config.DROP_REFRESH_INTERVAL_SECONDS * 1000);
    const twins = inputs.map((input) => procedureInput(operation, input, 'x'));
    const acceptedOnRest = twins.flatMap((_, index) => (refused(restAnswers[index]!) ? [] : [index]));
    const refusedOnRest = twins.flatMap((_, index) => (refused(restAnswers[index]!) ? [index] : []));
    const twinAnswers: TAnswer[] = [];
    for (const [indexes, link] of [
      [acceptedOnRest, 'httpLink'],
      [refusedOnRest, 'httpBatchLink'],
    ] as const) {
      const answers = await sendTrpc(
        context,
        findings,
        watch,
        operation,
        indexes.map((index) => twins[index]),
        link,
      );
      for (const [position, index] of indexes.entries()) twinAnswers[index] = answers[position]!;
    }
    await sendTrpc(context, findings, watch, operation, trpcOnly, 'httpLink');

    // Reads must give the same data; a write REST accepted ran twice (once a surface), so its data is not compared.
    const data = operation.method === 'GET' && !VOLATILE_DATA.has(operation.key) ? 'equal' : 'skip';
    inputs.forEach((_input, index) => {
      findings.add(
        () => `${labelOf(operation, 'tRPC', twins[index])()} vs REST`,
        differences(restAnswers[index]!, twinAnswers[index]!, { data }),
      );
    });
  }
  findings.assertNone();
  assert.ok(context.tally.endpoints >= 40, `${context.tally.endpoints} endpoints`);
});

Hostile('property-based: random JSON for every field (fast-check), on REST and tRPC', async (context) => {
  const findings = new Findings();
  for (const operation of context.operations) {
    const fields = [...operation.bodyFields, ...operation.queryParams];
    const key = fc.constantFrom(...(fields.length > 0 ? fields : ['anything']), 'extra');
    const arbitrary = fc.record({
      path: fc.string({ maxLength: 60 }),
      values: fc.dictionary(key, fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 }),
    });
    const watch = new WriteWatch(context, findings);
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ path, values }) => {
        context.tally.inputs++;
        const pathParams = Object.fromEntries(operation.pathParams.map((name) => [name, path === '' ? '_' : path]));
        if (operation.method === 'GET') {
          // REST carries query values as strings; tRPC carries the JSON values themselves.
          const query = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, valueAsQuery(value)]));
          await sendRest(context, findings, watch, operation, { path: pathParams, query });
          await sendTrpc(context, findings, watch, operation, [{ ...values, ...pathParams }], 'httpLink');
        } else {
          const input: TInput = { path: pathParams, query: {}, body: values };
          const rest = await sendRest(context, findings, watch, operation, input);
          const twin = procedureInput(operation, input, 'x');
          const [trpc] = await sendTrpc(context, findings, watch, operation, [twin], 'httpLink');
          findings.add(
            () => `${labelOf(operation, 'tRPC', twin)()} vs REST`,
            differences(rest, trpc!, { data: 'skip' }),
          );
        }
      }),
      { numRuns: 12, seed: 20261122 },
    );
  }
  findings.assertNone();
});

interface TProtocolCase {
  label: string;
  method: 'GET' | 'POST';
  /** After /trpc/. */
  target: string;
  body?: string;
  token?: boolean;
  /** The status and tRPC code of each call's error (several for a batch). */
  expect: { status: number; code: string }[];
}

function inputParam(value: unknown): string {
  return `input=${encodeURIComponent(JSON.stringify(value))}`;
}

Hostile(
  "tRPC's own protocol abused: malformed input, not superjson, wrong method, unknown path, oversized body",
  async (context) => {
    const findings = new Findings();
    const oversized = JSON.stringify({ json: { username: 'A'.repeat(BODY_LIMIT_BYTES), password: 'x' } });
    const badRequest = [{ status: 400, code: 'BAD_REQUEST' }];
    const cases: TProtocolCase[] = [
      { label: 'malformed ?input= JSON', method: 'GET', target: 'assembly.list?input=%7Bnope', expect: badRequest },
      {
        label: 'malformed ?input= JSON in a batch',
        method: 'GET',
        target: 'assembly.list,catalog.listHulls?batch=1&input=%7Bnope',
        expect: [...badRequest, ...badRequest],
      },
      {
        label: 'batch ?input= not an object',
        method: 'GET',
        target: 'assembly.list?batch=1&input=%5B1%5D',
        expect: badRequest,
      },
      {
        label: 'input not superjson-shaped',
        method: 'GET',
        target: `assembly.getItem?${inputParam({ uuid: 'x' })}`,
        expect: badRequest,
      },
      {
        label: 'superjson meta naming an unknown transformation',
        method: 'GET',
        target: `assembly.getItem?${inputParam({ json: { uuid: 'x' }, meta: { values: { uuid: ['nope'] } } })}`,
        expect: badRequest,
      },
      {
        label: 'superjson meta walking into __proto__',
        method: 'GET',
        target: `assembly.getItem?${inputParam({ json: { uuid: 'x' }, meta: { values: { '__proto__.polluted': ['undefined'] } } })}`,
        expect: badRequest,
      },
      {
        label: 'a URL over the server limit',
        method: 'GET',
        target: `assembly.list?${inputParam({ json: { q: 'A'.repeat(9000) } })}`,
        expect: badRequest,
      },
      {
        label: 'POST body not superjson-shaped',
        method: 'POST',
        target: 'user.signin',
        body: JSON.stringify({ username: 'someone', password: 'secret' }),
        expect: badRequest,
      },
      { label: 'malformed POST body', method: 'POST', target: 'user.signin', body: '{"json":', expect: badRequest },
      {
        label: 'malformed POST body, signed in',
        method: 'POST',
        target: 'assembly.publish',
        body: '{"json":',
        token: true,
        expect: badRequest,
      },
      {
        label: 'malformed POST body in a batch',
        method: 'POST',
        target: 'user.signin,user.signup?batch=1',
        body: '{"0":',
        expect: [...badRequest, ...badRequest],
      },
      {
        label: 'unknown procedure',
        method: 'GET',
        target: 'nope.nothing',
        expect: [{ status: 404, code: 'NOT_FOUND' }],
      },
      {
        label: 'unknown procedure as a POST',
        method: 'POST',
        target: 'admin.nothing',
        body: '{"json":{}}',
        token: true,
        expect: [{ status: 404, code: 'NOT_FOUND' }],
      },
      {
        label: 'a router, not a procedure',
        method: 'GET',
        target: 'assembly',
        expect: [{ status: 404, code: 'NOT_FOUND' }],
      },
      {
        label: 'query sent as POST',
        method: 'POST',
        target: 'assembly.list',
        body: '{"json":{}}',
        expect: [{ status: 405, code: 'METHOD_NOT_SUPPORTED' }],
      },
      {
        label: 'mutation sent as GET',
        method: 'GET',
        target: `assembly.publish?${inputParam({ json: {} })}`,
        token: true,
        expect: [{ status: 405, code: 'METHOD_NOT_SUPPORTED' }],
      },
      {
        label: 'oversized POST body',
        method: 'POST',
        target: 'user.signin',
        body: oversized,
        expect: [{ status: 413, code: 'PAYLOAD_TOO_LARGE' }],
      },
      {
        label: 'oversized POST body, signed in',
        method: 'POST',
        target: 'assembly.publish',
        body: oversized,
        token: true,
        expect: [{ status: 413, code: 'PAYLOAD_TOO_LARGE' }],
      },
      {
        label: 'oversized batch POST body',
        method: 'POST',
        target: 'user.signin,user.signup?batch=1',
        body: `{"0":${oversized}}`,
        expect: [
          { status: 413, code: 'PAYLOAD_TOO_LARGE' },
          { status: 413, code: 'PAYLOAD_TOO_LARGE' },
        ],
      },
    ];
    const watch = new WriteWatch(context, findings);
    for (const testCase of cases) {
      const label = `${testCase.label} (${testCase.method} /trpc/${testCase.target.slice(0, 80)})`;
      const send = async (): Promise<TAnswer[]> => {
        const response = await fetch(`${context.app.url}/trpc/${testCase.target}`, {
          method: testCase.method,
          headers: {
            'content-type': 'application/json',
            ...(testCase.token ? { authorization: `Bearer ${context.userToken}` } : {}),
          },
          body: testCase.body,
        });
        const text = await response.text();
        let body: any;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        const batch = testCase.expect.length > 1 || testCase.target.includes('batch=1');
        // A batch is answered item by item, or with one error the tRPC client applies to every call.
        const errors: unknown[] = !batch
          ? [body?.error?.json]
          : Array.isArray(body)
            ? body.map((item) => item?.error?.json)
            : testCase.expect.map(() => body?.error?.json);
        const problems: string[] = [];
        if (response.status >= 500) problems.push(`HTTP ${response.status}`);
        const expectedStatus =
          batch && new Set(testCase.expect.map((item) => item.status)).size > 1 ? 207 : testCase.expect[0]!.status;
        if (response.status !== expectedStatus) problems.push(`HTTP ${response.status}, expected ${expectedStatus}`);
        if (errors.length !== testCase.expect.length)
          problems.push(`${errors.length} answers, expected ${testCase.expect.length}`);
        testCase.expect.forEach((expected, index) => {
          const error = errors[index] as { data?: { code?: string; httpStatus?: number } } | undefined;
          const shape = trpcErrorShapeProblem(error, batch ? undefined : response.status);
          if (shape) problems.push(`not tRPC's error format: ${shape}`);
          else if (error!.data!.code !== expected.code || error!.data!.httpStatus !== expected.status) {
            problems.push(
              `error ${error!.data!.code} ${error!.data!.httpStatus}, expected ${expected.code} ${expected.status}`,
            );
          }
        });
        findings.add(
          label,
          problems.length > 0 ? `${problems.join('; ')}; answered ${response.status} ${text.slice(0, 240)}` : undefined,
        );
        context.tally.requests.tRPC++;
        return [{ surface: 'tRPC', status: response.status, code: undefined, message: undefined, data: body, text }];
      };
      if (testCase.method === 'POST') await watch.run(label, 'tRPC', send);
      else await send();
    }
    findings.expect(
      ({} as Record<string, unknown>).polluted === undefined,
      'superjson meta',
      'polluted Object.prototype',
    );
    findings.assertNone();
  },
);

Hostile(
  'comments (issue 19): hostile content on a real assembly and comment, on REST and tRPC; accepted text is stored verbatim, refused writes change nothing',
  async (context) => {
    const findings = new Findings();
    const { app, userToken } = context;
    const published = await app.rest('POST', '/api/assembly/publish', {
      token: userToken,
      body: { name: 'Comment fuzz', shipId: 'cutter', weapons: [{ slot: 'frontWeapon', itemId: 'culverin1' }] },
    });
    assert.is(published.status, 200, published.text);
    const targetId = published.body.data.uuid as string;
    const comment = await app.rest('POST', '/api/comment', {
      token: userToken,
      body: { targetType: 'assembly', targetId, content: 'to be edited' },
    });
    assert.is(comment.status, 200, comment.text);
    const byKey = new Map(context.operations.map((operation) => [operation.key, operation]));
    const create = byKey.get('POST /comment')!;
    const edit = byKey.get('POST /comment/edit')!;
    const accepted: string[] = [];
    for (const [operation, base] of [
      [create, { targetType: 'assembly', targetId }],
      [edit, { id: comment.body.data.id }],
    ] as const) {
      const watch = new WriteWatch(context, findings);
      for (const value of NASTY_VALUES) {
        const input: TInput = { path: {}, query: {}, body: { ...base, content: value } };
        for (const answer of [
          await sendRest(context, findings, watch, operation, input),
          ...(await sendTrpc(context, findings, watch, operation, [input.body], 'httpLink')),
        ]) {
          const label = labelOf(operation, answer.surface, input.body);
          if (refused(answer)) {
            findings.expect(answer.status === 400, label, `refused with ${answer.status} ${answer.text.slice(0, 160)}`);
            continue;
          }
          const expected = typeof value === 'string' ? value.replace(/\r\n?/g, '\n').trim() : undefined;
          const content = (answer.data as { content?: unknown }).content;
          findings.expect(
            content === expected,
            label,
            `stored ${JSON.stringify(content)?.slice(0, 80)}, sent ${JSON.stringify(value)?.slice(0, 80)}`,
          );
          if (operation === create && typeof content === 'string') accepted.push(content);
        }
      }
    }
    findings.expect(
      accepted.includes('<script>alert(1)</script>') && accepted.includes("'; DROP TABLE users; --"),
      'POST /comment',
      'markup and SQL-looking text are plain text, accepted as written',
    );
    const listed = await app.rest(
      'GET',
      `/api/comment/comments?targetType=assembly&targetId=${targetId}&pageSize=100&sortOrder=asc`,
    );
    findings.expect(
      listed.status === 200 && /^application\/json/.test(listed.headers.get('content-type') ?? ''),
      'GET /comment/comments',
      `${listed.status} ${listed.headers.get('content-type')}`,
    );
    // Every comment but the edited one, oldest first: the accepted creates, in order, as written.
    const stored = (listed.body?.data?.data ?? [])
      .filter((item: { id: string }) => item.id !== comment.body.data.id)
      .map((item: { content: string }) => item.content);
    findings.expect(
      JSON.stringify(stored) === JSON.stringify(accepted),
      'GET /comment/comments',
      `lists exactly the accepted comments, verbatim: ${JSON.stringify(stored).slice(0, 200)} vs ${JSON.stringify(accepted).slice(0, 200)}`,
    );
    findings.assertNone();
  },
);

Hostile(
  'profiles (issue 19): hostile display names and introductions are stored as given or refused (400, nothing changed); hostile pictures are refused or served only as their sniffed image type',
  async (context) => {
    const findings = new Findings();
    const { app, userToken } = context;
    const byKey = new Map(context.operations.map((operation) => [operation.key, operation]));
    const texts: [TOperation, (value: unknown) => unknown, (data: any) => unknown, (value: string) => unknown][] = [
      [
        byKey.get('PUT /user/changeAlternativeName')!,
        (value) => ({ username: value }),
        (data) => data.alternativeName,
        (value) => value.trim() || null,
      ],
      [
        byKey.get('POST /user/me')!,
        (value) => ({ attr: { introduction: value } }),
        (data) => data.attr.introduction,
        (value) => normaliseText(value, 'multiline'),
      ],
    ];
    for (const [operation, bodyOf, read, expected] of texts) {
      const watch = new WriteWatch(context, findings);
      for (const value of NASTY_VALUES) {
        const input: TInput = { path: {}, query: {}, body: bodyOf(value) };
        for (const answer of [
          await sendRest(context, findings, watch, operation, input),
          ...(await sendTrpc(context, findings, watch, operation, [input.body], 'httpLink')),
        ]) {
          const label = labelOf(operation, answer.surface, input.body);
          if (refused(answer))
            findings.expect(answer.status === 400, label, `refused with ${answer.status} ${answer.text.slice(0, 160)}`);
          else
            findings.expect(
              typeof value === 'string' && read(answer.data) === expected(value),
              label,
              `stored ${JSON.stringify(read(answer.data))?.slice(0, 80)}`,
            );
        }
      }
    }
    const { FAKE_PNG_HTML, PNG_1X1, PNG_HEADER_THEN_HTML, SVG, pngOfSize } = await import('../user/images');
    const pictures: [string, string, Buffer][] = [
      ['a PNG signature before HTML', 'image/png', FAKE_PNG_HTML],
      ['SVG with a script', 'image/svg+xml', SVG],
      ['SVG declared as PNG', 'image/png', SVG],
      ['HTML', 'text/html', Buffer.from('<script>alert(1)</script>')],
      ['a truncated PNG', 'image/png', PNG_1X1.subarray(0, 20)],
      ['a bare GIF signature', 'image/gif', Buffer.from('GIF89a')],
      [
        'a WebP without its VP8 chunk',
        'image/webp',
        Buffer.from('RIFF\x10\x00\x00\x00WEBPJUNKJUNKJUNKJUNKJUNK', 'latin1'),
      ],
      ['a JPEG of fill bytes only', 'image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(4096, 0xff)])],
      [
        'a JPEG segment of length 0',
        'image/jpeg',
        Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0]),
      ],
      ['a PNG of 0 × 0 pixels', 'image/png', pngOfSize(0, 0)],
      ['a PNG of 2^32 - 1 pixels a side', 'image/png', pngOfSize(0xffffffff, 0xffffffff)],
      ['a real PNG header before HTML', 'image/png', PNG_HEADER_THEN_HTML],
    ];
    const operation = byKey.get('PUT /user/avatar')!;
    const watch = new WriteWatch(context, findings);
    for (const [name, type, bytes] of pictures) {
      const input: TInput = { path: {}, query: {}, body: { image: `data:${type};base64,${bytes.toString('base64')}` } };
      for (const answer of [
        await sendRest(context, findings, watch, operation, input),
        ...(await sendTrpc(context, findings, watch, operation, [input.body], 'httpLink')),
      ]) {
        const label = `PUT /user/avatar on ${answer.surface}: ${name}`;
        if (refused(answer)) {
          findings.expect(
            [400, 413, 415].includes(answer.status!),
            label,
            `refused with ${answer.status} ${answer.text.slice(0, 160)}`,
          );
          continue;
        }
        // Accepted only as a PNG by its bytes, and then served as one, never sniffed into anything else.
        const served = await fetch(`${app.url}${(answer.data as { userAvatar: string }).userAvatar}`, {
          headers: { authorization: `Bearer ${userToken}` },
        });
        await served.arrayBuffer();
        findings.expect(name === 'a real PNG header before HTML', label, 'accepted');
        findings.expect(
          served.headers.get('content-type') === 'image/png' &&
            served.headers.get('x-content-type-options') === 'nosniff',
          label,
          `served as ${served.headers.get('content-type')}`,
        );
        findings.expect(
          /sandbox/.test(served.headers.get('content-security-policy') ?? ''),
          label,
          'served without the sandbox CSP',
        );
      }
    }
    findings.assertNone();
  },
);

if (
  !skippedUnderSqld(
    'hostile input',
    'its database digest after every fuzzed write is ~40 queries; over HTTP that is 100,000+ round trips (the suite runs on both file drivers)',
  )
)
  Hostile.run();
