// Sign-up's captcha: the ALTCHA proof-of-work challenge (GET /captcha, captchaCode) when SIGNUP_CAPTCHA=required,
// one answer per sign-up, the optional default, and replays refused across instances sharing one store.
// captcha-svg.test.ts covers the web client's SVG picture answers.
import * as assert from 'uvu/assert';
import { createCaptchaService } from '../../server/domains/captcha/service';
import { MemoryExpiringKeys } from '../../server/infra/expiring-keys';
import type { TTestServer } from '../support/helpers';
import { trpcError } from '../support/http-clients';
import { solveCaptcha } from '../support/sign-up';
import { serverSuite } from '../support/server-suite';
import { suite } from '../support/suite';
import { account, HMAC_KEY, requiredSuite, svgAnswer, svgText } from './fixtures';

async function solvedCode(app: TTestServer, tamper?: (payload: Record<string, unknown>) => void): Promise<string> {
  return solveCaptcha((await app.rest('GET', '/api/captcha')).body.data, tamper);
}

const Required = requiredSuite('captcha: SIGNUP_CAPTCHA=required');

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
  assert.is.not(viaTrpc.hash, response.body.data.hash);
});

Required('captchaCode and captcha together are refused: one answer per sign-up', async ({ app }) => {
  const response = await app.rest('POST', '/api/user/signup', {
    body: { ...account(), captchaCode: await solvedCode(app), captcha: await svgAnswer(app) },
  });
  assert.is(response.status, 400);
  assert.match(response.body.message, /captcha/);
});

Required('sign-up without captchaCode is a 400 naming it', async ({ app }) => {
  const response = await app.rest('POST', '/api/user/signup', { body: account() });
  assert.is(response.status, 400);
  assert.match(response.body.message, /captchaCode/);
  assert.is(response.body.data.key, 'captcha.bad');
  const emptyWidget = await app.rest('POST', '/api/user/signup', { body: { ...account(), captcha: '' } });
  assert.is(emptyWidget.status, 400, "the client's empty widget is no answer");
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

Required(
  'forged codes are refused: wrong number, altered signature, garbage, our signature on another challenge',
  async ({ app }) => {
    const wrongNumber = await solvedCode(app, (payload) => {
      payload.number = (payload.number as number) + 1;
    });
    const badSignature = await solvedCode(app, (payload) => {
      payload.signature = '0'.repeat(64);
    });
    const noExpiry = await solvedCode(app, (payload) => {
      payload.salt = String(payload.salt).replace(/\?.*$/, '');
    });
    for (const captchaCode of [
      wrongNumber,
      badSignature,
      noExpiry,
      'not base64 at all!!',
      Buffer.from('{"a":1}').toString('base64'),
    ]) {
      const response = await app.rest('POST', '/api/user/signup', { body: { ...account(), captchaCode } });
      assert.is(response.status, 400, captchaCode.slice(0, 30));
      assert.match(response.body.message, /captchaCode/);
    }
  },
);

Required('an expired challenge is refused', async ({ app }) => {
  const captchaCode = await solvedCode(app);
  app.clock.advance(11 * 60 * 1000);
  const response = await app.rest('POST', '/api/user/signup', { body: { ...account(), captchaCode } });
  app.clock.offsetMs = 0;
  assert.is(response.status, 400);
  assert.match(response.body.message, /expired/);
  assert.is(response.body.data.key, 'captcha.expired');
});

Required.run();

const Optional = serverSuite('captcha: optional by default');

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

const Shared = suite('captcha: answers recorded in the shared store are refused by every instance');

Shared(
  'two instances with one key and one store: an SVG or ALTCHA answer used on one is refused on the other',
  async () => {
    const used = new MemoryExpiringKeys();
    const a = createCaptchaService({ hmacKey: HMAC_KEY, maxNumber: 1_000, used });
    const b = createCaptchaService({ hmacKey: HMAC_KEY, maxNumber: 1_000, used });
    const now = new Date();
    const challenge = await a.issue(now);
    const svg = { kind: 'svg' as const, hash: challenge.hash, response: svgText(challenge.hash) };
    await a.verify(svg, now);
    await b.verify(svg, now).then(
      () => assert.unreachable('replayed on the other instance'),
      (error: { message: string }) => assert.match(error.message, /already used/),
    );
    const altcha = { kind: 'altcha' as const, code: await solveCaptcha(challenge) };
    await b.verify(altcha, now);
    await a.verify(altcha, now).then(
      () => assert.unreachable('replayed on the other instance'),
      (error: { message: string }) => assert.match(error.message, /already used/),
    );
  },
);

Shared.run();
