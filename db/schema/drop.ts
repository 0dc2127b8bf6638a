import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * Streaming-platform drop campaigns. `id` is ours; `campaignId` is the platform's and the upsert key.
 * Status is never stored: it follows from `startsAt`/`endsAt` and the clock.
 */
export const dropCampaigns = sqliteTable(
  'drop_campaigns',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    campaignId: text('campaign_id').notNull().unique(),
    name: text('name').notNull(),
    game: text('game').notNull(),
    description: text('description'),
    imageUrl: text('image_url'),
    detailsUrl: text('details_url'),
    startsAt: integer('starts_at', { mode: 'timestamp_ms' }).notNull(),
    endsAt: integer('ends_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [index('drop_campaigns_window').on(table.startsAt, table.endsAt)],
);

export const dropRewards = sqliteTable(
  'drop_rewards',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => dropCampaigns.id, { onDelete: 'cascade' }),
    /** Order as given by the platform. */
    position: integer('position').notNull(),
    name: text('name').notNull(),
    imageUrl: text('image_url'),
    requiredMinutes: integer('required_minutes').notNull(),
  },
  (table) => [index('drop_rewards_campaign').on(table.campaignId, table.position)],
);

export const dropChannels = sqliteTable(
  'drop_channels',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => dropCampaigns.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    url: text('url'),
  },
  (table) => [uniqueIndex('drop_channels_campaign_name').on(table.campaignId, table.name)],
);
