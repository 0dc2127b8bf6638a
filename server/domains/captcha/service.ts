import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib';
import svgCaptcha from 'svg-captcha';
import { AppError, type TErrorKey } from '../../errors';
import type { TExpiringKeys } from '../../infra/expiring-keys';
import { ZPayload, type TCaptchaAnswer, type TChallenge } from './schemas';

export const CAPTCHA_TTL_MS = 10 * 60 * 1000;

/** Characters of the SVG text: no 0/O/o, 1/I/l/i, whose pictures look alike; compared without case. */
const SVG_CHARS = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const SVG_LENGTH = 4;

export interface TCaptchaService {
  /** A fresh ALTCHA challenge and, beside it, an SVG picture (`hash`, `content`); both expire at `expiresAt`. */
  issue(now: Date): Promise<TChallenge>;
  /** Throws a 400 unless the answer is valid, unexpired and its challenge never answered before. */
  verify(answer: TCaptchaAnswer, now: Date): Promise<void>;
}

declare module '../../deps' {
  interface TAppDeps {
    /** Issues and verifies captchas (createCaptchaService, built at start-up). */
    captcha: TCaptchaService;
  }
}

/** svg-captcha's default export renders a given text (its typings declare only `create`). */
const renderSvg = svgCaptcha as unknown as (text: string, options?: Parameters<typeof svgCaptcha.create>[0]) => string;

function svgKey(hmacKey: string): Buffer {
  return createHash('sha256').update(`tidewatch-svg-captcha:${hmacKey}`).digest();
}

/**
 * The SVG challenge's `hash`: its text and expiry encrypted and authenticated (AES-256-GCM, key
 * derived from CAPTCHA_HMAC_KEY), so every instance sharing the key can check an answer without a
 * stored challenge, and nobody without it can read or forge one.
 */
export function sealSvgAnswer(hmacKey: string, text: string, expiresAtMs: number): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', svgKey(hmacKey), iv);
  const sealed = Buffer.concat([
    cipher.update(JSON.stringify({ t: text.toLowerCase(), e: expiresAtMs }), 'utf8'),
    cipher.final(),
  ]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/**
 * The bytes a `hash` spells, only when it spells them as sealSvgAnswer writes them: canonical
 * base64url, no padding. Node's decoder is lenient (it skips `=`, spaces, newlines and other
 * characters, and ignores the spare bits of the last one), so several strings decode to one sealed
 * answer; a replay record kept by the string would let each of them be answered once more.
 */
function canonicalBytes(hash: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(hash)) return undefined;
  const raw = Buffer.from(hash, 'base64url');
  return raw.toString('base64url') === hash ? raw : undefined;
}

/** The text and expiry of a `hash` we issued (in its one spelling), or undefined for anything else. */
export function openSvgAnswer(hmacKey: string, hash: string): { text: string; expiresAtMs: number } | undefined {
  try {
    const raw = canonicalBytes(hash);
    if (!raw || raw.length < 29) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', svgKey(hmacKey), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as {
      t?: unknown;
      e?: unknown;
    };
    return typeof plain.t === 'string' && typeof plain.e === 'number'
      ? { text: plain.t, expiresAtMs: plain.e }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Self-hosted captchas: ALTCHA proof of work (HMAC-signed challenges, the contract's captchaCode) and
 * the web client's SVG text picture (svg-captcha). Both expire after CAPTCHA_TTL_MS and are accepted
 * once, recorded in `used` (Redis with several instances); an SVG challenge is spent by its first
 * answer, right or wrong, so its 4 characters cannot be guessed one try after another.
 */
export function createCaptchaService(options: {
  hmacKey: string;
  maxNumber: number;
  /** Challenges already answered, held until they expire. */
  used: TExpiringKeys;
}): TCaptchaService {
  const invalid = (field: string, why: string, key: TErrorKey<'BAD_REQUEST'> = 'captcha.bad') =>
    new AppError('BAD_REQUEST', `Invalid ${field}: ${why}`, { key, data: { field } });
  const claim = (key: string, expiresAtMs: number, now: Date) =>
    options.used.claim(key, expiresAtMs, now.getTime()).catch((error: unknown) => {
      // Accepting without the shared record would let the same answer be replayed on another instance.
      throw new AppError('SERVICE_UNAVAILABLE', 'Captcha verification is unavailable right now; retry shortly', {
        cause: error,
        retryAfterSeconds: 5,
      });
    });

  async function verifyAltcha(code: string, now: Date): Promise<void> {
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(code, 'base64').toString('utf8'));
    } catch {
      throw invalid('captchaCode', 'not a base64 ALTCHA payload');
    }
    const payload = ZPayload.safeParse(decoded);
    if (!payload.success) throw invalid('captchaCode', 'not a base64 ALTCHA payload');
    const expiresSeconds = Number(extractParams(payload.data).expires);
    if (!Number.isFinite(expiresSeconds)) throw invalid('captchaCode', 'challenge has no expiry');
    const expiresAtMs = expiresSeconds * 1000;
    if (expiresAtMs <= now.getTime()) throw invalid('captchaCode', 'challenge expired', 'captcha.expired');
    // The library checks expiry against the wall clock; ours is checked above against the service clock.
    if (!(await verifySolution(payload.data, options.hmacKey, false)))
      throw invalid('captchaCode', 'wrong solution', 'captcha.wrong');
    if (!(await claim(payload.data.signature, expiresAtMs, now)).claimed)
      throw invalid('captchaCode', 'already used', 'captcha.wrong');
  }

  async function verifySvg(hash: string, response: string, now: Date): Promise<void> {
    const sealed = openSvgAnswer(options.hmacKey, hash);
    if (!sealed) throw invalid('captcha', 'not a captcha of this service');
    if (sealed.expiresAtMs <= now.getTime()) throw invalid('captcha', 'challenge expired', 'captcha.expired');
    // Claimed before the text is compared: a wrong answer spends the challenge too. Keyed by the sealed
    // bytes (openSvgAnswer took only their one spelling), so no re-spelling is another challenge.
    const first = await claim(
      `svg:${createHash('sha256').update(Buffer.from(hash, 'base64url')).digest('hex')}`,
      sealed.expiresAtMs,
      now,
    );
    if (!first.claimed) throw invalid('captcha', 'already used', 'captcha.wrong');
    if (response.trim().toLowerCase() !== sealed.text) throw invalid('captcha', 'wrong text', 'captcha.wrong');
  }

  return {
    async issue(now) {
      const expires = new Date(now.getTime() + CAPTCHA_TTL_MS);
      const challenge = await createChallenge({ hmacKey: options.hmacKey, maxNumber: options.maxNumber, expires });
      let text = '';
      for (let index = 0; index < SVG_LENGTH; index++) text += SVG_CHARS[randomInt(SVG_CHARS.length)];
      return {
        ...challenge,
        expiresAt: expires.toISOString(),
        hash: sealSvgAnswer(options.hmacKey, text, expires.getTime()),
        content: renderSvg(text, { noise: 2, width: 120, height: 40, fontSize: 44 }),
      };
    },
    async verify(answer, now) {
      if (answer.kind === 'altcha') await verifyAltcha(answer.code, now);
      else await verifySvg(answer.hash, answer.response, now);
    },
  };
}
