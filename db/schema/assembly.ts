import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './user';

/** Hulls of the game catalog, imported from the community `ships.json`. */
export const catalogHulls = sqliteTable('catalog_hulls', {
  id: text('id').primaryKey(),
  /** extraSmall | small | medium | large (ordered; items may require a minimum). */
  size: text('size'),
  archetype: text('archetype'),
  hitpoints: real('hitpoints'),
  braceStrength: real('brace_strength'),
  halfSail: real('half_sail'),
  fullSail: real('full_sail'),
  travelSail: real('travel_sail'),
  cargoSlots: real('cargo_slots'),
  cargoMaxWeight: real('cargo_max_weight'),
  /** JSON `{ [slotKind]: { count, gunPorts } }`, normalised from the community `[count, perDeck]`. */
  slots: text('slots').notNull(),
  /** JSON string array. */
  perks: text('perks').notNull(),
  /** The entry exactly as imported, so nothing of the community format is lost. */
  raw: text('raw').notNull(),
  importedAt: integer('imported_at', { mode: 'timestamp_ms' }).notNull(),
});

/** Items of the game catalog (every type, equipment or not), imported from the community `items.json`. */
export const catalogItems = sqliteTable(
  'catalog_items',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** weapon | armor | furniture | other: what a loadout may use it for. */
    category: text('category', { enum: ['weapon', 'armor', 'furniture', 'other'] }).notNull(),
    damagePerShot: real('damage_per_shot'),
    projectilesPerShot: real('projectiles_per_shot'),
    reloadSpeedMs: real('reload_speed_ms'),
    optimalRange: real('optimal_range'),
    armor: real('armor'),
    /** JSON `{ [damageKind]: fraction }`. */
    damageMitigation: text('damage_mitigation'),
    gearScore: real('gear_score'),
    weight: real('weight'),
    /** JSON string array. */
    perks: text('perks').notNull(),
    requiredSize: text('required_size'),
    raw: text('raw').notNull(),
    importedAt: integer('imported_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [index('catalog_items_category').on(table.category)],
);

/**
 * Shared loadouts. `id` is an integer key so the FTS5 index (custom migration `assemblies_fts`)
 * can use it as its content rowid; clients only ever see `uuid`.
 */
export const assemblies = sqliteTable(
  'assemblies',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    uuid: text('uuid').notNull().unique(),
    creatorId: text('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    shipId: text('ship_id').notNull(),
    /** JSON `[{ slot, itemId }]`. */
    weapons: text('weapons').notNull(),
    armor: text('armor'),
    /** JSON string array. */
    furnitures: text('furnitures').notNull(),
    description: text('description').notNull().default(''),
    /** JSON string array; indexed by FTS5 with the name. */
    tags: text('tags').notNull(),
    isPublic: integer('is_public', { mode: 'boolean' }).notNull(),
    passwordHash: text('password_hash'),
    likes: integer('likes').notNull().default(0),
    views: integer('views').notNull().default(0),
    ratingSum: integer('rating_sum').notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
    /** Set when moved to the trash; purged 30 days later. */
    deletedAt: integer('deleted_at', { mode: 'timestamp_ms' }),
  },
  (table) => [
    // Lists are newest first by id (assigned at publish): the index's implicit trailing rowid gives
    // that order for the listable rows (deleted_at IS NULL, is_public = 1) without a sort.
    index('assemblies_listable').on(table.deletedAt, table.isPublic),
    index('assemblies_creator').on(table.creatorId, table.deletedAt),
    index('assemblies_ship').on(table.shipId),
  ],
);

export const assemblyLikes = sqliteTable(
  'assembly_likes',
  {
    assemblyId: integer('assembly_id')
      .notNull()
      .references(() => assemblies.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.assemblyId, table.userId] })],
);

export const assemblyRatings = sqliteTable(
  'assembly_ratings',
  {
    assemblyId: integer('assembly_id')
      .notNull()
      .references(() => assemblies.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    score: integer('score').notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.assemblyId, table.userId] })],
);
