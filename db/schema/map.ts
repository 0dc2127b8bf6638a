import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './user';

export const mapCollections = sqliteTable(
  'map_collections',
  {
    id: text('id').primaryKey(),
    authorId: text('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    isPublic: integer('is_public', { mode: 'boolean' }).notNull().default(true),
    /** Kept with the points in one transaction so lists need no join. */
    pointCount: integer('point_count').notNull().default(0),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [index('map_collections_author_updated').on(table.authorId, table.updatedAt)],
);

/**
 * Points are keyed by (collection, uuid): a client may copy a point with its uuid into another
 * collection. The CHECKs repeat the API's validation so no code path can store an impossible place.
 */
export const mapPoints = sqliteTable(
  'map_points',
  {
    collectionId: text('collection_id')
      .notNull()
      .references(() => mapCollections.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    /** Order of the points as the author gave them. */
    position: integer('position').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    latitude: real('latitude').notNull(),
    longitude: real('longitude').notNull(),
    /** JSON array of strings. */
    tags: text('tags', { mode: 'json' }).$type<string[]>().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.collectionId, table.id] }),
    index('map_points_collection_position').on(table.collectionId, table.position),
    check('map_points_latitude', sql`${table.latitude} BETWEEN -90 AND 90`),
    check('map_points_longitude', sql`${table.longitude} BETWEEN -180 AND 180`),
  ],
);
