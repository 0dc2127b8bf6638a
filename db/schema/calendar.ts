import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { seasons } from './war';

/** A season's calendar events; replaced as a whole by ingestion. */
export const calendarEvents = sqliteTable(
  'calendar_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    seasonId: text('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    /** The source's identifier of the event, unique within the season. */
    eventKey: text('event_key').notNull(),
    title: text('title').notNull(),
    category: text('category').notNull(),
    description: text('description'),
    url: text('url'),
    startsAt: integer('starts_at', { mode: 'timestamp_ms' }).notNull(),
    endsAt: integer('ends_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    uniqueIndex('calendar_events_season_key').on(table.seasonId, table.eventKey),
    index('calendar_events_season_start').on(table.seasonId, table.startsAt),
  ],
);
