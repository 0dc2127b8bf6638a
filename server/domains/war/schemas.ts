import { z } from 'zod';
import { zInt, zRef } from '../../schemas';

/** The war domain's schemas: seasons, reference data, snapshots (input and import files), state and history answers. */

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
      .regex(/^[A-Za-z][A-Za-z0-9]{0,63}$/, 'must be 1-64 letters and digits starting with a letter (e.g. gutsAndGlory)')
      .optional(),
    name: z.string().trim().min(1).max(100).optional(),
    number: z.number().int().min(0).max(100_000),
    startDate: ZDate,
    endDate: ZDate,
  })
  .refine((season) => season.endDate >= season.startDate, { path: ['endDate'], message: 'must not be before startDate' });
export type TSeasonInput = z.infer<typeof ZSeasonInput>;

/** A season identifier as the API accepts it: its id (`y2s4`), its key (`gutsAndGlory`) or its number. */
export const ZSeasonRef = zRef(64);

export const ZSeasonStatus = z.enum(['active', 'upcoming', 'ended']);
export type TSeasonStatus = z.infer<typeof ZSeasonStatus>;

export const ZSeasonOut = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  number: z.number().int(),
  startDate: z.string().meta({ description: 'First day (UTC)' }),
  endDate: z.string().meta({ description: 'Last day (UTC), inclusive' }),
  startsAt: z.string(),
  endsAt: z.string().meta({ description: 'The midnight after endDate' }),
  status: ZSeasonStatus,
});
export type TSeason = z.infer<typeof ZSeasonOut>;

const ZSlug = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9-]{0,47}$/, 'must be 1-48 of a-z 0-9 - starting with a letter');
const ZScore = z.number().min(0, 'must not be negative').max(1e12, 'is too large');
const ZInstant = z.iso.datetime({ offset: true, error: 'must be an ISO-8601 date-time such as 2026-05-01T17:00:00Z' });

export const ZZoneInput = z.strictObject({ id: ZSlug, name: z.string().trim().min(1).max(100) });
export const ZCompanyInput = z.strictObject({
  id: ZSlug,
  name: z.string().trim().min(1).max(100),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour #rrggbb').default('#808080'),
});

function uniqueBy<T>(key: (item: T) => string, what: string) {
  return (items: T[], check: z.RefinementCtx) => {
    const seen = new Map<string, number>();
    items.forEach((item, index) => {
      const value = key(item);
      const first = seen.get(value);
      if (first !== undefined) check.addIssue({ code: 'custom', path: [index, what], message: `duplicates [${first}]` });
      else seen.set(value, index);
    });
  };
}

export const ZWarReferenceInput = z
  .strictObject({
    seasons: z.array(ZSeasonInput).max(500).default([]),
    zones: z.array(ZZoneInput).max(500).superRefine(uniqueBy((zone) => zone.id, 'id')).default([]),
    companies: z.array(ZCompanyInput).max(100).superRefine(uniqueBy((company) => company.id, 'id')).default([]),
  })
  .refine((input) => input.seasons.length + input.zones.length + input.companies.length > 0, {
    message: 'give at least one of seasons, zones, companies',
  });
export type TWarReferenceInput = z.infer<typeof ZWarReferenceInput>;

export const ZWarReferenceResult = z.object({ seasons: z.number().int(), zones: z.number().int(), companies: z.number().int() });
export type TWarReferenceResult = z.infer<typeof ZWarReferenceResult>;

export const ZSnapshotInput = z.strictObject({
  season: ZSeasonRef.meta({ description: 'Season id (y2s4), key or number' }),
  capturedAt: ZInstant,
  companies: z
    .array(z.strictObject({ companyId: ZSlug, score: ZScore }))
    .min(1, 'must list at least one company')
    .max(100)
    .superRefine(uniqueBy((entry) => entry.companyId, 'companyId')),
  zones: z
    .array(
      z.strictObject({
        zoneId: ZSlug,
        controlledBy: ZSlug.nullable().meta({ description: 'Controlling company id; null while contested' }),
        scores: z.record(ZSlug, ZScore).default({}).meta({ description: 'Score of each company in the zone, by company id' }),
      }),
    )
    .max(500)
    .superRefine(uniqueBy((entry) => entry.zoneId, 'zoneId'))
    .default([]),
  hotspots: z
    .array(
      z.strictObject({
        zoneId: ZSlug,
        name: z.string().trim().min(1).max(100),
        kind: ZSlug,
        endsAt: ZInstant.optional(),
      }),
    )
    .max(200)
    .default([]),
});
export type TSnapshotInput = z.infer<typeof ZSnapshotInput>;

export const ZSnapshotRecorded = z.object({ id: z.number().int(), seasonId: z.string(), capturedAt: z.string() });

/** Strict: a misspelt top-level key is an error rather than a file that silently imports nothing. */
export const ZWarImportFile = z
  .object({
    seasons: z.array(ZSeasonInput).max(500).default([]),
    zones: z.array(ZZoneInput).max(500).default([]),
    companies: z.array(ZCompanyInput).max(100).default([]),
    snapshots: z.array(ZSnapshotInput).max(200_000).default([]),
  })
  .strict();

export const ZThinInput = z
  .strictObject({ olderThanDays: zInt({ min: 1, max: 3650 }).optional().meta({ description: 'Default WAR_THIN_AFTER_DAYS' }) })
  .prefault({});
export const ZThinResult = z.object({ cutoff: z.string(), deleted: z.number().int() });
export type TThinResult = z.infer<typeof ZThinResult>;

export const ZCompanyStanding = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  score: z.number(),
  rank: z.number().int().meta({ description: '1 = highest score' }),
  zonesControlled: z.number().int(),
});

export const ZWarState = z.object({
  season: ZSeasonOut,
  capturedAt: z.string().nullable().meta({ description: 'Time of the snapshot; null when the season has none yet' }),
  companies: z.array(ZCompanyStanding),
  zones: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      controller: z.object({ id: z.string(), name: z.string(), color: z.string() }).nullable(),
      scores: z.array(z.object({ companyId: z.string(), name: z.string(), score: z.number() })),
    }),
  ),
  hotspots: z.array(z.object({ zoneId: z.string(), zoneName: z.string(), name: z.string(), kind: z.string(), endsAt: z.string().nullable() })),
});
export type TWarState = z.infer<typeof ZWarState>;

export const ZSeasonStateInput = z.strictObject({ season: ZSeasonRef });

export const ZSeasonSummary = ZSeasonOut.extend({
  snapshotCount: z.number().int(),
  firstSnapshotAt: z.string().nullable(),
  lastSnapshotAt: z.string().nullable(),
  current: z.boolean().meta({ description: 'The season /stateOfWar/latest and /history use by default' }),
});
export type TSeasonSummary = z.infer<typeof ZSeasonSummary>;

export const ZSeasonList = z.object({ items: z.array(ZSeasonSummary), currentSeasonId: z.string().nullable() });
export type TSeasonList = z.infer<typeof ZSeasonList>;

export const ZHistoryRange = z.enum(['1h', '1d', '7d'], { error: 'must be one of 1h, 1d, 7d' });
export type THistoryRange = z.infer<typeof ZHistoryRange>;

export const ZWarHistoryInput = z
  .strictObject({
    range: ZHistoryRange.default('1d'),
    season: ZSeasonRef.optional().meta({ description: 'Season id, key or number; default the current season' }),
  })
  .prefault({});

const ZBucketCompany = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  score: z.number().meta({ description: 'Score at the last snapshot of the bucket' }),
  average: z.number().meta({ description: 'Mean over the snapshots of the bucket, 2 decimals' }),
  min: z.number(),
  max: z.number(),
  zonesControlled: z.number().int().meta({ description: 'Zones held at the last snapshot of the bucket' }),
});

export const ZWarHistory = z.object({
  season: ZSeasonOut,
  range: ZHistoryRange,
  bucketSeconds: z.number().int(),
  from: z.string().nullable().meta({ description: 'Start of the first bucket (inclusive); null when the season has no snapshot' }),
  to: z.string().nullable().meta({ description: 'End of the last bucket (exclusive)' }),
  lastSnapshotAt: z.string().nullable(),
  buckets: z.array(
    z.object({
      start: z.string(),
      end: z.string(),
      snapshotCount: z.number().int(),
      lastSnapshotAt: z.string().nullable(),
      companies: z.array(ZBucketCompany),
    }),
  ),
});
export type TWarHistory = z.infer<typeof ZWarHistory>;
