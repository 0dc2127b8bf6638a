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
 * Points are a resource of their own (issue 19): each has an owner and a globally unique uuid, and
 * sits in at most one collection (`collectionId` null: an "orphan" point, as the web client calls
 * it). A collection's points are ordered by `position`. Deleting a collection deletes its points,
 * as the contract's embedded `points` always did. The CHECKs repeat the API's validation so no code
 * path can store an impossible place.
 */
export const mapPoints = sqliteTable(
  'map_points',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id').references(() => mapCollections.id, { onDelete: 'cascade' }),
    /** Order of the points in their collection as the author gave them. */
    position: integer('position').notNull().default(0),
    title: text('title').notNull(),
    description: text('description'),
    address: text('address'),
    latitude: real('latitude').notNull(),
    longitude: real('longitude').notNull(),
    /** JSON array of strings. */
    tags: text('tags', { mode: 'json' }).$type<string[]>().notNull(),
    /** An orphan point's own visibility; a point in a collection is as visible as its collection. */
    isPublic: integer('is_public', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    index('map_points_collection_position').on(table.collectionId, table.position),
    index('map_points_owner_updated').on(table.ownerId, table.updatedAt),
    index('map_points_place').on(table.latitude, table.longitude),
    check('map_points_latitude', sql`${table.latitude} BETWEEN -90 AND 90`),
    check('map_points_longitude', sql`${table.longitude} BETWEEN -180 AND 180`),
  ],
);

/**
 * Named users a collection is shared with (the web client's `sharedUsers`): they may read it even
 * when it is not public, and edit its points when `canEdit`.
 */
export const mapCollectionShares = sqliteTable(
  'map_collection_shares',
  {
    collectionId: text('collection_id')
      .notNull()
      .references(() => mapCollections.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    canEdit: integer('can_edit', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.collectionId, table.userId] }), index('map_collection_shares_user').on(table.userId)],
);
