import { z } from 'zod';

/** Ids chosen by admins for plans, tiers and pay types: stable, URL-safe slugs. */
export const ZSlug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,47}$/, 'must be 1-48 of a-z 0-9 _ -, starting with a letter or digit');

export const ZCurrency = z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code such as USD');

/** Major units with at most two decimals (e.g. 4.99). */
export const ZMoney = z
  .number('must be a number')
  .positive('must be greater than 0')
  .max(1_000_000, 'must be at most 1000000')
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, 'must have at most 2 decimals');
