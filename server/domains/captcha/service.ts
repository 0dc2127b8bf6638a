import { createChallenge, extractParams, verifySolution } from 'altcha-lib';
import type { Challenge } from 'altcha-lib/types';
import { AppError } from '../../errors';
import type { TExpiringKeys } from '../../infra/expiring-keys';
import { ZPayload } from './schemas';

export const CAPTCHA_TTL_MS = 10 * 60 * 1000;

export interface TCaptchaService {
  issue(now: Date): Promise<Challenge & { expiresAt: string }>;
  /** Throws a 400 unless the code is a valid, unexpired, never-used solution of our challenge. */
  verify(code: string, now: Date): Promise<void>;
}

/** ALTCHA proof-of-work captcha: self-hosted, HMAC-signed challenges, each solution accepted once. */
export function createCaptchaService(options: {
  hmacKey: string;
  maxNumber: number;
  /** Solutions already accepted, held until their challenge expires. */
  used: TExpiringKeys;
}): TCaptchaService {
  const invalid = (why: string) => new AppError('BAD_REQUEST', `Invalid captchaCode: ${why}`, { data: { field: 'captchaCode' } });
  return {
    async issue(now) {
      const expires = new Date(now.getTime() + CAPTCHA_TTL_MS);
      const challenge = await createChallenge({ hmacKey: options.hmacKey, maxNumber: options.maxNumber, expires });
      return { ...challenge, expiresAt: expires.toISOString() };
    },
    async verify(code, now) {
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(code, 'base64').toString('utf8'));
      } catch {
        throw invalid('not a base64 ALTCHA payload');
      }
      const payload = ZPayload.safeParse(decoded);
      if (!payload.success) throw invalid('not a base64 ALTCHA payload');
      const expiresSeconds = Number(extractParams(payload.data).expires);
      if (!Number.isFinite(expiresSeconds)) throw invalid('challenge has no expiry');
      const expiresAtMs = expiresSeconds * 1000;
      if (expiresAtMs <= now.getTime()) throw invalid('challenge expired');
      // The library checks expiry against the wall clock; ours is checked above against the service clock.
      if (!(await verifySolution(payload.data, options.hmacKey, false))) throw invalid('wrong solution');
      const claim = await options.used.claim(payload.data.signature, expiresAtMs, now.getTime()).catch((error: unknown) => {
        // Accepting without the shared record would let the same solution be replayed on another instance.
        throw new AppError('SERVICE_UNAVAILABLE', 'Captcha verification is unavailable right now; retry shortly', { cause: error, retryAfterSeconds: 5 });
      });
      if (!claim.claimed) throw invalid('already used');
    },
  };
}
