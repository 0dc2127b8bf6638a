// Seasons as the war domain takes and answers them (schemas.ts gathers this file with the others).
import { z } from 'zod';
import { zRef } from '../../schemas';
import { zText } from '../../text';

/** A calendar day, `YYYY-MM-DD`, that really exists (2025-02-30 is refused). */
export const ZDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00.000Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
  }, 'is not a real calendar date');

export const ZSeasonId = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be 1-32 of a-z 0-9 - starting with a letter (e.g. y2s4)');

export const ZSeasonInput = z
  .strictObject({
    id: ZSeasonId,
    key: z
      .string()
      .regex(
        /^[A-Za-z][A-Za-z0-9]{0,63}$/,
        'must be 1-64 letters and digits starting with a letter (e.g. gutsAndGlory)',
      )
      .optional(),
    name: zText({ min: 1, max: 100 }).optional(),
    number: z.number().int().min(0).max(100_000),
    startDate: ZDate,
    endDate: ZDate,
  })
  .refine((season) => season.endDate >= season.startDate, {
    path: ['endDate'],
    message: 'must not be before startDate',
  });
export type TSeasonInput = z.infer<typeof ZSeasonInput>;

/** A season identifier as the API accepts it: its id (`y2s4`), its key (`gutsAndGlory`) or its number. */
export const ZSeasonRef = zRef(64);

export const ZSeasonStatus = z
  .enum(['active', 'upcoming', 'ended'])
  .meta({ description: 'upcoming before startsAt, active from startsAt until endsAt, ended after' });
export type TSeasonStatus = z.infer<typeof ZSeasonStatus>;

export const ZSeasonOut = z.object({
  id: z.string().meta({ description: "The season's id, lower case (y2s4: the data set's alternativeName)" }),
  key: z.string().meta({ description: 'Its key (gutsAndGlory); the id when none was given' }),
  name: z.string().meta({ description: 'Its name (Guts and Glory); made from the key when none was given' }),
  number: z.number().int().meta({ description: 'Its ordinal (release = 0)' }),
  startDate: z.string().meta({ description: 'First day (UTC), YYYY-MM-DD' }),
  endDate: z.string().meta({ description: 'Last day (UTC), inclusive, YYYY-MM-DD' }),
  startsAt: z.string().meta({ description: 'Midnight UTC at the start of startDate (ISO-8601)' }),
  endsAt: z.string().meta({ description: 'The midnight (UTC) after endDate (ISO-8601)' }),
  status: ZSeasonStatus,
});
export type TSeason = z.infer<typeof ZSeasonOut>;
