// Shared set-up of the captcha suites: the server's HMAC key, fresh sign-up accounts, a suite on a server that
// requires a captcha at sign-up, and the web client's SVG picture answered (the test opens the hash with the key).
import * as assert from 'uvu/assert';
import { openSvgAnswer } from '../../server/domains/captcha/service';
import type { TTestServer } from '../support/helpers';
import { serverSuite } from '../support/server-suite';

export const HMAC_KEY = 'captcha-test-key-0123456789';

let counter = 0;
/** A fresh sign-up body (username, email, password). */
export function account() {
  counter++;
  return { username: `captcha_${counter}`, email: `captcha${counter}@example.test`, password: 'long password' };
}

/** A suite on a test server with SIGNUP_CAPTCHA=required and the key HMAC_KEY. */
export function requiredSuite(name: string) {
  return serverSuite(name, { config: { SIGNUP_CAPTCHA: 'required', CAPTCHA_HMAC_KEY: HMAC_KEY } });
}

/** The text of an SVG challenge: the test knows the server's key, so it opens the hash (a person reads the picture). */
export function svgText(hash: string): string {
  const opened = openSvgAnswer(HMAC_KEY, hash);
  if (!opened) throw new Error('not our hash');
  return opened.text;
}

/** A fresh SVG challenge answered as the web client sends it (`text` alters the real text). */
export async function svgAnswer(app: TTestServer, text?: (real: string) => string) {
  const { hash, content } = (await app.rest('GET', '/api/captcha?t=0.123')).body.data;
  assert.match(content, /^<svg [^>]*>.*<\/svg>$/s);
  const real = svgText(hash);
  return { captchaType: 'svg' as const, encryptCaptcha: hash as string, response: text ? text(real) : real };
}
