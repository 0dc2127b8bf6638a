import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './user';

/** Steps of `map_points.latitude_cell` per degree: a step is about 11 km. */
export const LATITUDE_CELLS_PER_DEGREE = 10;

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
    /**
     * Whether anyone may read the point: `is_public` for an orphan, its collection's `is_public`
     * otherwise. Written only by the triggers of migration 0018, in the statement that changes a
     * point or a collection's visibility (any other value written here is put right at once), so
     * the nearby search can index what each caller may read apart from what they may not.
     */
    readableByAnyone: integer('readable_by_anyone', { mode: 'boolean' }).notNull().default(false),
    /**
     * The latitude in steps of 1 / LATITUDE_CELLS_PER_DEGREE degree from the south pole (0 to 1800):
     * the nearby search seeks each step of its box in the longitude range, rather than walking the
     * whole band of latitude round the globe. Computed on read, never stored.
     */
    latitudeCell: integer('latitude_cell').generatedAlwaysAs(
      sql.raw(`CAST((latitude + 90) * ${LATITUDE_CELLS_PER_DEGREE} AS INTEGER)`),
      {
        mode: 'virtual',
      },
    ),
  },
  (table) => [
    index('map_points_collection_position').on(table.collectionId, table.position),
    index('map_points_owner_updated').on(table.ownerId, table.updatedAt),
    // The nearby search's three sets of candidates (server/domains/map/nearby.ts), each holding only
    // points its caller may read: every public point; the caller's own others; the others of a
    // collection shared with the caller. Each covers what the search reads (place and id).
    index('map_points_public_place')
      .on(table.latitudeCell, table.longitude, table.latitude, table.id)
      .where(sql.raw('readable_by_anyone = 1')),
    index('map_points_owner_private_place')
      .on(table.ownerId, table.latitude, table.longitude, table.id)
      .where(sql.raw('readable_by_anyone = 0')),
    index('map_points_collection_private_place')
      .on(table.collectionId, table.latitude, table.longitude, table.id)
      .where(sql.raw('readable_by_anyone = 0 AND collection_id IS NOT NULL')),
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
  (table) => [
    primaryKey({ columns: [table.collectionId, table.userId] }),
    index('map_collection_shares_user').on(table.userId),
  ],
);
