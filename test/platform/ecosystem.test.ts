// Request logging: one JSON line per request (request id, method, route template, path, status, duration),
// written by the real app with the real logger configuration, with no token, password, body or query
// string in it. /metrics is in ecosystem-metrics.test.ts, the route labels both use in
// ecosystem-labels.test.ts.
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import * as assert from 'uvu/assert';
import { rest, trpcClient, trpcError } from '../support/http-clients';
import { loggedServerSuite, signUp, type TLoggedServer } from './ecosystem-fixtures';

/** The log line of one request is written when its response closes, just after the client has it. */
async function requestLine(server: TLoggedServer, requestId: string): Promise<Record<string, any>> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const line = server.lines().find((entry) => entry.msg === 'request' && entry.requestId === requestId);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no request log line for ${requestId}`);
}

const Logging = loggedServerSuite('request logging: one JSON line per request, no secrets');

Logging('a REST request logs request id, method, route template, path, status and duration', async ({ server }) => {
  const response = await rest(server.url, 'GET', `/api/map/collection/${randomUUID()}`);
  assert.is(response.status, 404);
  const requestId = response.headers.get('x-request-id')!;
  const line = await requestLine(server, requestId);
  assert.is(line.level, 30);
  assert.is(line.service, 'tidewatch');
  assert.is(line.method, 'GET');
  assert.is(line.route, '/api/map/collection/{uuid}');
  assert.match(line.path, /^\/api\/map\/collection\/[0-9a-f-]{36}$/);
  assert.is(line.status, 404);
  assert.type(line.durationMs, 'number');
  assert.ok(line.durationMs >= 0 && line.durationMs < 10_000, `durationMs ${line.durationMs}`);
  assert.is(line.aborted, undefined);
});

Logging('a caller-supplied X-Request-Id is echoed and logged; a malformed one is replaced', async ({ server }) => {
  const given = await rest(server.url, 'GET', '/api/health', { headers: { 'x-request-id': 'trace-abc.123' } });
  assert.is(given.headers.get('x-request-id'), 'trace-abc.123');
  const line = await requestLine(server, 'trace-abc.123');
  assert.is(line.route, '/api/health');
  assert.is(line.status, 200);
  const replaced = await rest(server.url, 'GET', '/api/health', {
    headers: { 'x-request-id': 'has spaces & symbols' },
  });
  assert.match(replaced.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
});

Logging('native tRPC calls are logged with the procedure as route; unknown procedures collapse', async ({ server }) => {
  const user = await signUp(server.url, 'trpc_logged');
  await trpcClient(server.url, user.token).user.me.query({});
  const line = server.lines().filter((entry) => entry.msg === 'request' && entry.route === '/trpc/user.me');
  assert.is(line.length, 1);
  assert.is(line[0]!.status, 200);
  assert.is(line[0]!.method, 'GET');
  const unknown = await fetch(`${server.url}/trpc/no.such.procedure?input=%7B%7D`);
  assert.is(unknown.status, 404);
  const unknownLine = await requestLine(server, unknown.headers.get('x-request-id')!);
  assert.is(unknownLine.route, '/trpc/(unknown)');
  assert.is(unknownLine.path, '/trpc/no.such.procedure');
});

Logging('tokens, passwords, bodies and query strings never reach the log', async ({ server }) => {
  const user = await signUp(server.url, 'secret_keeper');
  const signin = await rest(server.url, 'POST', '/api/user/signin', {
    body: { username: 'secret_keeper', password: user.password },
  });
  assert.is(signin.status, 200);
  const me = await rest(server.url, 'GET', '/api/user/me', { token: user.token });
  assert.is(me.status, 200);
  await rest(server.url, 'GET', '/api/user/me', { headers: { 'x-access-token': signin.body.data.token } });
  await rest(server.url, 'GET', '/api/user/info?id=query-secret-value');
  await trpcError(
    trpcClient(server.url).user.signin.mutate({ username: 'secret_keeper', password: 'wrong-password-123' }),
  );
  await requestLine(server, me.headers.get('x-request-id')!);
  const text = server.logText();
  for (const secret of [
    user.token,
    signin.body.data.token,
    user.password,
    'wrong-password-123',
    'query-secret-value',
    'secret_keeper@example.test',
  ]) {
    assert.not.ok(text.includes(secret), `log contains ${secret}`);
  }
  const infoLine = server.lines().find((entry) => entry.route === '/api/user/info');
  assert.is(infoLine?.path, '/api/user/info');
  assert.is(infoLine?.status, 404);
  const signinLine = await requestLine(server, signin.headers.get('x-request-id')!);
  assert.equal(Object.keys(signinLine).sort(), [
    'durationMs',
    'level',
    'method',
    'msg',
    'path',
    'requestId',
    'route',
    'service',
    'status',
    'time',
  ]);
});

Logging('a client that hangs up mid-request is logged as 499 aborted', async ({ server }) => {
  const target = new URL('/api/user/signup', server.url);
  const requestId = `abort-${randomUUID()}`;
  await new Promise<void>((resolve) => {
    const req = request({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': 500, 'x-request-id': requestId },
    });
    req.on('error', () => resolve());
    req.write('{"username":');
    setTimeout(() => {
      req.destroy();
      resolve();
    }, 100);
  });
  const line = await requestLine(server, requestId);
  assert.is(line.status, 499);
  assert.is(line.aborted, true);
  assert.is(line.route, '/api/user/signup');
});

Logging.run();
