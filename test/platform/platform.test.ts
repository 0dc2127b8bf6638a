import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { z } from 'zod';
import { AppError } from '../../server/errors';
import { zBool, zInt, zPageInput } from '../../server/schemas';
import { publicProcedure, router } from '../../server/trpc';
import { serveRestRouter, startTestServer, type TTestServer } from '../support/helpers';

const Envelope = suite<{ app: TTestServer }>('REST envelope on every error class');

Envelope.before(async (context) => {
  context.app = await startTestServer();
});
Envelope.after(async (context) => {
  await context.app.stop();
});

function assertEnvelope(response: { status: number; body: any }, status: number) {
  assert.is(response.status, status);
  assert.is(response.body.code, status, 'envelope code equals HTTP status');
  assert.type(response.body.message, 'string');
  assert.type(response.body.data, 'object');
}

Envelope('success has code 200, message "success" and data', async ({ app }) => {
  const response = await app.rest('GET', '/api/health');
  assertEnvelope(response, 200);
  assert.is(response.body.message, 'success');
  assert.is(response.body.data.status, 'ok');
  assert.is(response.body.data.database, 'ok');
  assert.is(response.body.data.redis, 'off', 'one process without REDIS_URL');
  assert.ok(response.headers.get('x-request-id'));
});

Envelope('unknown path is a 404 envelope, inside and outside /api', async ({ app }) => {
  assertEnvelope(await app.rest('GET', '/api/no/such/thing'), 404);
  assertEnvelope(await app.rest('GET', '/elsewhere'), 404);
  assertEnvelope(await app.rest('POST', '/api'), 404);
});

Envelope('wrong method is a 405 envelope with Allow', async ({ app }) => {
  // POST /user/me exists now (the web client's profile edit): PUT is the wrong method there.
  const response = await app.rest('PUT', '/api/user/me');
  assertEnvelope(response, 405);
  assert.is(response.headers.get('allow'), 'GET, POST');
  assertEnvelope(await app.rest('DELETE', '/api/user/signin'), 405);
});

Envelope('malformed JSON is a 400 envelope', async ({ app }) => {
  const response = await app.rest('POST', '/api/user/signin', {
    rawBody: '{"username": "x",',
    headers: { 'content-type': 'application/json' },
  });
  assertEnvelope(response, 400);
  assert.match(response.body.message, /Malformed JSON/);
});

Envelope('a JSON body that is not an object is a 400', async ({ app }) => {
  const response = await app.rest('POST', '/api/user/signin', {
    rawBody: '[1,2]',
    headers: { 'content-type': 'application/json' },
  });
  assertEnvelope(response, 400);
  assert.match(response.body.message, /JSON object/);
});

Envelope('non-JSON body is a 415 envelope', async ({ app }) => {
  const response = await app.rest('POST', '/api/user/signin', {
    rawBody: 'username=a&password=b',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assertEnvelope(response, 415);
  const missing = await app.rest('POST', '/api/user/signin', { rawBody: '{}' });
  assertEnvelope(missing, 415);
});

Envelope('body over 1 MB is a 413 envelope', async ({ app }) => {
  const big = JSON.stringify({ username: 'x'.repeat(1024 * 1024 + 10), password: 'y' });
  const response = await app.rest('POST', '/api/user/signin', {
    rawBody: big,
    headers: { 'content-type': 'application/json' },
  });
  assertEnvelope(response, 413);
});

Envelope('invalid input is a 400 naming the field, with issues', async ({ app }) => {
  const response = await app.rest('POST', '/api/user/signup', {
    body: { username: 'ok_name', email: 'nope', password: 'long enough' },
  });
  assertEnvelope(response, 400);
  assert.match(response.body.message, /email/);
  assert.equal(response.body.data.issues, [{ path: 'email', message: 'must be a valid e-mail address' }]);
});

Envelope('missing required query field is a 400 naming it', async ({ app }) => {
  const response = await app.rest('GET', '/api/user/info');
  assertEnvelope(response, 400);
  assert.match(response.body.message, /id/);
});

Envelope('malformed percent-encoding in the path is a 400, not a crash', async ({ app }) => {
  assertEnvelope(await app.rest('GET', '/api/%E0%A4%A'), 404);
});

Envelope('openapi.json lists every procedure with its schemas', async ({ app }) => {
  const response = await app.rest('GET', '/api/openapi.json');
  assert.is(response.status, 200);
  const document = response.body as any;
  assert.is(document.openapi, '3.1.0');
  for (const [path, method] of [
    ['/user/signup', 'post'],
    ['/user/signin', 'post'],
    ['/user/me', 'get'],
    ['/user/info', 'get'],
    ['/user/signout', 'post'],
    ['/captcha', 'get'],
    ['/health', 'get'],
  ] as const) {
    const operation = document.paths[path]?.[method];
    assert.ok(operation, `${method.toUpperCase()} ${path} documented`);
    const okSchema = operation.responses['200'].content['application/json'].schema;
    assert.equal(Object.keys(okSchema.properties), ['code', 'message', 'data'], `${path} documents the envelope`);
  }
  assert.equal(document.paths['/user/me'].get.security, [{ bearerAuth: [] }]);
  assert.is(document.paths['/user/signin'].post.security, undefined);
  assert.ok(document.paths['/user/signup'].post.requestBody.content['application/json'].schema.properties.password);
});

Envelope('docs page is served from the package, no CDN', async ({ app }) => {
  const page = await app.rest('GET', '/api/docs');
  assert.is(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /text\/html/);
  assert.not.match(page.text, /https?:\/\//);
  const bundle = await fetch(`${app.url}/api/docs/swagger-ui-bundle.js`);
  assert.is(bundle.status, 200);
  assert.ok((await bundle.arrayBuffer()).byteLength > 100_000);
});

Envelope('GET responses carry an ETag and answer 304 to If-None-Match', async ({ app }) => {
  const { id } = await app.signUp();
  const first = await app.rest('GET', `/api/user/info?id=${id}`);
  const etag = first.headers.get('etag');
  assert.ok(etag);
  const second = await fetch(`${app.url}/api/user/info?id=${id}`, { headers: { 'if-none-match': etag! } });
  assert.is(second.status, 304);
  assert.is(await second.text(), '');
});

Envelope.run();

// --- The adapter itself, on routers built here ---

const Routing = suite('REST routing: static paths win, case-sensitive, 500s reveal nothing');

const probe = (_name: string) =>
  publicProcedure
    .input(z.object({ id: z.string().optional() }))
    .output(z.object({ served: z.string(), id: z.string().optional() }));

// Parameter route defined FIRST: the adapter must still send /drop/current to the static route.
const routingRouter = router({
  byId: probe('byId')
    .meta({ openapi: { method: 'GET', path: '/drop/{id}', protect: false } })
    .input(z.object({ id: z.string() }))
    .query(({ input }) => ({ served: 'byId', id: input.id })),
  current: probe('current')
    .meta({ openapi: { method: 'GET', path: '/drop/current', protect: false } })
    .query(() => ({ served: 'current' })),
  history: probe('history')
    .meta({ openapi: { method: 'GET', path: '/drop/history', protect: false } })
    .query(() => ({ served: 'history' })),
  nested: probe('nested')
    .meta({ openapi: { method: 'POST', path: '/orders/{id}/cancel', protect: false } })
    .input(z.object({ id: z.string() }))
    .mutation(({ input }) => ({ served: 'cancel', id: input.id })),
  crash: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/crash', protect: false } })
    .input(z.object({}))
    .output(z.object({}))
    .query(() => {
      throw new Error('SQLITE_CORRUPT: secret table internals at /srv/db');
    }),
  badOutput: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/bad-output', protect: false } })
    .input(z.object({}))
    .output(z.object({ n: z.number() }))
    .query(() => ({ n: 'not a number' }) as unknown as { n: number }),
  conflict: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/conflict', protect: false } })
    .input(z.object({}))
    .output(z.object({}))
    .mutation(() => {
      throw new AppError('TOO_MANY_REQUESTS', 'Slow down', { retryAfterSeconds: 7 });
    }),
  flags: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/flags', protect: false } })
    .input(z.object({ force: zBool().optional(), ...zPageInput(10), n: zInt({ min: -5, max: 5 }).optional() }))
    .output(
      z.object({ force: z.boolean().optional(), page: z.number(), pageSize: z.number(), n: z.number().optional() }),
    )
    .query(({ input }) => input),
  flagsBody: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/flags', protect: false } })
    .input(z.object({ force: zBool() }))
    .output(z.object({ force: z.boolean() }))
    .mutation(({ input }) => input),
});

let served: { url: string; close: () => Promise<void> };
Routing.before(async () => {
  served = await serveRestRouter(routingRouter);
});
Routing.after(async () => {
  await served.close();
});

async function get(path: string, init?: RequestInit) {
  const response = await fetch(`${served.url}/api${path}`, init);
  return { status: response.status, body: (await response.json()) as any, headers: response.headers };
}

Routing('static paths beat a parameter path defined before them', async () => {
  assert.is((await get('/drop/current')).body.data.served, 'current');
  assert.is((await get('/drop/history')).body.data.served, 'history');
  assert.equal((await get('/drop/42')).body.data, { served: 'byId', id: '42' });
  assert.equal((await get('/drop/current/')).body.data.served, 'current', 'trailing slash tolerated');
});

Routing('matching is case-sensitive', async () => {
  const upper = await get('/drop/Current');
  assert.equal(upper.body.data, { served: 'byId', id: 'Current' });
  assert.is((await get('/DROP/current')).status, 404);
});

Routing('path parameters are decoded and nested parameter paths route', async () => {
  assert.equal((await get('/drop/a%20b')).body.data, { served: 'byId', id: 'a b' });
  const cancel = await get('/orders/o-1/cancel', { method: 'POST' });
  assert.equal(cancel.body.data, { served: 'cancel', id: 'o-1' });
  assert.is((await get('/drop/%E0%A4%A')).status, 400);
});

Routing('unexpected exceptions are a 500 with a request id and no internals', async () => {
  const response = await get('/crash');
  assert.is(response.status, 500);
  assert.is(response.body.code, 500);
  assert.is(response.body.message, 'Internal server error');
  assert.is(response.body.data.requestId, 'test-request');
  assert.not.match(JSON.stringify(response.body), /SQLITE|secret|\/srv/);
  const output = await get('/bad-output');
  assert.is(output.status, 500);
  assert.not.match(JSON.stringify(output.body), /number/);
});

Routing('429 carries Retry-After', async () => {
  const response = await fetch(`${served.url}/api/conflict`, { method: 'POST' });
  assert.is(response.status, 429);
  assert.is(response.headers.get('retry-after'), '7');
});

Routing('booleans: "false" is false, "0" is false, "yes" is a 400', async () => {
  assert.is((await get('/flags?force=false')).body.data.force, false);
  assert.is((await get('/flags?force=0')).body.data.force, false);
  assert.is((await get('/flags?force=true')).body.data.force, true);
  assert.is((await get('/flags?force=1')).body.data.force, true);
  assert.is((await get('/flags?force=yes')).status, 400);
  assert.is((await get('/flags?force=')).status, 400);
  const body = async (value: unknown) =>
    fetch(`${served.url}/api/flags`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ force: value }),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
  assert.is((await body(false)).body.data.force, false);
  assert.is((await body('false')).body.data.force, false);
  assert.is((await body(0)).body.data.force, false);
  assert.is((await body(true)).body.data.force, true);
  assert.is((await body('nope')).status, 400);
  assert.is((await body(2)).status, 400);
});

Routing('numbers: defaults, bounds, and garbage rejected', async () => {
  assert.equal((await get('/flags')).body.data, { page: 1, pageSize: 10 });
  assert.equal((await get('/flags?page=3&pageSize=100&n=-5')).body.data, { page: 3, pageSize: 100, n: -5 });
  const tooBig = await get('/flags?pageSize=101');
  assert.is(tooBig.status, 400);
  assert.match(tooBig.body.message, /pageSize/);
  assert.is((await get('/flags?page=0')).status, 400);
  assert.is((await get('/flags?page=1.5')).status, 400);
  assert.is((await get('/flags?page=abc')).status, 400);
  assert.is((await get('/flags?page=1e3')).status, 400);
  assert.is((await get('/flags?n=6')).status, 400);
});

Routing.run();
