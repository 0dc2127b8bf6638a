// Sign-up's captcha answered with the web client's SVG picture (GET /captcha?t=..., captcha: { captchaType: 'svg',
// encryptCaptcha, response }) when SIGNUP_CAPTCHA=required: one use per picture, wrong, forged, expired and
// re-spelled hashes refused (issue 31), and sign-in's answer. captcha.test.ts covers the ALTCHA challenge.
import * as assert from 'uvu/assert';
import { openSvgAnswer } from '../../server/domains/captcha/service';
import { batchClient } from '../support/http-clients';
import { account, HMAC_KEY, requiredSuite, svgAnswer, svgText } from './fixtures';

const Required = requiredSuite('captcha: SIGNUP_CAPTCHA=required, the SVG picture');

Required(
  "GET /captcha also returns an SVG picture (hash, content) of 4 characters; the client's t= cache-buster is accepted",
  async ({ app }) => {
    const response = await app.rest('GET', '/api/captcha?t=0.8371');
    assert.is(response.status, 200);
    const { hash, content, expiresAt } = response.body.data;
    assert.match(hash, /^[A-Za-z0-9_-]{40,}$/);
    assert.match(content, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.match(svgText(hash), /^[a-z2-9]{4}$/);
    assert.is(openSvgAnswer(HMAC_KEY, hash)!.expiresAtMs, Date.parse(expiresAt));
    assert.not.ok(content.includes(svgText(hash)), 'the text is drawn as paths, not written');
    const unknown = await app.rest('GET', '/api/captcha?type=svg');
    assert.is(unknown.status, 400);
    assert.match(JSON.stringify(unknown.body.data.issues), /type/);
  },
);

Required("the web client's SVG answer signs up once; case does not matter; the replay is refused", async ({ app }) => {
  const captcha = await svgAnswer(app, (real) => real.toUpperCase());
  const first = await app.rest('POST', '/api/user/signup', { body: { ...account(), alternativeName: 'x', captcha } });
  assert.is(first.status, 200, first.text);
  const replay = await app.rest('POST', '/api/user/signup', { body: { ...account(), captcha } });
  assert.is(replay.status, 400);
  assert.match(replay.body.message, /already used/);
  assert.is(replay.body.data.key, 'captcha.wrong');
  const viaTrpc = await app.trpc().user.signup.mutate({ ...account(), captcha: await svgAnswer(app) });
  assert.ok(viaTrpc.token);
});

Required(
  'a wrong SVG text is refused and spends the challenge: the right text afterwards is refused too',
  async ({ app }) => {
    const captcha = await svgAnswer(app, (real) => (real === 'aaaa' ? 'bbbb' : 'aaaa'));
    const wrong = await app.rest('POST', '/api/user/signup', { body: { ...account(), captcha } });
    assert.is(wrong.status, 400);
    assert.is(wrong.body.data.key, 'captcha.wrong');
    assert.is(wrong.body.data.field, 'captcha');
    const right = await app.rest('POST', '/api/user/signup', {
      body: { ...account(), captcha: { ...captcha, response: svgText(captcha.encryptCaptcha) } },
    });
    assert.is(right.status, 400);
    assert.match(right.body.message, /already used/);
  },
);

Required('forged or expired SVG hashes are refused', async ({ app }) => {
  const captcha = await svgAnswer(app);
  const flipped = captcha.encryptCaptcha.slice(0, -2) + (captcha.encryptCaptcha.endsWith('AA') ? 'BB' : 'AA');
  for (const encryptCaptcha of [flipped, 'garbage', 'A'.repeat(60)]) {
    const response = await app.rest('POST', '/api/user/signup', {
      body: { ...account(), captcha: { ...captcha, encryptCaptcha } },
    });
    assert.is(response.status, 400, encryptCaptcha);
    assert.is(response.body.data.key, 'captcha.bad');
  }
  app.clock.advance(11 * 60 * 1000);
  const expired = await app.rest('POST', '/api/user/signup', { body: { ...account(), captcha } });
  app.clock.offsetMs = 0;
  assert.is(expired.status, 400);
  assert.is(expired.body.data.key, 'captcha.expired');
});

/**
 * Strings Node's lenient base64url decoder reads as the same bytes as `hash`: padding, spaces, a newline,
 * characters it skips, and the spare low bits of the last character (issue 31, item 3).
 */
function respellings(hash: string): string[] {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const spareBits = [0, 0, 4, 2][hash.length % 4]!;
  const last = alphabet.indexOf(hash.at(-1)!);
  const otherLast = Array.from(
    { length: 2 ** spareBits - 1 },
    (_, bits) => hash.slice(0, -1) + alphabet[last + bits + 1]!,
  );
  const middle = hash.length >> 1;
  const spellings = [
    `${hash}=`,
    `${hash}==`,
    `${hash} `,
    ` ${hash}`,
    `${hash}!`,
    `${hash}.`,
    `${hash.slice(0, middle)}\n${hash.slice(middle)}`,
    ...otherLast,
  ];
  for (const spelling of spellings)
    assert.ok(Buffer.from(spelling, 'base64url').equals(Buffer.from(hash, 'base64url')), JSON.stringify(spelling));
  return spellings;
}

Required(
  'an SVG answer is taken in its one spelling: re-spelled hashes are refused, before and after it is used, one at a time and in one tRPC batch',
  async ({ app }) => {
    const captcha = await svgAnswer(app);
    const spellings = respellings(captcha.encryptCaptcha);
    assert.ok(spellings.length >= 8, `${spellings.length} re-spellings`);
    // Before the real one: a re-spelling is no captcha of this service, and does not spend it.
    for (const encryptCaptcha of spellings.slice(0, 2)) {
      const early = await app.rest('POST', '/api/user/signup', {
        body: { ...account(), captcha: { ...captcha, encryptCaptcha } },
      });
      assert.is(early.status, 400, JSON.stringify(encryptCaptcha));
      assert.is(early.body.data.key, 'captcha.bad');
    }
    assert.is((await app.rest('POST', '/api/user/signup', { body: { ...account(), captcha } })).status, 200);
    for (const encryptCaptcha of spellings) {
      const replay = await app.rest('POST', '/api/user/signup', {
        body: { ...account(), captcha: { ...captcha, encryptCaptcha } },
      });
      assert.is(replay.status, 400, JSON.stringify(encryptCaptcha));
    }
    // A fresh picture, answered in ten spellings at once in one batch (the most a batch takes): one sign-up, the canonical one.
    const fresh = await svgAnswer(app);
    const { client, sent } = batchClient(app.url);
    const outcomes = await Promise.allSettled(
      [fresh.encryptCaptcha, ...respellings(fresh.encryptCaptcha).slice(0, 9)].map((encryptCaptcha) =>
        client.user.signup.mutate({ ...account(), captcha: { ...fresh, encryptCaptcha } }),
      ),
    );
    assert.is(sent.requests, 1, 'one batch');
    assert.is(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 1);
    assert.is(outcomes[0]!.status, 'fulfilled');
  },
);

Required(
  'sign-in verifies an SVG answer when given (the client sends one), and a replay is refused',
  async ({ app }) => {
    const user = account();
    await app.rest('POST', '/api/user/signup', { body: { ...user, captcha: await svgAnswer(app) } });
    const captcha = await svgAnswer(app);
    const signin = await app.rest('POST', '/api/user/signin', {
      body: { username: user.username, password: user.password, captcha },
    });
    assert.is(signin.status, 200);
    assert.is(signin.body.data.username, user.username);
    const replay = await app.rest('POST', '/api/user/signin', {
      body: { username: user.username, password: user.password, captcha },
    });
    assert.is(replay.status, 400);
    assert.is(replay.body.data.key, 'captcha.wrong');
  },
);

Required.run();
