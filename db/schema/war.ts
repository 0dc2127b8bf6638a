import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * Game seasons, shared by the war and the calendar. `id` is the short name (`y2s4`), `key` the
 * community data set's key (`gutsAndGlory`), `number` the season's ordinal; any of them finds it.
 * `endDate` is the last day of the season (inclusive); `endsAt` is the midnight after it.
 */
export const seasons = sqliteTable('seasons', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  name: text('name').notNull(),
  number: integer('number').notNull().unique(),
  startDate: text('start_date').notNull(),
  endDate: text('end_date').notNull(),
  startsAt: integer('starts_at', { mode: 'timestamp_ms' }).notNull(),
  endsAt: integer('ends_at', { mode: 'timestamp_ms' }).notNull(),
});

export const warZones = sqliteTable('war_zones', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
});

export const warCompanies = sqliteTable('war_companies', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** `#rrggbb`, for charts. */
  color: text('color').notNull(),
});

export const warSnapshots = sqliteTable(
  'war_snapshots',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    seasonId: text('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    capturedAt: integer('captured_at', { mode: 'timestamp_ms' }).notNull(),
  },
  // History buckets and "latest" are range scans on this index; it also rejects duplicate timestamps.
  (table) => [uniqueIndex('war_snapshots_season_time').on(table.seasonId, table.capturedAt)],
);

export const warCompanyScores = sqliteTable(
  'war_company_scores',
  {
    snapshotId: integer('snapshot_id')
      .notNull()
      .references(() => warSnapshots.id, { onDelete: 'cascade' }),
    companyId: text('company_id')
      .notNull()
      .references(() => warCompanies.id),
    score: real('score').notNull(),
  },
  (table) => [
    uniqueIndex('war_company_scores_pk').on(table.snapshotId, table.companyId),
    // Covers the history's per-bucket aggregates (no table lookup per score row): 7d went from ~20 to ~9 ms.
    index('war_company_scores_cover').on(table.snapshotId, table.companyId, table.score),
  ],
);

export const warZoneControl = sqliteTable(
  'war_zone_control',
  {
    snapshotId: integer('snapshot_id')
      .notNull()
      .references(() => warSnapshots.id, { onDelete: 'cascade' }),
    zoneId: text('zone_id')
      .notNull()
      .references(() => warZones.id),
    /** The controlling company, or null while the zone is contested. */
    controllerId: text('controller_id').references(() => warCompanies.id),
    /** Each company's score in the zone, keyed by company id. */
    scores: text('scores', { mode: 'json' }).$type<Record<string, number>>().notNull(),
  },
  (table) => [uniqueIndex('war_zone_control_pk').on(table.snapshotId, table.zoneId)],
);

export const warHotspots = sqliteTable(
  'war_hotspots',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    snapshotId: integer('snapshot_id')
      .notNull()
      .references(() => warSnapshots.id, { onDelete: 'cascade' }),
    zoneId: text('zone_id')
      .notNull()
      .references(() => warZones.id),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    endsAt: integer('ends_at', { mode: 'timestamp_ms' }),
  },
  (table) => [index('war_hotspots_snapshot').on(table.snapshotId)],
);

/**
 * One change counter per data set, bumped by triggers (custom migration `data_versions_war`) on
 * every write to the set's tables, whichever process or instance writes. A memo built at version
 * N is current while the counter still reads N: one indexed read instead of re-running the queries.
 */
export const dataVersions = sqliteTable('data_versions', {
  name: text('name').primaryKey(),
  version: integer('version').notNull(),
});
