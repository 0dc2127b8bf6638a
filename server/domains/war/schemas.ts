import { z } from 'zod';
import { zText } from '../../text';
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

const ZSlug = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9-]{0,47}$/, 'must be 1-48 of a-z 0-9 - starting with a letter');
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

/** A trading company's id, name and colour, as the war's answers show them (an id without reference data: its name is the id, its colour #808080). */
const companyFields = {
  id: z.string().meta({ description: "The trading company's id (a slug such as crimson-reef)" }),
  name: z.string().meta({ description: 'Its name (the id when the reference data lacks it)' }),
  color: z.string().meta({ description: 'Its colour, #rrggbb (#808080 when the reference data lacks it)' }),
};

/** A trading company (WarCompany in the OpenAPI document): a zone's controller. */
export const ZWarCompany = z.object(companyFields).meta({ description: 'A trading company' });

export const ZCompanyStanding = z.object({
  ...companyFields,
  score: z.number().meta({ description: "The company's score in the snapshot" }),
  rank: z.number().int().meta({ description: '1 = highest score (ties by id)' }),
  zonesControlled: z.number().int().meta({ description: 'Zones it controls in the snapshot' }),
});

export const ZWarState = z.object({
  season: ZSeasonOut,
  capturedAt: z.string().nullable().meta({ description: 'Time of the snapshot; null when the season has none yet' }),
  companies: z
    .array(ZCompanyStanding)
    .meta({ description: 'Every company scored in the snapshot, highest first; empty without one' }),
  zones: z
    .array(
      z.object({
        id: z.string().meta({ description: "The zone's id" }),
        name: z.string().meta({ description: 'Its name (the id when the reference data lacks it)' }),
        controller: ZWarCompany.nullable().meta({ description: 'The company controlling it; null while contested' }),
        scores: z
          .array(
            z.object({
              companyId: z.string().meta({ description: 'The company' }),
              name: z.string().meta({ description: "The company's name" }),
              score: z.number().meta({ description: 'Its score in the zone' }),
            }),
          )
          .meta({ description: "Each company's score in the zone, highest first" }),
      }),
    )
    .meta({ description: 'Every zone of the snapshot, by id' }),
  hotspots: z
    .array(
      z.object({
        zoneId: z.string().meta({ description: 'The zone it is in' }),
        zoneName: z.string().meta({ description: "The zone's name" }),
        name: z.string().meta({ description: 'The hotspot (Fort Siege)' }),
        kind: z.string().meta({ description: 'Its kind, a slug (fort-siege)' }),
        endsAt: z.string().nullable().meta({ description: 'When it ends; null when not known' }),
      }),
    )
    .meta({ description: 'The hotspots active at the snapshot, in the order recorded' }),
});
export type TWarState = z.infer<typeof ZWarState>;

export const ZSeasonStateInput = z.strictObject({
  season: ZSeasonRef.meta({ description: 'Season id (y2s4), key (gutsAndGlory) or number' }),
});

export const ZSeasonSummary = ZSeasonOut.extend({
  snapshotCount: z.number().int().meta({ description: 'Snapshots recorded for the season' }),
  firstSnapshotAt: z.string().nullable().meta({ description: 'Its first snapshot; null when it has none' }),
  lastSnapshotAt: z.string().nullable().meta({ description: 'Its last snapshot; null when it has none' }),
  current: z.boolean().meta({ description: 'The season /stateOfWar/latest and /history use by default' }),
});
export type TSeasonSummary = z.infer<typeof ZSeasonSummary>;

export const ZSeasonList = z.object({
  items: z.array(ZSeasonSummary).meta({ description: 'Every season, in order of start' }),
  currentSeasonId: z.string().nullable().meta({
    description: 'The current season (the latest started one still running, else the last ended); null before any',
  }),
});
export type TSeasonList = z.infer<typeof ZSeasonList>;

export const ZHistoryRange = z.enum(['1h', '1d', '7d'], { error: 'must be one of 1h, 1d, 7d' });
export type THistoryRange = z.infer<typeof ZHistoryRange>;

export const ZWarHistoryInput = z
  .strictObject({
    range: ZHistoryRange.default('1d').meta({
      description: '1h (1-minute buckets), 1d (15 minutes, the default) or 7d (1 hour)',
    }),
    season: ZSeasonRef.optional().meta({ description: 'Season id, key or number; default the current season' }),
  })
  .prefault({});

/** A company's standing in one bucket of the history (WarHistoryCompany in the OpenAPI document). */
export const ZBucketCompany = z.object({
  ...companyFields,
  score: z.number().meta({ description: 'Score at the last snapshot of the bucket' }),
  average: z.number().meta({ description: 'Mean over the snapshots of the bucket, 2 decimals' }),
  min: z.number().meta({ description: 'Lowest score over the snapshots of the bucket' }),
  max: z.number().meta({ description: 'Highest score over the snapshots of the bucket' }),
  zonesControlled: z.number().int().meta({ description: 'Zones held at the last snapshot of the bucket' }),
});

export const ZWarHistory = z.object({
  season: ZSeasonOut,
  range: ZHistoryRange.meta({
    description: 'The range asked: 1h (60 buckets of 1 minute), 1d (96 of 15 minutes) or 7d (168 of 1 hour)',
  }),
  bucketSeconds: z.number().int().meta({ description: 'Length of a bucket in seconds: 60, 900 or 3600' }),
  from: z
    .string()
    .nullable()
    .meta({ description: 'Start of the first bucket (inclusive); null when the season has no snapshot' }),
  to: z.string().nullable().meta({ description: 'End of the last bucket (exclusive)' }),
  lastSnapshotAt: z.string().nullable().meta({ description: "The season's last snapshot; null when it has none" }),
  buckets: z
    .array(
      z.object({
        start: z
          .string()
          .meta({ description: 'Start of the bucket (inclusive), on a whole UTC minute, quarter-hour or hour' }),
        end: z.string().meta({ description: 'End of the bucket (exclusive)' }),
        snapshotCount: z.number().int().meta({ description: 'Snapshots in the bucket; 0 for an empty one' }),
        lastSnapshotAt: z.string().nullable().meta({ description: 'The last snapshot in the bucket; null when empty' }),
        companies: z
          .array(ZBucketCompany)
          .meta({ description: 'The companies scored in the bucket, highest score at its last snapshot first' }),
      }),
    )
    .meta({
      description:
        "Oldest first; the last holds the season's last snapshot, so a range always has all its buckets. Empty when the season has no snapshot",
    }),
});
export type TWarHistory = z.infer<typeof ZWarHistory>;
