/**
 * Hostile input, generated from the OpenAPI document: every endpoint gets wrong types, huge strings,
 * unicode, injection strings, deep nesting, extreme numbers, missing and extra fields, plus
 * property-based random JSON (fast-check). Not one 500, every answer in the envelope, and a write
 * that is refused leaves the database exactly as it was.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readDemoCatalog } from '../db/seed/assemblies';
import { DEMO_SUBSCRIPTION_CATALOG } from '../db/seed/subscription';
import { setRole } from '../server/services/account';
import { startTestServer, type TRestResponse, type TTestServer } from './helpers';
import { documentOperations, type TDocumentOperation } from './openapi-operations';

interface TTally {
  requests: number;
  inputs: number;
  refusedWrites: number;
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

const Hostile = suite<{ app: TTestServer; operations: TOperation[]; userToken: string; adminToken: string; tally: TTally }>(
  'hostile input on every endpoint',
);

Hostile.before(async (context) => {
  const app = await startTestServer();
  context.app = app;
  context.operations = documentOperations((await app.rest('GET', '/api/openapi.json')).body);
  const user = await app.signUp();
  const admin = await app.signUp();
  await setRole(app.database.db, admin.username, 'admin');
  context.userToken = user.token;
  context.adminToken = admin.token;
  await app.rest('POST', '/api/admin/catalog/import', { token: admin.token, body: readDemoCatalog() as Record<string, unknown> });
  await app.rest('POST', '/api/admin/subscription/import', { token: admin.token, body: DEMO_SUBSCRIPTION_CATALOG as unknown as Record<string, unknown> });
  await app.rest('POST', '/api/assembly/publish', {
    token: user.token,
    body: { name: 'Fuzz target', shipId: 'cutter', weapons: [{ slot: 'frontWeapon', itemId: 'culverin1' }] },
  });
  await app.rest('POST', '/api/map/collection', { token: user.token, body: { title: 'Fuzz map' } });
  context.tally = { requests: 0, inputs: 0, refusedWrites: 0, endpoints: 0 };
});
Hostile.after(async (context) => {
  console.log(
    `      hostile input: ${context.tally.endpoints} endpoints, ${context.tally.inputs} inputs, ${context.tally.requests} requests, ` +
      `${context.tally.refusedWrites} refused writes verified to change nothing`,
  );
  await context.app.stop();
});

/** A digest of every row of every table: equal digests mean an unchanged database. */
async function fingerprint(app: TTestServer): Promise<string> {
  const tables = await app.database.db.all<{ name: string }>(
    sql`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`,
  );
  const hash = createHash('sha1');
  for (const { name } of tables) {
    const rows = await app.database.db.all(sql.raw(`select * from "${name.replace(/"/g, '""')}"`));
    const encoded = rows.map((row) => JSON.stringify(row, (_key, value) => (typeof value === 'bigint' ? String(value) : value))).sort();
    hash.update(name).update(encoded.join('\n'));
  }
  return hash.digest('hex');
}

/** Endpoints whose success would end the session the fuzzer uses: fuzzed anonymously. */
const ANONYMOUS_ONLY = new Set(['POST /user/signout', 'POST /user/password']);

interface TInput {
  path: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
  rawBody?: string;
}

async function send(context: { app: TTestServer; userToken: string; adminToken: string; tally: TTally }, operation: TOperation, input: TInput) {
  const key = `${operation.method} ${operation.path}`;
  const token = ANONYMOUS_ONLY.has(key) ? undefined : operation.path.startsWith('/admin/') ? context.adminToken : context.userToken;
  let path = operation.path;
  for (const name of operation.pathParams) path = path.replace(`{${name}}`, encodeURIComponent(input.path[name] ?? 'x'));
  const query = Object.keys(input.query).length > 0 ? `?${new URLSearchParams(input.query)}` : '';
  const isWrite = operation.method !== 'GET';
  const before = isWrite ? await fingerprint(context.app) : '';
  const response: TRestResponse = await context.app.rest(operation.method, `/api${path}${query}`, {
    token,
    body: input.rawBody === undefined && isWrite ? (input.body ?? {}) : undefined,
    rawBody: input.rawBody,
    headers: input.rawBody !== undefined ? { 'content-type': 'application/json' } : undefined,
  });
  context.tally.requests++;
  const label = `${key} ${JSON.stringify(input).slice(0, 160)}`;
  assert.ok(response.status < 500, `${label} -> ${response.status} ${response.text.slice(0, 200)}`);
  if (response.status !== 304) {
    assert.ok(response.body && typeof response.body === 'object', `${label}: not JSON`);
    assert.is(response.body.code, response.status, `${label}: envelope code`);
    assert.type(response.body.message, 'string');
    assert.type(response.body.data, 'object');
  }
  if (isWrite && response.status >= 400) {
    assert.is(await fingerprint(context.app), before, `${label}: refused write changed the database`);
    context.tally.refusedWrites++;
  }
}

function valueAsQuery(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined';
}

Hostile('hand-picked malformed inputs on every field of every endpoint', async (context) => {
  for (const operation of context.operations) {
    context.tally.endpoints++;
    const inputs: TInput[] = [];
    const pathWith = (value: string) => Object.fromEntries(operation.pathParams.map((name) => [name, value]));
    // Path parameters
    for (const value of NASTY_STRINGS.slice(0, 14)) {
      if (operation.pathParams.length > 0) inputs.push({ path: pathWith(value === '' ? ' ' : value.slice(0, 2000)), query: {} });
    }
    // Missing everything, then each field with each nasty value
    inputs.push({ path: pathWith('x'), query: {}, body: {} });
    for (const field of operation.queryParams) {
      for (const value of NASTY_VALUES) inputs.push({ path: pathWith('x'), query: { [field]: valueAsQuery(value).slice(0, 7000) } });
    }
    for (const field of operation.bodyFields) {
      for (const value of NASTY_VALUES) inputs.push({ path: pathWith('x'), query: {}, body: { [field]: value } });
    }
    if (operation.method !== 'GET') {
      inputs.push({ path: pathWith('x'), query: {}, body: { extra: 'field', __proto__: { admin: true }, ...Object.fromEntries(operation.bodyFields.map((f) => [f, HUGE])) } });
      inputs.push({ path: pathWith('x'), query: {}, rawBody: '{"a":' });
      inputs.push({ path: pathWith('x'), query: {}, rawBody: 'null' });
      inputs.push({ path: pathWith('x'), query: {}, rawBody: '"just a string"' });
      inputs.push({ path: pathWith('x'), query: {}, rawBody: JSON.stringify({ deep: DEEP }) });
    }
    context.tally.inputs += inputs.length;
    for (const input of inputs) await send(context, operation, input);
  }
  assert.ok(context.tally.endpoints >= 40, `${context.tally.endpoints} endpoints`);
});

Hostile('property-based: random JSON for every field (fast-check)', async (context) => {
  for (const operation of context.operations) {
    const fields = [...operation.bodyFields, ...operation.queryParams];
    const key = fc.constantFrom(...(fields.length > 0 ? fields : ['anything']), 'extra');
    const arbitrary = fc.record({
      path: fc.string({ maxLength: 60 }),
      values: fc.dictionary(key, fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 }),
    });
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ path, values }) => {
        context.tally.inputs++;
        const pathParams = Object.fromEntries(operation.pathParams.map((name) => [name, path === '' ? '_' : path]));
        if (operation.method === 'GET') {
          const query = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, valueAsQuery(value)]));
          await send(context, operation, { path: pathParams, query });
        } else {
          await send(context, operation, { path: pathParams, query: {}, body: values });
        }
      }),
      { numRuns: 12, seed: 20261122 },
    );
  }
});

Hostile.run();
