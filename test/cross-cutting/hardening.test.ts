import { request } from 'node:http';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { trpcError } from '../support/http-clients';

const Headers = suite<{ app: TTestServer }>('security headers and CORS');
Headers.before(async (context) => {
  context.app = await startTestServer();
});
Headers.after(async (context) => {
  await context.app.stop();
});

Headers('every response carries the security headers, errors and docs included', async ({ app }) => {
  for (const path of ['/api/health', '/api/nowhere', '/api/docs', '/nothing']) {
    const response = await fetch(`${app.url}${path}`);
    assert.is(response.headers.get('x-content-type-options'), 'nosniff', path);
    assert.ok(response.headers.get('x-frame-options'), path);
    assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'self'/, path);
    assert.ok(response.headers.get('x-request-id'), path);
  }
});

Headers('CORS: any origin, no credentials, preflight answered', async ({ app }) => {
  const simple = await fetch(`${app.url}/api/health`, { headers: { origin: 'https://tools.example' } });
  assert.is(simple.headers.get('access-control-allow-origin'), '*');
  assert.is(simple.headers.get('access-control-allow-credentials'), null);
  const preflight = await fetch(`${app.url}/api/user/me`, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://tools.example',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  });
  assert.is(preflight.status, 204);
  assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/);
  assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
});

Headers('a URL over 8 KiB is a 400 envelope; headers over 16 KiB a 431 envelope', async ({ app }) => {
  const longUrl = await app.rest('GET', `/api/user/info?id=${'x'.repeat(9000)}`);
  assert.is(longUrl.status, 400);
  assert.match(longUrl.body.message, /URL longer/);
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${app.url}/api/health`, { headers: { 'x-padding': 'y'.repeat(20_000) } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end();
  });
  assert.is(status, 431);
  assert.is(JSON.parse(body).code, 431);
});

Headers.run();

const Cors = suite<{ app: TTestServer }>('CORS from configuration');
Cors.before(async (context) => {
  context.app = await startTestServer({ CORS_ORIGINS: 'https://site.example, https://tools.example' });
});
Cors.after(async (context) => {
  await context.app.stop();
});

Cors('only configured origins are allowed', async ({ app }) => {
  const allowed = await fetch(`${app.url}/api/health`, { headers: { origin: 'https://tools.example' } });
  assert.is(allowed.headers.get('access-control-allow-origin'), 'https://tools.example');
  const other = await fetch(`${app.url}/api/health`, { headers: { origin: 'https://evil.example' } });
  assert.is(other.headers.get('access-control-allow-origin'), null);
});

Cors.run();

const Limits = suite<{ app: TTestServer }>('rate limits');
Limits.before(async (context) => {
  context.app = await startTestServer({
    RATE_LIMIT_GLOBAL: 1_000,
    RATE_LIMIT_SIGNIN: 1_000,
    RATE_LIMIT_SIGNIN_ACCOUNT: 3,
    RATE_LIMIT_SIGNUP: 1_000,
    RATE_LIMIT_CAPTCHA: 3,
  });
});
Limits.after(async (context) => {
  await context.app.stop();
});

Limits('RateLimit-* headers report the global budget', async ({ app }) => {
  const first = await app.rest('GET', '/api/captcha');
  assert.is(first.headers.get('ratelimit-limit'), '1000');
  const remaining = Number(first.headers.get('ratelimit-remaining'));
  const second = await app.rest('GET', '/api/user/info?id=x');
  assert.is(Number(second.headers.get('ratelimit-remaining')), remaining - 1);
  assert.ok(Number(second.headers.get('ratelimit-reset')) <= 60);
});

Limits('captcha: over the limit is a 429 with Retry-After', async ({ app }) => {
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await app.rest('GET', '/api/captcha')).status);
  // the RateLimit-* test above already took one
  assert.equal(statuses.slice(0, 2), [200, 200]);
  const limited = await app.rest('GET', '/api/captcha');
  assert.is(limited.status, 429);
  assert.is(limited.body.code, 429);
  assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  assert.is((await trpcError(app.trpc().captcha.get.query({}))).status, 429);
});

Limits(
  'sign-in: an account is locked after repeated failures, even for the right password, and others are not',
  async ({ app }) => {
    const victim = await app.signUp();
    const bystander = await app.signUp();
    for (let i = 0; i < 3; i++) {
      const wrong = await app.rest('POST', '/api/user/signin', {
        body: { username: victim.username, password: 'wrong password' },
      });
      assert.is(wrong.status, 401);
    }
    const locked = await app.rest('POST', '/api/user/signin', {
      body: { username: victim.username, password: victim.password },
    });
    assert.is(locked.status, 429);
    assert.match(locked.body.message, /failed sign-ins/);
    const retryAfter = Number(locked.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 15 * 60);
    const sameByEmail = await app.rest('POST', '/api/user/signin', {
      body: { username: victim.username.toUpperCase(), password: victim.password },
    });
    assert.is(sameByEmail.status, 429, 'the lock ignores case');
    const fine = await app.rest('POST', '/api/user/signin', {
      body: { username: bystander.username, password: bystander.password },
    });
    assert.is(fine.status, 200);
  },
);

Limits('sign-in: a success counts as no failure, but does not erase the failures of the window', async ({ app }) => {
  const sailor = await app.signUp();
  const signin = (password: string) =>
    app.rest('POST', '/api/user/signin', { body: { username: sailor.username, password } });
  for (let round = 0; round < 5; round++) assert.is((await signin(sailor.password)).status, 200, `success ${round}`);
  for (let i = 0; i < 2; i++) assert.is((await signin('wrong password')).status, 401);
  assert.is((await signin(sailor.password)).status, 200);
  // Otherwise a victim signing in now and then would reset an attacker's count (test/cross-cutting/limits-per-call-signin.test.ts).
  assert.is((await signin('wrong password')).status, 401, 'the third failure of the window');
  assert.is((await signin(sailor.password)).status, 429);
});

Limits('unknown users are locked the same way (no account enumeration through lock-out)', async ({ app }) => {
  for (let i = 0; i < 3; i++) {
    assert.is(
      (await app.rest('POST', '/api/user/signin', { body: { username: 'ghost_ship', password: 'whatever1' } })).status,
      401,
    );
  }
  assert.is(
    (await app.rest('POST', '/api/user/signin', { body: { username: 'ghost_ship', password: 'whatever1' } })).status,
    429,
  );
});

Limits.run();

const Global = suite<{ app: TTestServer }>('global per-client limit and TRUST_PROXY');
Global.before(async (context) => {
  context.app = await startTestServer({ RATE_LIMIT_GLOBAL: 5, RATE_LIMIT_SIGNUP: 2 });
});
Global.after(async (context) => {
  await context.app.stop();
});

Global('without TRUST_PROXY, X-Forwarded-For does not change the client', async ({ app }) => {
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    statuses.push(
      (await app.rest('GET', '/api/user/info?id=x', { headers: { 'x-forwarded-for': `10.0.0.${i}` } })).status,
    );
  }
  assert.equal(statuses, [404, 404, 404, 404, 404, 429]);
  assert.is((await app.rest('GET', '/api/health')).status, 200, 'health is never limited');
});

Global.run();

const Proxied = suite<{ app: TTestServer }>('TRUST_PROXY=1');
Proxied.before(async (context) => {
  context.app = await startTestServer({ RATE_LIMIT_GLOBAL: 2, TRUST_PROXY: 1 });
});
Proxied.after(async (context) => {
  await context.app.stop();
});

Proxied('each forwarded client has its own budget; a spoofed left-most entry is ignored', async ({ app }) => {
  const call = (xff: string) => app.rest('GET', '/api/user/info?id=x', { headers: { 'x-forwarded-for': xff } });
  assert.is((await call('203.0.113.1')).status, 404);
  assert.is((await call('203.0.113.1')).status, 404);
  assert.is((await call('203.0.113.1')).status, 429);
  assert.is((await call('203.0.113.2')).status, 404, 'another client');
  assert.is((await call('198.51.100.9, 203.0.113.1')).status, 429, 'spoofed entry to the left does not help');
});

Proxied.run();

const Timing = suite<{ app: TTestServer }>('sign-in timing does not reveal accounts');
Timing.before(async (context) => {
  context.app = await startTestServer();
});
Timing.after(async (context) => {
  await context.app.stop();
});

Timing('unknown user and wrong password take about as long (median over many tries)', async ({ app }) => {
  const sailor = await app.signUp();
  const time = async (username: string) => {
    const started = performance.now();
    const response = await app.rest('POST', '/api/user/signin', { body: { username, password: 'definitely wrong' } });
    assert.is(response.status, 401);
    return performance.now() - started;
  };
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < 30; i++) {
    known.push(await time(sailor.username));
    unknown.push(await time(`nobody_${i}`));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const ratio = median(known) / median(unknown);
  console.log(
    `      sign-in median: known ${median(known).toFixed(1)} ms, unknown ${median(unknown).toFixed(1)} ms, ratio ${ratio.toFixed(2)}`,
  );
  assert.ok(ratio > 0.5 && ratio < 2, `ratio ${ratio}`);
});

Timing.run();
