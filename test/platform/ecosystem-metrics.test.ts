// GET /metrics: Prometheus text with request counts and latency by route template, the database size and
// the active sessions; open without METRICS_TOKEN, behind it (401 with WWW-Authenticate) with one, and
// outside the global rate limit either way.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { VERSION } from '../../server/app';
import { loadConfig } from '../../server/config';
import { rest, trpcClient } from '../support/http-clients';
import { loggedServerSuite, signUp } from './ecosystem-fixtures';

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

/** GET /metrics (with `token` as Bearer): the status, the content type, the text and its values. */
async function scrape(
  url: string,
  token?: string,
): Promise<{ status: number; type: string | null; text: string; values: Map<string, number> }> {
  const response = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), text, values: parseMetrics(text) };
}

const Metrics = loggedServerSuite('GET /metrics: Prometheus text with request counts, latency, DB size, sessions');

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

const METRICS_TOKEN = 'scrape-token-0123456789';
const Protected = loggedServerSuite('/metrics behind METRICS_TOKEN, outside the rate limit', {
  METRICS_TOKEN,
  RATE_LIMIT_GLOBAL: 3,
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
