import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './user';

/**
 * The smugglers' weekly reports (issue 35): a title, opaque JSON content (stored as given, never
 * interpreted), the time range it covers and its status. A draft is seen by its author and the
 * admins only. Its comments are rows of `comments` under target type `smugglersReport` with the id as
 * text; the trigger `smugglers_reports_delete_reactions` of migration 0022 removes them with it.
 */
export const smugglersReports = sqliteTable(
  'smugglers_reports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    authorId: text('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** JSON text, as the client sent it. */
    content: text('content').notNull(),
    startTime: integer('start_time', { mode: 'timestamp_ms' }).notNull(),
    endTime: integer('end_time', { mode: 'timestamp_ms' }).notNull(),
    status: text('status', { enum: ['draft', 'published', 'archived'] }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    // byTime: the published reports whose range holds a date, latest start first (a covering range).
    index('smugglers_reports_status_range').on(table.status, table.startTime, table.endTime),
    // The lists, newest first, by status.
    index('smugglers_reports_status_created').on(table.status, table.createdAt),
    // An author's reports (my-reports, and their drafts in the list).
    index('smugglers_reports_author').on(table.authorId, table.status, table.createdAt),
  ],
);
