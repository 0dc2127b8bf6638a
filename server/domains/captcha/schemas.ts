/** Schemas of the captcha: the ALTCHA challenge handed out, and the solution payload sent back as captchaCode. */
import { z } from 'zod';
import { ZTimestamp } from '../../schemas';

export const ZChallenge = z.object({
  algorithm: z.string(),
  challenge: z.string(),
  salt: z.string(),
  signature: z.string(),
  maxnumber: z.number().int().optional(),
  expiresAt: ZTimestamp,
});

/** The decoded captchaCode: a solution of one of our challenges. */
export const ZPayload = z.object({
  algorithm: z.enum(['SHA-1', 'SHA-256', 'SHA-512']),
  challenge: z.string().min(1).max(256),
  number: z.number().int().min(0),
  salt: z.string().min(1).max(512),
  signature: z.string().min(1).max(256),
});
