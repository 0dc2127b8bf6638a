// The OpenAPI document at /api/openapi.json (ecosystem-clients.test.ts runs the typed clients built on it): valid
// OpenAPI 3.1, every endpoint of the interface contract with its auth requirement, every operation with its summary,
// tag, envelope schemas, examples and 429; and the server agrees with it, on REST and on native tRPC.
import { Validator } from '@seriousme/openapi-schema-validator';
import * as assert from 'uvu/assert';
import superjson from 'superjson';
import { appRouter } from '../../server/router';
import { documentOperations, resolveRef } from '../support/openapi-operations';
import { serverSuite } from '../support/server-suite';
import { SIGNED_IN_FIELDS } from '../support/sign-up';

type TAuth = 'public' | 'token';
/** Every endpoint of the interface contract with its auth column (restore: the creator's token); docs/decisions.md. */
const CONTRACT: Record<string, [method: string, path: string, auth: TAuth][]> = {
  assembly: [
    ['get', '/assembly/list', 'public'],
    ['get', '/assembly/item', 'public'],
    ['post', '/assembly/publish', 'token'],
    ['post', '/assembly/edit', 'token'],
    ['post', '/assembly/delete', 'token'],
    ['get', '/assembly/attr', 'public'],
    ['get', '/assembly/trash', 'token'],
    ['post', '/assembly/restore', 'token'],
  ],
  drop: [
    ['get', '/drop/current', 'public'],
    ['get', '/drop/history', 'public'],
    ['get', '/drop/{id}', 'public'],
  ],
  stateOfWar: [
    ['get', '/stateOfWar/latest', 'public'],
    ['get', '/stateOfWar/season/{season}', 'public'],
    ['get', '/stateOfWar/seasons', 'public'],
    ['get', '/stateOfWar/history', 'public'],
  ],
  map: [
    ['get', '/map/collections', 'token'],
    ['get', '/map/collection/{uuid}', 'public'],
    ['post', '/map/collection', 'token'],
    ['put', '/map/collection/{uuid}', 'token'],
    ['delete', '/map/collection/{uuid}', 'token'],
  ],
  subscription: [
    ['get', '/subscription/plans', 'public'],
    ['get', '/subscription/progress', 'public'],
    ['get', '/subscription/hall', 'public'],
    ['get', '/subscription/my-status', 'token'],
    ['get', '/subscription/my-orders', 'token'],
    ['post', '/subscription/orders/create', 'token'],
    ['post', '/subscription/orders/{orderId}/cancel', 'token'],
  ],
  calendar: [['get', '/calendar/data', 'public']],
  user: [
    ['post', '/user/signin', 'public'],
    ['post', '/user/signup', 'public'],
    ['get', '/user/me', 'token'],
    ['get', '/user/info', 'public'],
  ],
  captcha: [['get', '/captcha', 'public']],
};
/** Domains built in parallel branches: checked in full as soon as any of their paths is mounted. */
const LATER_DOMAINS = new Set(['assembly', 'drop', 'stateOfWar', 'calendar']);

type TJson = Record<string, any>;

/** The document's operations, with the method in lower case as the document writes it. */
function operations(document: TJson): { method: string; path: string; operation: TJson }[] {
  return documentOperations(document).map(({ method, path, operation }) => ({
    method: method.toLowerCase(),
    path,
    operation,
  }));
}

function sampleParam(name: string): string {
  return name === 'uuid' ? '3f6c8a52-1d4e-4b7a-9c0e-5a2b7d9e1f34' : 'sample-1';
}

const Document = serverSuite<{ document: TJson }>(
  'OpenAPI document: valid, complete, with auth, examples and envelope',
  {
    setUp: async (context) => {
      const response = await fetch(`${context.app.url}/api/openapi.json`);
      assert.is(response.status, 200);
      context.document = (await response.json()) as TJson;
    },
  },
);

Document('validates against the OpenAPI 3.1 schema and every $ref resolves', async ({ document }) => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  assert.equal(result.errors, undefined, JSON.stringify(result.errors, null, 2)?.slice(0, 2000));
  assert.ok(result.valid);
  assert.is(validator.version, '3.1');
  const resolved = validator.resolveRefs() as TJson;
  assert.is(
    resolved.paths['/user/me'].get.responses['401'].content['application/json'].schema.required.join(),
    'code,message,data',
  );
});

Document('the validator is not a rubber stamp: a broken document is refused', async ({ document }) => {
  const broken = structuredClone(document);
  delete broken.paths['/user/me'].get.responses;
  broken.info.version = 42;
  const result = await new Validator().validate(broken);
  assert.is(result.valid, false);
});

Document('names every contract path of the mounted domains with its method and auth requirement', ({ document }) => {
  assert.equal(document.components.securitySchemes.bearerAuth, {
    type: 'http',
    scheme: 'bearer',
    description: 'Session token from /user/signin',
  });
  assert.is(document.servers[0].url, '/api');
  let checked = 0;
  for (const [domain, endpoints] of Object.entries(CONTRACT)) {
    const mounted = endpoints.some(([, path]) => document.paths[path] !== undefined);
    if (LATER_DOMAINS.has(domain) && !mounted) continue;
    for (const [method, path, auth] of endpoints) {
      const operation = document.paths[path]?.[method];
      assert.ok(operation, `${method.toUpperCase()} ${path} is missing from the document`);
      if (auth === 'token') {
        assert.equal(operation.security, [{ bearerAuth: [] }], `${path} declares the bearer token`);
        assert.ok(operation.responses['401'], `${path} documents 401`);
      } else {
        assert.is(operation.security, undefined, `${path} is public`);
      }
      checked++;
    }
  }
  assert.ok(checked >= 17, `checked ${checked} contract endpoints`);
});

Document('every operation: summary, tag, envelope schemas, examples, 429 with Retry-After', ({ document }) => {
  assert.equal(document.components.schemas.ErrorEnvelope.required, ['code', 'message', 'data']);
  for (const { method, path, operation } of operations(document)) {
    const name = `${method.toUpperCase()} ${path}`;
    assert.type(operation.summary, 'string', `${name} summary`);
    assert.ok(operation.tags?.length >= 1, `${name} tag`);
    const feed = operation.responses['200'].content['text/calendar'];
    const csv = operation.responses['200'].content['text/csv; charset=utf-8'];
    const image = operation.responses['200'].content['image/png'];
    if (image) {
      // The other exception (issue 19): an uploaded avatar answers its bytes, as one of the four image types; errors stay envelopes.
      assert.is(path, '/user/avatar/{userId}', `${name}: only uploaded avatars answer images`);
      assert.equal(Object.keys(operation.responses['200'].content).sort(), [
        'image/gif',
        'image/jpeg',
        'image/png',
        'image/webp',
      ]);
      assert.equal(image.schema, { type: 'string', format: 'binary' });
    } else if (csv) {
      // The third (issue 35): an export streams its text, CSV or a JSON array, not an envelope; errors stay envelopes.
      assert.is(path, '/privilege/export', `${name}: only the privilege export streams CSV`);
      assert.equal(Object.keys(operation.responses['200'].content), [
        'text/csv; charset=utf-8',
        'application/json; charset=utf-8',
      ]);
      assert.is(operation.responses['200'].content['application/json; charset=utf-8'].schema.type, 'array');
    } else if (feed) {
      // The documented exception: the iCalendar feeds answer their raw text (meta.rawResponse); errors stay envelopes.
      assert.ok(/\.ics$/.test(path), `${name}: only the iCalendar feeds answer text/calendar`);
      assert.is(feed.schema.type, 'string');
      assert.match(feed.example, /^BEGIN:VCALENDAR\r\n/);
    } else {
      const success = operation.responses['200'].content['application/json'];
      // Beside the envelope, the fields some web client views read at the body's top level (issue 34:
      // meta.topLevel, test/cross-cutting/top-level-fields.test.ts); never on the contract's endpoints.
      const beside = success.schema.required.slice(3);
      assert.equal(success.schema.required.slice(0, 3), ['code', 'message', 'data'], `${name} success envelope`);
      if (beside.length > 0)
        assert.not.ok(
          Object.values(CONTRACT).some((endpoints) => endpoints.some(([m, p]) => m === method && p === path)),
          `${name}: a contract endpoint answers the envelope alone`,
        );
      assert.equal(success.example.code, 200);
      assert.is(success.example.message, 'success');
      assert.type(success.example.data, 'object', `${name} example data`);
    }
    for (const [status, named] of Object.entries<TJson>(operation.responses)) {
      if (status === '200') continue;
      const media = resolveRef(document, named).content['application/json'];
      assert.is(media.schema.$ref, '#/components/schemas/ErrorEnvelope', `${name} ${status}`);
      assert.is(media.example.code, Number(status), `${name} ${status} example code`);
    }
    // Every operation but /health (outside the rate limit) may answer 429, and says when to retry.
    if (path === '/health') assert.not.ok(operation.responses['429'], `${name}: no 429`);
    else
      assert.is(
        resolveRef(document, operation.responses['429']).headers['Retry-After'].$ref,
        '#/components/headers/Retry-After',
      );
  }
  const signin = document.paths['/user/signin'].post.responses['200'].content['application/json'].example;
  assert.equal(Object.keys(signin.data).sort(), SIGNED_IN_FIELDS);
  assert.is(
    new Date(signin.data.expiresAt).toISOString(),
    signin.data.expiresAt,
    'an ISO instant, recorded from a real sign-in',
  );
  assert.equal(signin.data.role, ['normal']);
});

Document(
  'the server agrees with the document: protected operations answer 401 without a token, on REST',
  async ({ app, document }) => {
    let protectedCount = 0;
    for (const { method, path, operation } of operations(document)) {
      const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => sampleParam(name));
      if (operation.security) {
        const response = await app.rest(
          method.toUpperCase(),
          `/api${concrete}`,
          method === 'get' || method === 'delete' ? {} : { body: {} },
        );
        assert.is(response.status, 401, `${method.toUpperCase()} ${path}: ${response.text}`);
        assert.is(response.body.code, 401);
        protectedCount++;
      } else if (method === 'get') {
        const response = await app.rest('GET', `/api${concrete}`);
        assert.ok([200, 400, 404].includes(response.status), `GET ${path}: ${response.status}`);
        assert.is(response.body.code, response.status);
        assert.not.match(response.body.message, /No route for/, `GET ${path} is routed`);
      }
    }
    assert.ok(protectedCount >= 10, `${protectedCount} protected operations`);
  },
);

Document('…and on native tRPC: every protected procedure answers 401 without a token', async ({ app }) => {
  let count = 0;
  for (const [path, procedure] of Object.entries<any>(appRouter._def.procedures)) {
    const meta = procedure._def.meta?.openapi;
    if (!meta?.protect) continue;
    const input = encodeURIComponent(JSON.stringify(superjson.serialize({})));
    const response =
      procedure._def.type === 'query'
        ? await fetch(`${app.url}/trpc/${path}?input=${input}`)
        : await fetch(`${app.url}/trpc/${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(superjson.serialize({})),
          });
    assert.is(response.status, 401, `tRPC ${path}`);
    const body = (await response.json()) as TJson;
    assert.is(body.error.json.data.httpStatus, 401);
    count++;
  }
  assert.ok(count >= 10);
});

Document.run();
