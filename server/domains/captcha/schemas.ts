/**
 * Schemas of the captcha: the challenge handed out (an ALTCHA proof of work and, beside it, the web
 * client's SVG picture), and the answers sent back on sign-up and sign-in, in the canonical form the
 * service verifies (`TCaptchaAnswer`).
 */
import { z } from 'zod';
import { ZTimestamp } from '../../schemas';

export const ZChallengeInput = z
  .strictObject({
    t: z
      .string()
      .max(64)
      .optional()
      .meta({ description: 'Cache-buster the web client adds (`t=Math.random()`); ignored' }),
  })
  .optional();

export const ZChallenge = z.object({
  algorithm: z.string().meta({ description: 'ALTCHA: hash algorithm of the proof of work' }),
  challenge: z.string().meta({ description: 'ALTCHA: the hash to find a number for' }),
  salt: z.string().meta({ description: 'ALTCHA: hashed before the number' }),
  signature: z
    .string()
    .meta({ description: "ALTCHA: the server's signature of the challenge, sent back with the solution" }),
  maxnumber: z.number().int().optional().meta({ description: 'ALTCHA: the number is at most this' }),
  expiresAt: ZTimestamp.meta({ description: 'Both the ALTCHA challenge and the SVG picture expire then' }),
  hash: z.string().meta({
    description:
      'SVG captcha: send back as `captcha.encryptCaptcha`, with the text read from `content` as `captcha.response`',
  }),
  content: z.string().meta({ description: 'SVG captcha: an SVG image of 4 characters (case does not matter)' }),
});
export type TChallenge = z.infer<typeof ZChallenge>;

/** The decoded captchaCode: a solution of one of our ALTCHA challenges. */
export const ZPayload = z.object({
  algorithm: z.enum(['SHA-1', 'SHA-256', 'SHA-512']),
  challenge: z.string().min(1).max(256),
  number: z.number().int().min(0),
  salt: z.string().min(1).max(512),
  signature: z.string().min(1).max(256),
});

/** What the service verifies: the contract's ALTCHA `captchaCode`, or the web client's SVG answer. */
export type TCaptchaAnswer = { kind: 'altcha'; code: string } | { kind: 'svg'; hash: string; response: string };

/**
 * The web client's `captcha` field (src/components/captcha/index.vue, svg.vue): `{captchaType: 'svg',
 * encryptCaptcha: <hash>, response: <text typed>}`. It sends `{}` (sign-in) or `''` (sign-up) when
 * the widget was not used: no answer. An answer with one of hash and text but not the other is a 400.
 */
export const ZClientCaptcha = z
  .union([
    z.literal(''),
    z.strictObject({
      captchaType: z.literal('svg').optional().meta({ description: 'Only `svg` is served' }),
      encryptCaptcha: z.string().max(1024).optional().meta({ description: 'The `hash` of GET /captcha' }),
      response: z.string().max(32).optional().meta({ description: 'The text of the SVG picture' }),
    }),
  ])
  .transform((value, ctx): TCaptchaAnswer | undefined => {
    if (value === '' || (!value.encryptCaptcha && !value.response)) return undefined;
    if (!value.encryptCaptcha || !value.response) {
      const path = value.encryptCaptcha ? 'response' : 'encryptCaptcha';
      ctx.addIssue({ code: 'custom', path: [path], message: 'is required with an SVG captcha answer' });
      return z.NEVER;
    }
    return { kind: 'svg', hash: value.encryptCaptcha, response: value.response };
  })
  .meta({
    description:
      "The web client's SVG captcha answer (`{captchaType: 'svg', encryptCaptcha, response}`); `''` or `{}` is no answer",
  });

export const ZCaptchaCode = z.string().min(1).max(4096);

/** The one answer of an input that may carry the contract's `captchaCode` or the client's `captcha`. */
export function captchaAnswerOf(
  input: { captchaCode?: string; captcha?: TCaptchaAnswer | undefined },
  ctx: z.RefinementCtx,
): TCaptchaAnswer | undefined {
  if (input.captchaCode !== undefined && input.captcha !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['captcha'],
      message: 'send either captchaCode (ALTCHA) or captcha (SVG), not both',
    });
    return undefined;
  }
  return input.captchaCode !== undefined ? { kind: 'altcha', code: input.captchaCode } : input.captcha;
}
