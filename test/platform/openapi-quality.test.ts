import { Validator } from '@seriousme/openapi-schema-validator';
import { forEachOpenApiProcedure, getInputOutputParsers, normalizePath } from 'trpc-to-openapi';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { VERSION } from '../../server/app';
import { buildOpenApiDocument, RECORDED_EXAMPLES } from '../../server/openapi';
import { appRouter } from '../../server/router';
import { generateOpenApiTypes } from '../../scripts/openapi-types';
import { documentOperations, resolveRef, type TDocumentOperation } from '../support/openapi-operations';

type TJson = Record<string, any>;
type TProcedure = Parameters<typeof getInputOutputParsers>[0];

const document = buildOpenApiDocument(appRouter, VERSION) as TJson;
const operations = documentOperations(document);

/** Each operation's procedure, by `METHOD /path` as the document writes it. */
const procedures = new Map<string, TProcedure>();
forEachOpenApiProcedure(appRouter._def.procedures, ({ procedure, meta }) => {
  procedures.set(`${meta.openapi.method} ${normalizePath(meta.openapi.path)}`, procedure);
});

/** A `$ref` of the document, followed. */
function resolved(node: TJson): TJson {
  return resolveRef(document, node);
}

function jsonSuccess(operation: TJson): TJson | undefined {
  return operation.responses['200'].content['application/json'];
}

/** Every string anywhere in a value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** What generic example generators write instead of data. */
const PLACEHOLDER = /^(string|example|foo|bar|lorem ipsum|x+)$/i;

const Quality = suite('OpenAPI document quality: components, examples, descriptions, errors, headers');

Quality('is a valid OpenAPI 3.1 document', async () => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  assert.equal(result.errors, undefined, JSON.stringify(result.errors, null, 2)?.slice(0, 2000));
  assert.is(validator.version, '3.1');
});

Quality('names the main shapes as components, and the operations refer to them', () => {
  const names = Object.keys(document.components.schemas);
  for (const name of [
    'Assembly',
    'AssemblySummary',
    'Pagination',
    'ErrorEnvelope',
    'Session',
    'Profile',
    'MapCollection',
    'MapPoint',
    'Order',
    'Comment',
    'DropCampaign',
    'Season',
    'WarState',
  ]) {
    assert.ok(names.includes(name), `components/schemas/${name}`);
  }
  const paths = JSON.stringify(document.paths);
  for (const name of ['Assembly', 'AssemblySummary', 'Pagination', 'ErrorEnvelope', 'MapPoint', 'Order']) {
    assert.ok(paths.includes(`"#/components/schemas/${name}"`), `some operation refers to ${name}`);
  }
  assert.not.ok(
    names.some((name) => name.startsWith('error.')),
    "trpc-to-openapi's generic error shapes are not left over",
  );
});

Quality('every parameter has a description and an example that its operation accepts', () => {
  let count = 0;
  for (const { key, operation } of operations) {
    const values: TJson = {};
    for (const parameter of (operation.parameters ?? []).map(resolved)) {
      assert.type(parameter.description, 'string', `${key} ${parameter.name}: description`);
      assert.ok(parameter.example !== undefined, `${key} ${parameter.name}: example`);
      if (parameter.in !== 'header') values[parameter.name] = parameter.example;
      count++;
    }
    const body = operation.requestBody?.content['application/json']?.example;
    const parsed = getInputOutputParsers(procedures.get(key)!).inputParser.safeParse({ ...values, ...body });
    assert.ok(
      parsed.success,
      `${key}: the examples of its parameters and body are a valid input: ${JSON.stringify(parsed.error?.issues)}`,
    );
  }
  assert.ok(count >= 100, `${count} parameters`);
});

Quality('every request body has an example', () => {
  const bodies = operations.filter(({ operation }) => operation.requestBody);
  for (const { key, operation } of bodies) {
    assert.ok(operation.requestBody.content['application/json'].example !== undefined, `${key}: body example`);
  }
  assert.ok(bodies.length >= 30, `${bodies.length} request bodies`);
});

Quality('every JSON success has a recorded example from the demo data that still fits the output schema', () => {
  let count = 0;
  for (const { key, operation } of operations) {
    const success = jsonSuccess(operation);
    if (!success) continue;
    assert.ok(key in RECORDED_EXAMPLES, `${key}: recorded by scripts/openapi-examples.ts`);
    assert.is(success.example.code, 200);
    const { outputParser } = getInputOutputParsers(procedures.get(key)!);
    const parsed = outputParser!.safeParse(success.example.data);
    assert.ok(
      parsed.success,
      `${key}: the example fits the output schema (run scripts/openapi-examples.ts again): ${JSON.stringify(parsed.error?.issues)?.slice(0, 500)}`,
    );
    const placeholders = strings(success.example.data).filter((value) => PLACEHOLDER.test(value));
    assert.equal(placeholders, [], `${key}: no placeholder values`);
    count++;
  }
  assert.ok(count >= 80, `${count} JSON successes`);
  assert.equal(
    Object.keys(RECORDED_EXAMPLES).filter((key) => !procedures.has(key)),
    [],
    'no example of an operation that is gone',
  );
});

/** The statuses an operation documents, besides 200. */
function errorStatuses(operation: TJson): string[] {
  return Object.keys(operation.responses).filter((status) => status !== '200');
}

function inputFieldNames({ operation }: TDocumentOperation): string[] {
  const parameters = (operation.parameters ?? []).map(resolved).filter((parameter: TJson) => parameter.in !== 'header');
  return [
    ...parameters.map((parameter: TJson) => parameter.name),
    ...Object.keys(operation.requestBody?.content['application/json'].schema.properties ?? {}),
  ];
}

Quality('each error response is one the operation can return, with a message that fits it', () => {
  for (const entry of operations) {
    const { key, operation, secured } = entry;
    const statuses = errorStatuses(operation);
    const fields = inputFieldNames(entry);
    // 400: from the operation's own input schema, naming one of its fields; none without input.
    if (fields.length === 0) assert.not.ok(statuses.includes('400'), `${key} takes no input: no 400`);
    if (statuses.includes('400')) {
      const example = resolved(operation.responses['400']).content['application/json'].example;
      // A field's path, or '' for a rule on the input as a whole (the message then says `input`).
      const field = String(example.data.issues[0].path).split(/[.[]/)[0]!;
      assert.ok(field === '' || fields.includes(field), `${key}: the 400 names its own field (${example.message})`);
      assert.match(example.message, new RegExp(`^Invalid input: ${field || 'input'}: `));
    }
    assert.is(statuses.includes('401'), secured, `${key}: 401 exactly when it needs a token`);
    if (statuses.includes('403'))
      assert.ok(secured || fields.includes('password'), `${key}: 403 only with a token or an assembly password`);
    for (const status of statuses) {
      const response = resolved(operation.responses[status]);
      assert.is(response.content['application/json'].example.code, Number(status), `${key} ${status}`);
    }
  }
  const statusesOf = (key: string) => errorStatuses(operations.find((entry) => entry.key === key)!.operation);
  assert.equal(
    statusesOf('GET /user/me'),
    ['401', '429', '500', '503'],
    'no 400 for an operation without input (issue 21)',
  );
  assert.equal(statusesOf('GET /health'), ['500', '503'], 'health is outside the rate limit');
  assert.equal(statusesOf('GET /assembly/item'), ['400', '403', '404', '429', '500', '503']);
  assert.equal(statusesOf('GET /assembly/list'), ['400', '429', '500', '503'], 'a list looks nothing up');
  assert.equal(statusesOf('POST /admin/catalog/import'), ['400', '401', '403', '429', '500', '503']);
  assert.is(
    resolved(document.paths['/admin/catalog/import'].post.responses['403']).content['application/json'].example.message,
    'Administrator role required',
  );
  assert.is(
    resolved(document.paths['/map/collection/{uuid}'].get.responses['404']).content['application/json'].example.message,
    'Map collection not found',
  );
  assert.is(
    resolved(document.paths['/map/point/{uuid}'].get.responses['404']).content['application/json'].example.message,
    'Map point not found',
  );
  assert.is(
    resolved(document.paths['/admin/subscription/orders/{orderId}'].get.responses['404']).content['application/json']
      .example.message,
    'Order not found',
  );
  assert.equal(
    statusesOf('PUT /admin/subscription/plans/{planId}'),
    ['400', '401', '403', '429', '500', '503'],
    'an upsert looks nothing up',
  );
});

Quality('a shape that extends another is written once, and stays as closed as zod makes it', () => {
  const schemas = document.components.schemas;
  const composed = Object.entries<TJson>(schemas).filter(([, schema]) => schema.allOf);
  assert.ok(composed.length >= 10, `${composed.length} composed shapes`);
  // The open fields a composed shape is made of, and which no operation answers alone.
  const bases = new Set(
    composed.flatMap(([, schema]) => schema.allOf.map((part: TJson) => part.$ref.split('/').at(-1))),
  );
  assert.not.ok(
    JSON.stringify(document.paths).match(new RegExp(`"#/components/schemas/(${[...bases].join('|')})"`)),
    'no operation answers open fields',
  );
  for (const [name, schema] of composed)
    if (!bases.has(name)) assert.is(schema.unevaluatedProperties, false, `${name} is closed`);
  assert.equal(schemas.PublishedAssembly.allOf, [{ $ref: '#/components/schemas/AssemblyFields' }]);
  assert.equal(Object.keys(schemas.PublishedAssembly.properties), ['assembly.uuid']);
  assert.equal(schemas.Assembly, {
    allOf: [{ $ref: '#/components/schemas/AssemblyFields' }],
    unevaluatedProperties: false,
  });
  assert.equal(Object.keys(schemas.AdminOrder.properties), ['userId']);
  // Every other object component is closed as zod closes it.
  for (const [name, schema] of Object.entries<TJson>(schemas)) {
    if (schema.type !== 'object' || schema.allOf || bases.has(name) || !schema.properties || name.endsWith('Envelope'))
      continue;
    assert.is(schema.additionalProperties, false, `${name} is closed`);
  }
});

Quality('documents Idempotency-Key, the RateLimit-* headers and Retry-After', () => {
  const create = document.paths['/subscription/orders/create'].post;
  const idempotency = create.parameters.map(resolved).find((parameter: TJson) => parameter.name === 'Idempotency-Key');
  assert.is(idempotency?.in, 'header');
  for (const { key, path, operation } of operations) {
    const headers = Object.keys(operation.responses['200'].headers ?? {});
    if (path === '/health') continue;
    assert.equal(
      headers.filter((name) => name.startsWith('RateLimit-')),
      ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
      key,
    );
    assert.ok(resolved(operation.responses['429']).headers['Retry-After'], `${key}: 429 with Retry-After`);
    assert.ok(resolved(operation.responses['503']).headers['Retry-After'], `${key}: 503 with Retry-After`);
  }
});

/** Properties without a description in a schema, at any depth, as dotted paths. */
function undescribed(schema: TJson, at: string): string[] {
  if (!schema || typeof schema !== 'object' || schema.$ref) return [];
  const own = Object.entries<TJson>(schema.properties ?? {}).flatMap(([name, property]) => [
    ...(property.description === undefined && property.$ref === undefined ? [`${at}.${name}`] : []),
    ...undescribed(property, `${at}.${name}`),
  ]);
  const nested = [
    schema.items,
    schema.additionalProperties,
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
  ].flatMap((inner) => undescribed(inner, at));
  return [...own, ...nested];
}

Quality('every property of every component schema has a description', () => {
  const missing = Object.entries<TJson>(document.components.schemas).flatMap(([name, schema]) =>
    undescribed(schema, name),
  );
  assert.equal(missing, []);
});

/**
 * What the generated types may weigh per operation: with inline schemas schema.d.ts was 398 KB (issue
 * 21); with named components it is 299 KB for 89 operations (3.4 KB each). A budget per operation lets
 * the API grow, and catches shapes inlined again.
 */
const TYPES_BYTES_PER_OPERATION = 3_600;

Quality('generated client types stay small (schema.d.ts was 398 KB with inline schemas)', async () => {
  const types = await generateOpenApiTypes(document);
  const budget = TYPES_BYTES_PER_OPERATION * operations.length;
  assert.ok(
    types.length < budget,
    `schema.d.ts is ${types.length} bytes for ${operations.length} operations (budget ${budget})`,
  );
  assert.match(types, /Assembly: \{/);
  assert.match(types, /^ {8}Assembly: /m);
  assert.match(types, /^ {8}AssemblyFields: \{/m);
});

Quality.run();
