import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './user';

/**
 * The team-up board (looking for a group): a short-lived notice, published signed in or anonymously
 * (`publisherId` null). Expiry is enforced on read (`expires_at` > now); expired rows are purged later.
 * A cancelled team-up is deleted.
 */
export const teamUps = sqliteTable(
  'team_ups',
  {
    id: text('id').primaryKey(),
    publisherId: text('publisher_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The in-game player id to add as a friend. */
    player: text('player').notNull(),
    description: text('description').notNull(),
    /** JSON array of strings. */
    tags: text('tags', { mode: 'json' }).$type<string[]>().notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    index('team_ups_expires').on(table.expiresAt),
    index('team_ups_publisher_expires').on(table.publisherId, table.expiresAt),
  ],
);
