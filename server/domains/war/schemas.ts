// The war domain's schemas: seasons (season-schemas.ts), reference data, snapshots and import files
// (write-schemas.ts), and here the answers: state, season list and history.
import { z } from 'zod';
import { ZSeasonOut, ZSeasonRef } from './season-schemas';

export * from './season-schemas';
export * from './write-schemas';

/** A trading company's id, name and colour, as the war's answers show them (an id without reference data: its name is the id, its colour #808080). */
const companyFields = {
  id: z.string().meta({
    description:
      "The trading company's id: the community data set's faction id (compagnieRoyale) or a slug (crimson-reef)",
  }),
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
  season: ZSeasonRef.meta({
    description:
      "The community data set's id (shatteredSeas, as the web client sends it), its alternativeName (y3s2) or the number",
  }),
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
    season: ZSeasonRef.optional().meta({
      description:
        "The community data set's id (shatteredSeas), its alternativeName (y3s2) or the number; default the current season",
    }),
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
