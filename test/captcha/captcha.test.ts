import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { solveCaptcha, startTestServer, trpcError, type TTestServer } from '../support/helpers';

let counter = 0;
function account() {
  counter++;
  return { username: `captcha_${counter}`, email: `captcha${counter}@example.test`, password: 'long password' };
}

async function solvedCode(app: TTestServer, tamper?: (payload: Record<string, unknown>) => void): Promise<string> {
  return solveCaptcha((await app.rest('GET', '/api/captcha')).body.data, tamper);
}

const Required = suite<{ app: TTestServer }>('captcha: SIGNUP_CAPTCHA=required');
Required.before(async (context) => {
  context.app = await startTestServer({ SIGNUP_CAPTCHA: 'required' });
});
Required.after(async (context) => {
  await context.app.stop();
});

Required('GET /captcha returns an ALTCHA challenge that expires in minutes', async ({ app }) => {
  const response = await app.rest('GET', '/api/captcha');
  assert.is(response.status, 200);
  const { algorithm, challenge, salt, signature, maxnumber, expiresAt } = response.body.data;
  assert.is(algorithm, 'SHA-256');
  assert.match(challenge, /^[0-9a-f]{64}$/);
  assert.match(salt, /expires=\d+/);
  assert.match(signature, /^[0-9a-f]{64}$/);
  assert.is(maxnumber, 2000);
  const minutes = (Date.parse(expiresAt) - Date.now()) / 60_000;
  assert.ok(minutes > 5 && minutes <= 10);
  assert.is(response.headers.get('cache-control'), 'no-store');
  const viaTrpc = await app.trpc().captcha.get.query({});
  assert.is.not(viaTrpc.challenge, challenge, 'every challenge is fresh');
});

Required('sign-up without captchaCode is a 400 naming it', async ({ app }) => {
  const response = await app.rest('POST', '/api/user/signup', { body: account() });
  assert.is(response.status, 400);
  assert.match(response.body.message, /captchaCode/);
});

Required('a solved challenge signs up once; the replay is refused', async ({ app }) => {
  const captchaCode = await solvedCode(app);
  const first = await app.rest('POST', '/api/user/signup', { body: { ...account(), captchaCode } });
  assert.is(first.status, 200);
  const replay = await app.rest('POST', '/api/user/signup', { body: { ...account(), captchaCode } });
  assert.is(replay.status, 400);
  assert.match(replay.body.message, /already used/);
  const viaTrpc = await trpcError(app.trpc().user.signup.mutate({ ...account(), captchaCode }));
  assert.is(viaTrpc.status, 400);
});

Required('tRPC sign-up with a solved challenge works', async ({ app }) => {
  const captchaCode = await solvedCode(app);
  const result = await app.trpc().user.signup.mutate({ ...account(), captchaCode });
  assert.ok(result.token);
});

Required('forged codes are refused: wrong number, altered signature, garbage, our signature on another challenge', async ({ app }) => {
  const wrongNumber = await solvedCode(app, (payload) => {
    payload.number = (payload.number as number) + 1;
  });
  const badSignature = await solvedCode(app, (payload) => {
    payload.signature = '0'.repeat(64);
  });
  const noExpiry = await solvedCode(app, (payload) => {
    payload.salt = String(payload.salt).replace(/\?.*$/, '');
  });
  for (const captchaCode of [wrongNumber, badSignature, noExpiry, 'not base64 at all!!', Buffer.from('{"a":1}').toString('base64')]) {
    const response = await app.rest('POST', '/api/user/signup', { body: { ...account(), captchaCode } });
    assert.is(response.status, 400, captchaCode.slice(0, 30));
    assert.match(response.body.message, /captchaCode/);
  }
});

Required('an expired challenge is refused', async ({ app }) => {
  const captchaCode = await solvedCode(app);
  app.clock.advance(11 * 60 * 1000);
  const response = await app.rest('POST', '/api/user/signup', { body: { ...account(), captchaCode } });
  app.clock.offsetMs = 0;
  assert.is(response.status, 400);
  assert.match(response.body.message, /expired/);
});

Required.run();

const Optional = suite<{ app: TTestServer }>('captcha: optional by default');
Optional.before(async (context) => {
  context.app = await startTestServer();
});
Optional.after(async (context) => {
  await context.app.stop();
});

Optional('sign-up without a captcha works', async ({ app }) => {
  assert.is((await app.rest('POST', '/api/user/signup', { body: account() })).status, 200);
});

Optional('a given code must still verify', async ({ app }) => {
  const good = await solvedCode(app);
  assert.is((await app.rest('POST', '/api/user/signup', { body: { ...account(), captchaCode: good } })).status, 200);
  assert.is((await app.rest('POST', '/api/user/signup', { body: { ...account(), captchaCode: good } })).status, 400);
  const forged = await solvedCode(app, (payload) => {
    payload.signature = 'f'.repeat(64);
  });
  assert.is((await app.rest('POST', '/api/user/signup', { body: { ...account(), captchaCode: forged } })).status, 400);
});

Optional.run();
