import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { MemoryExpiringKeys } from '../../server/infra/expiring-keys';
import { createCaptchaService, openSvgAnswer } from '../../server/domains/captcha/service';
import { batchClient, solveCaptcha, startTestServer, trpcError, type TTestServer } from '../support/helpers';

const HMAC_KEY = 'captcha-test-key-0123456789';

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
  context.app = await startTestServer({ SIGNUP_CAPTCHA: 'required', CAPTCHA_HMAC_KEY: HMAC_KEY });
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
  assert.is.not(viaTrpc.hash, response.body.data.hash);
});

/** The text of an SVG challenge: the test knows the server's key, so it opens the hash (a person reads the picture). */
function svgText(hash: string): string {
  const opened = openSvgAnswer(HMAC_KEY, hash);
  if (!opened) throw new Error('not our hash');
  return opened.text;
}

async function svgAnswer(app: TTestServer, text?: (real: string) => string) {
  const { hash, content } = (await app.rest('GET', '/api/captcha?t=0.123')).body.data;
  assert.match(content, /^<svg [^>]*>.*<\/svg>$/s);
  const real = svgText(hash);
  return { captchaType: 'svg' as const, encryptCaptcha: hash as string, response: text ? text(real) : real };
}

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

Required('captchaCode and captcha together are refused: one answer per sign-up', async ({ app }) => {
  const response = await app.rest('POST', '/api/user/signup', {
    body: { ...account(), captchaCode: await solvedCode(app), captcha: await svgAnswer(app) },
  });
  assert.is(response.status, 400);
  assert.match(response.body.message, /captcha/);
});

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
