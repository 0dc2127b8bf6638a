/**
 * The sign-up and captcha limits hold per call, as over REST, however the calls arrive: a tRPC batch
 * (httpBatchLink: its calls run side by side on the server), concurrent REST requests, or both at
 * once; a solved captcha is accepted exactly once. Each test fires many calls together and asserts
 * exact counts of the answers: only a limit decided per call, before the work it guards, gives them.
 */
import * as assert from 'uvu/assert';
import { openSvgAnswer } from '../../server/domains/captcha/service';
import { batchClient, statusOf } from '../support/http-clients';
import { solveCaptcha } from '../support/sign-up';
import { tally } from '../support/server-suite';
import { limitsSuite, newClient, repeat } from './limits-fixtures';

/** The captcha key of the sign-up suite's server: the test opens an SVG challenge's hash with it, as a person reads the picture. */
const SIGNUP_HMAC_KEY = 'limits-per-call-captcha-key';

const Signup = limitsSuite('sign-up and captcha limits, per call', {
  TRUST_PROXY: 1,
  RATE_LIMIT_SIGNUP: 3,
  RATE_LIMIT_CAPTCHA: 5,
  CAPTCHA_HMAC_KEY: SIGNUP_HMAC_KEY,
});

let signupCounter = 0;
function newAccount(captchaCode?: string) {
  const username = `batch${process.pid}x${++signupCounter}`;
  return {
    username,
    email: `${username}@example.test`,
    password: 'correct horse battery',
    ...(captchaCode ? { captchaCode } : {}),
  };
}

Signup(
  '10 sign-ups in one batch: exactly 3 accounts, 7 answers 429; concurrent REST and a mix the same',
  async ({ app }) => {
    const client = newClient();
    const { client: trpc, sent } = batchClient(app.url, { headers: { 'x-forwarded-for': client } });
    const statuses = await Promise.all(repeat(10, () => statusOf(trpc.user.signup.mutate(newAccount()))));
    assert.is(sent.requests, 1, 'one batch');
    assert.equal(tally(statuses), { 200: 3, 429: 7 });
    assert.is(
      (await app.rest('POST', '/api/user/signup', { body: newAccount(), headers: { 'x-forwarded-for': client } }))
        .status,
      429,
    );

    const restClient = newClient();
    const rest = await Promise.all(
      repeat(10, () =>
        app
          .rest('POST', '/api/user/signup', { body: newAccount(), headers: { 'x-forwarded-for': restClient } })
          .then((response) => response.status),
      ),
    );
    assert.equal(tally(rest), { 200: 3, 429: 7 });

    const mixedClient = newClient();
    const { client: mixedTrpc } = batchClient(app.url, { headers: { 'x-forwarded-for': mixedClient } });
    const mixed = await Promise.all([
      ...repeat(5, () => statusOf(mixedTrpc.user.signup.mutate(newAccount()))),
      ...repeat(5, () =>
        app
          .rest('POST', '/api/user/signup', { body: newAccount(), headers: { 'x-forwarded-for': mixedClient } })
          .then((response) => response.status),
      ),
    ]);
    assert.equal(tally(mixed), { 200: 3, 429: 7 });
  },
);

Signup(
  '20 captcha challenges in one batch: exactly 5 issued, 15 answers 429; REST mixed in the same',
  async ({ app }) => {
    const { client: trpc, sent } = batchClient(app.url, { headers: { 'x-forwarded-for': newClient() } });
    const statuses = await Promise.all(repeat(20, () => statusOf(trpc.captcha.get.query({}))));
    assert.is(sent.requests, 1, 'one batch');
    assert.equal(tally(statuses), { 200: 5, 429: 15 });

    const client = newClient();
    const { client: mixedTrpc } = batchClient(app.url, { headers: { 'x-forwarded-for': client } });
    const mixed = await Promise.all([
      ...repeat(10, () => statusOf(mixedTrpc.captcha.get.query({}))),
      ...repeat(10, () =>
        app.rest('GET', '/api/captcha', { headers: { 'x-forwarded-for': client } }).then((response) => response.status),
      ),
    ]);
    assert.equal(tally(mixed), { 200: 5, 429: 15 });
  },
);

Signup('one solved captcha in a batch of sign-ups is accepted exactly once', async ({ app }) => {
  const client = newClient();
  const challenge = await app.rest('GET', '/api/captcha', { headers: { 'x-forwarded-for': client } });
  assert.is(challenge.status, 200);
  const code = await solveCaptcha(challenge.body.data);
  const { client: trpc } = batchClient(app.url, { headers: { 'x-forwarded-for': client } });
  const statuses = await Promise.all(repeat(3, () => statusOf(trpc.user.signup.mutate(newAccount(code)))));
  assert.equal(tally(statuses), { 200: 1, 400: 2 });
});

Signup(
  'one answered SVG captcha in a batch of sign-ups is accepted exactly once; concurrent REST the same',
  async ({ app }) => {
    const svgAnswer = async (client: string) => {
      const challenge = await app.rest('GET', '/api/captcha', { headers: { 'x-forwarded-for': client } });
      assert.is(challenge.status, 200);
      const { hash } = challenge.body.data;
      return {
        captchaType: 'svg' as const,
        encryptCaptcha: hash as string,
        response: openSvgAnswer(SIGNUP_HMAC_KEY, hash)!.text,
      };
    };
    const client = newClient();
    const captcha = await svgAnswer(client);
    const { client: trpc, sent } = batchClient(app.url, { headers: { 'x-forwarded-for': client } });
    const statuses = await Promise.all(
      repeat(3, () => statusOf(trpc.user.signup.mutate({ ...newAccount(), captcha }))),
    );
    assert.is(sent.requests, 1, 'one batch');
    assert.equal(tally(statuses), { 200: 1, 400: 2 });

    const restClient = newClient();
    const restCaptcha = await svgAnswer(restClient);
    const rest = await Promise.all(
      repeat(3, () =>
        app
          .rest('POST', '/api/user/signup', {
            body: { ...newAccount(), captcha: restCaptcha },
            headers: { 'x-forwarded-for': restClient },
          })
          .then((response) => response.status),
      ),
    );
    assert.equal(tally(rest), { 200: 1, 400: 2 });
  },
);

Signup.run();
