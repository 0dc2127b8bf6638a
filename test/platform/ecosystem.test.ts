import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { VERSION } from '../../server/app';
import { Counter, Histogram, Registry } from 'prom-client';
import { createRouteLabeler } from '../../server/http/metrics';
import { RequestStats } from '../../server/http/request-stats';
import { matchedRouteOf, RouteTable, routePathOf } from '../../server/rest/routes';
import { appRouter } from '../../server/router';
import { configWith, loadConfig, type TConfig } from '../../server/config';
import { createLogger } from '../../server/logger';
import { startServer, type TRunningServer } from '../../server/server';
import { GENEROUS_LIMITS, rest, TestClock, trpcClient, trpcError } from '../support/helpers';

interface TLoggedServer extends TRunningServer {
  clock: TestClock;
  lines: () => Record<string, any>[];
  logText: () => string;
  stop: () => Promise<void>;
}

/** The real app with the real logger configuration, writing its JSON lines to memory. */
async function startLoggedServer(overrides: Partial<TConfig> = {}): Promise<TLoggedServer> {
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-eco-'));
  const chunks: string[] = [];
  const logger = createLogger('info', { write: (chunk: string) => void chunks.push(chunk) });
  const clock = new TestClock();
  const running = await startServer(
    configWith({
      PORT: 0,
      DATABASE_URL: `file:${join(dir, 'eco.db')}`,
      SEED_DEMO: false,
      ...GENEROUS_LIMITS,
      ...overrides,
    }),
    { logger, now: clock.now },
  );
  const logText = () => chunks.join('');
  return {
    ...running,
    clock,
    logText,
    lines: () =>
      logText()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    async stop() {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The log line of one request is written when its response closes, just after the client has it. */
async function requestLine(server: TLoggedServer, requestId: string): Promise<Record<string, any>> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const line = server.lines().find((entry) => entry.msg === 'request' && entry.requestId === requestId);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no request log line for ${requestId}`);
}

async function signUp(url: string, username: string) {
  const password = `pw-${randomUUID()}`;
  const response = await rest(url, 'POST', '/api/user/signup', {
    body: { username, email: `${username}@example.test`, password },
  });
  assert.is(response.status, 200, response.text);
  return { token: response.body.data.token as string, password, requestId: response.headers.get('x-request-id')! };
}

/** Parses Prometheus text into `name{labels}` → value. */
function parseMetrics(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    values.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return values;
}

// ---------------------------------------------------------------------------------------------

const Logging = suite<{ server: TLoggedServer }>('request logging: one JSON line per request, no secrets');

Logging.before(async (context) => {
  context.server = await startLoggedServer();
});
Logging.after(async (context) => {
  await context.server.stop();
});

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

// ---------------------------------------------------------------------------------------------

const Metrics = suite<{ server: TLoggedServer }>(
  'GET /metrics: Prometheus text with request counts, latency, DB size, sessions',
);

Metrics.before(async (context) => {
  context.server = await startLoggedServer();
});
Metrics.after(async (context) => {
  await context.server.stop();
});

async function scrape(
  url: string,
  token?: string,
): Promise<{ status: number; type: string | null; text: string; values: Map<string, number> }> {
  const response = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), text, values: parseMetrics(text) };
}

Metrics('counts and latency histograms by method, route template and status on both surfaces', async ({ server }) => {
  const user = await signUp(server.url, 'metered');
  for (let index = 0; index < 3; index++)
    assert.is((await rest(server.url, 'GET', '/api/user/me', { token: user.token })).status, 200);
  assert.is((await rest(server.url, 'GET', '/api/user/me')).status, 401);
  for (let index = 0; index < 2; index++) {
    assert.is((await rest(server.url, 'GET', `/api/map/collection/${randomUUID()}`)).status, 404);
  }
  assert.is((await rest(server.url, 'GET', '/api/no/such/path')).status, 404);
  assert.is((await rest(server.url, 'GET', '/wp-login.php')).status, 404);
  await trpcClient(server.url, user.token).user.me.query({});
  await trpcClient(server.url, user.token).user.me.query({});

  const { status, type, text, values } = await scrape(server.url);
  assert.is(status, 200);
  assert.match(type!, /^text\/plain; version=0\.0\.4/);
  const requests = (method: string, route: string, code: number) =>
    values.get(`tidewatch_http_requests_total{method="${method}",route="${route}",status="${code}"}`);
  assert.is(requests('POST', '/api/user/signup', 200), 1);
  assert.is(requests('GET', '/api/user/me', 200), 3);
  assert.is(requests('GET', '/api/user/me', 401), 1);
  assert.is(requests('GET', '/api/map/collection/{uuid}', 404), 2, 'parameter paths collapse to their template');
  assert.is(requests('GET', '(unmatched)', 404), 2, 'unknown paths share one label');
  assert.is(requests('GET', '/trpc/user.me', 200), 2);
  assert.is(
    values.get('tidewatch_http_request_duration_seconds_count{method="GET",route="/api/user/me",status="200"}'),
    3,
  );
  assert.is(
    values.get(
      'tidewatch_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/user/me",status="200"}',
    ),
    3,
  );
  assert.ok(
    (values.get('tidewatch_http_request_duration_seconds_sum{method="GET",route="/api/user/me",status="200"}') ?? -1) >
      0,
  );
  assert.not.ok(text.includes('wp-login'), 'raw paths never become labels');
  assert.match(text, /# TYPE tidewatch_http_request_duration_seconds histogram/);
  assert.match(text, /# TYPE process_cpu_user_seconds_total counter/, 'Node process metrics too');
  assert.is(values.get(`tidewatch_build_info{version="${VERSION}"}`), 1);
});

Metrics('database size equals page_count * page_size; active sessions count unexpired sessions', async ({ server }) => {
  await signUp(server.url, 'session_a');
  await signUp(server.url, 'session_b');
  const before = (await scrape(server.url)).values.get('tidewatch_active_sessions')!;
  const third = await signUp(server.url, 'session_c');
  assert.is((await scrape(server.url)).values.get('tidewatch_active_sessions'), before + 1);
  assert.is((await rest(server.url, 'POST', '/api/user/signout', { token: third.token })).status, 200);
  const { values } = await scrape(server.url);
  assert.is(values.get('tidewatch_active_sessions'), before, 'a signed-out session no longer counts');
  const row = await server.database.db.get<{ pages: number; size: number }>(
    sql`select (select page_count from pragma_page_count()) as pages, (select page_size from pragma_page_size()) as size`,
  );
  assert.is(values.get('tidewatch_db_size_bytes'), row!.pages * row!.size);
  assert.ok(row!.pages * row!.size >= 4096);
  // Sessions last 30 days: past that, none is active.
  server.clock.advance(31 * 24 * 3600 * 1000);
  assert.is((await scrape(server.url)).values.get('tidewatch_active_sessions'), 0);
});

Metrics('/metrics is open without METRICS_TOKEN and answers only GET and HEAD', async ({ server }) => {
  const head = await fetch(`${server.url}/metrics`, { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(await head.text(), '');
  const post = await rest(server.url, 'POST', '/metrics', { body: {} });
  assert.is(post.status, 405);
  assert.is(post.body.code, 405);
  assert.is(post.headers.get('allow'), 'GET, HEAD');
});

Metrics.run();

// ---------------------------------------------------------------------------------------------

const Labels = suite("route labels of logs and metrics: the REST route table's own rule");

Labels('static paths win over parameter routes, one trailing slash is dropped, unknown names share one label', () => {
  const routes = RouteTable.fromRouter(appRouter);
  const label = createRouteLabeler(appRouter, routes);
  const cases: [string, string][] = [
    ['/api/drop/current', '/api/drop/current'],
    ['/api/drop/current/', '/api/drop/current'],
    ['/api/drop/history', '/api/drop/history'],
    ['/api/drop/42', '/api/drop/{id}'],
    ['/api/drop/42/', '/api/drop/{id}'],
    [`/api/map/collection/${randomUUID()}`, '/api/map/collection/{uuid}'],
    ['/api/stateOfWar/seasons', '/api/stateOfWar/seasons'],
    ['/api/stateOfWar/season/y2s4', '/api/stateOfWar/season/{season}'],
    ['/api/no/such/path', '(unmatched)'],
    ['/api/docs/constructor', '/api/docs'],
    ['/trpc/user.me', '/trpc/user.me'],
    ['/trpc/user.me,drop.getCurrent', '/trpc/(batch)'],
    ['/trpc/constructor', '/trpc/(unknown)'],
  ];
  for (const [path, expected] of cases) assert.is(label(path), expected, path);
  // The handler serves what the labels name: the same table, the same trailing-slash rule.
  assert.is(routes.match('GET', routePathOf('/drop/current/')).kind, 'found');
  assert.is(routes.templateOf(routePathOf('/drop/7/')), '/drop/{id}');
  // A request the handler routed is labelled with the route it recorded, without matching again.
  const req = { headers: {} } as IncomingMessage;
  assert.is(routes.matchRequest(req, 'GET', '/drop/history').kind, 'found');
  assert.is(matchedRouteOf(req), '/drop/history');
  assert.is(label('/api/drop/history', req), '/api/drop/history');
  const unrouted = { headers: {} } as IncomingMessage;
  assert.is(matchedRouteOf(unrouted), undefined);
  assert.is(label('/api/drop/7', unrouted), '/api/drop/{id}');
});

Labels(
  "request counts and durations render as prom-client's own Counter and Histogram would, line for line",
  async () => {
    const bounds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
    const names = { requests: 'tidewatch_http_requests_total', duration: 'tidewatch_http_request_duration_seconds' };
    const reference = new Registry();
    const labelNames = ['method', 'route', 'status'] as const;
    const counter = new Counter({ name: names.requests, help: 'requests', labelNames, registers: [reference] });
    const histogram = new Histogram({
      name: names.duration,
      help: 'durations',
      labelNames,
      buckets: bounds,
      registers: [reference],
    });
    const ours = new Registry();
    const stats = new RequestStats(names, bounds);
    stats.register(ours, { requests: 'requests', duration: 'durations' });
    // On a bound, above the last one, a label value that needs escaping.
    const observed: [string, string, number, number][] = [
      ['GET', '/api/x', 200, 0.003],
      ['GET', '/api/x', 200, 0.005],
      ['GET', '/api/x', 200, 0.2],
      ['POST', '/api/y "q"\\', 404, 20],
      ['GET', '/api/x', 200, 10],
    ];
    for (const [method, route, status, seconds] of observed) {
      counter.inc({ method, route, status: String(status) });
      histogram.observe({ method, route, status: String(status) }, seconds);
      stats.observe(method, route, status, seconds);
    }
    assert.is(await ours.metrics(), await reference.metrics());
    // JSON (not served, but the registry offers it): each histogram line carries every label.
    const duration = (await ours.getMetricsAsJSON()).find((metric) => metric.name === names.duration);
    const count = duration?.values.find(
      (value) => (value as { metricName?: string }).metricName === `${names.duration}_count`,
    );
    assert.equal(count?.labels, { method: 'GET', route: '/api/x', status: '200' });
    ours.resetMetrics();
    assert.not.match(await ours.metrics(), /_count\{/);
  },
);

Labels.run();

const Protected = suite<{ server: TLoggedServer }>('/metrics behind METRICS_TOKEN, outside the rate limit');
const METRICS_TOKEN = 'scrape-token-0123456789';

Protected.before(async (context) => {
  context.server = await startLoggedServer({ METRICS_TOKEN, RATE_LIMIT_GLOBAL: 3 });
});
Protected.after(async (context) => {
  await context.server.stop();
});

Protected('no token, a wrong token or a user session token: 401 envelope with WWW-Authenticate', async ({ server }) => {
  const user = await signUp(server.url, 'not_a_scraper');
  for (const token of [undefined, 'scrape-token-0123456788', user.token]) {
    const response = await rest(server.url, 'GET', '/metrics', { token });
    assert.is(response.status, 401);
    assert.is(response.body.code, 401);
    assert.match(response.body.message, /METRICS_TOKEN/);
    assert.is(response.headers.get('www-authenticate'), 'Bearer realm="metrics"');
    assert.not.ok(response.text.includes('tidewatch_http_requests_total'));
  }
});

Protected(
  'the right token as Bearer or x-access-token gets the metrics, past the global limit of 3/min',
  async ({ server }) => {
    for (let index = 0; index < 5; index++) {
      const { status, values } = await scrape(server.url, METRICS_TOKEN);
      assert.is(status, 200);
      assert.ok(values.has('tidewatch_active_sessions'));
    }
    const viaHeader = await fetch(`${server.url}/metrics`, { headers: { 'x-access-token': METRICS_TOKEN } });
    assert.is(viaHeader.status, 200);
    // The global limit still applies to the API itself.
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) statuses.push((await rest(server.url, 'GET', '/api/captcha')).status);
    assert.ok(statuses.includes(429), `statuses ${statuses}`);
  },
);

Protected('METRICS_TOKEN is validated: shorter than 16 characters stops start-up', () => {
  assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), /METRICS_TOKEN: must be at least 16 characters/);
  assert.is(loadConfig({ METRICS_TOKEN }).METRICS_TOKEN, METRICS_TOKEN);
});

Protected.run();
