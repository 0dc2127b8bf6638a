// The inputs and reports of war data writes: reference data, snapshots, import files and thinning.
import { z } from 'zod';
import { zText } from '../../text';
import { zInt } from '../../schemas';
import { ZSeasonInput, ZSeasonRef } from './season-schemas';

/** A zone's or company's id: a slug (`crimson-reef`) or the community data set's id (`compagnieRoyale`). */
const ZSlug = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9-]{0,47}$/, 'must be 1-48 of letters, digits and - starting with a letter');
const ZScore = z.number().min(0, 'must not be negative').max(1e12, 'is too large');
const ZInstant = z.iso.datetime({ offset: true, error: 'must be an ISO-8601 date-time such as 2026-05-01T17:00:00Z' });

export const ZZoneInput = z.strictObject({ id: ZSlug, name: zText({ min: 1, max: 100 }) });
export const ZCompanyInput = z.strictObject({
  id: ZSlug,
  name: zText({ min: 1, max: 100 }),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour #rrggbb')
    .default('#808080'),
});

function uniqueBy<T>(key: (item: T) => string, what: string) {
  return (items: T[], check: z.RefinementCtx) => {
    const seen = new Map<string, number>();
    items.forEach((item, index) => {
      const value = key(item);
      const first = seen.get(value);
      if (first !== undefined)
        check.addIssue({ code: 'custom', path: [index, what], message: `duplicates [${first}]` });
      else seen.set(value, index);
    });
  };
}

export const ZWarReferenceInput = z
  .strictObject({
    seasons: z.array(ZSeasonInput).max(500).default([]),
    zones: z
      .array(ZZoneInput)
      .max(500)
      .superRefine(uniqueBy((zone) => zone.id, 'id'))
      .default([]),
    companies: z
      .array(ZCompanyInput)
      .max(100)
      .superRefine(uniqueBy((company) => company.id, 'id'))
      .default([]),
  })
  .refine((input) => input.seasons.length + input.zones.length + input.companies.length > 0, {
    message: 'give at least one of seasons, zones, companies',
  });
export type TWarReferenceInput = z.infer<typeof ZWarReferenceInput>;

export const ZWarReferenceResult = z.object({
  seasons: z.number().int().meta({ description: 'Seasons written (added or updated by id)' }),
  zones: z.number().int().meta({ description: 'Zones written (added or updated by id)' }),
  companies: z.number().int().meta({ description: 'Trading companies written (added or updated by id)' }),
});
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
        scores: z
          .record(ZSlug, ZScore)
          .default({})
          .meta({ description: 'Score of each company in the zone, by company id' }),
      }),
    )
    .max(500)
    .superRefine(uniqueBy((entry) => entry.zoneId, 'zoneId'))
    .default([]),
  hotspots: z
    .array(
      z.strictObject({
        zoneId: ZSlug,
        name: zText({ min: 1, max: 100 }),
        kind: ZSlug,
        endsAt: ZInstant.optional(),
      }),
    )
    .max(200)
    .default([]),
});
export type TSnapshotInput = z.infer<typeof ZSnapshotInput>;

export const ZSnapshotRecorded = z.object({
  id: z.number().int().meta({ description: 'The snapshot recorded' }),
  seasonId: z.string().meta({ description: 'The id of its season' }),
  capturedAt: z.string().meta({ description: 'Its time, in UTC (ISO-8601)' }),
});

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
  .strictObject({
    olderThanDays: zInt({ min: 1, max: 3650 }).optional().meta({ description: 'Default WAR_THIN_AFTER_DAYS' }),
  })
  .prefault({});
export const ZThinResult = z.object({
  cutoff: z
    .string()
    .meta({ description: 'Snapshots before it (a whole hour) were thinned to the first of each hour and season' }),
  deleted: z.number().int().meta({ description: 'Snapshots deleted' }),
});
export type TThinResult = z.infer<typeof ZThinResult>;
