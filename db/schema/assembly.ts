import { sql } from 'drizzle-orm';
import { type AnySQLiteColumn, index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
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

/** Bayesian smoothing of ratings (sort=rating): RATING_PRIOR_COUNT virtual votes of RATING_PRIOR_MEAN. */
export const RATING_PRIOR_MEAN = 3;
export const RATING_PRIOR_COUNT = 5;

/**
 * sort=hottest is time-invariant so that an index can serve it: `hot_rank = round(log10(2 x likes +
 * views / 10 + 1), 2) + created_at / HOT_DECAY_MS` (Reddit's form). Every HOT_DECAY_MS of age weighs
 * as much as ten times the likes and views. The triggers of migration 0013 write it (SQLite's log10 is
 * not deterministic on libSQL, so it cannot be a generated column there); their SQL has this constant.
 * The rounding (steps of 2.3% of interaction) lets most view flushes leave the indexed key alone.
 */
export const HOT_DECAY_MS = 12 * 60 * 60 * 1000;

/** The rows a list shows: public and not in the trash. Literal SQL, so the partial indexes below match it. */
export const LISTABLE_SQL = 'deleted_at IS NULL AND is_public = 1';

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
    /**
     * JSON `{ data?, attr?, wheel?, warehouse? }`: what the community web client sends beside the
     * loadout (issue 18), kept verbatim and answered back: its own form of the loadout (`data`, with
     * weapon modifications and the like that the catalog does not describe), its display settings
     * (`attr`, without the password) and its wheel and warehouse. `data` is dropped when an edit in
     * the contract's form changes the loadout, so that it never disagrees with the columns above.
     */
    client: text('client').notNull().default('{}'),
    isPublic: integer('is_public', { mode: 'boolean' }).notNull(),
    passwordHash: text('password_hash'),
    likes: integer('likes').notNull().default(0),
    ratingSum: integer('rating_sum').notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
    /** Set when moved to the trash; purged 30 days later. */
    deletedAt: integer('deleted_at', { mode: 'timestamp_ms' }),
    /** sort=hottest's key (HOT_DECAY_MS), written by triggers on insert and on every change of likes or views (assembly_views). */
    hotRank: real('hot_rank').notNull().default(0),
    /**
     * Forks (issue 19): the assembly this one was cloned from (the web client's `cloningUuid`), kept
     * as a credit while the original exists; purging the original clears it.
     */
    clonedFromId: integer('cloned_from_id').references((): AnySQLiteColumn => assemblies.id, { onDelete: 'set null' }),
    /** How many assemblies were cloned from this one and are not purged; kept by the fork writer in its transaction. */
    forkCount: integer('fork_count').notNull().default(0),
    /** sort=rating's key: the smoothed average (sum + 3 x 5) / (count + 5), computed by SQLite on read and in its indexes. */
    ratingRank: real('rating_rank').generatedAlwaysAs(
      sql.raw(
        `(rating_sum + ${RATING_PRIOR_MEAN * RATING_PRIOR_COUNT}) * 1.0 / (rating_count + ${RATING_PRIOR_COUNT})`,
      ),
      { mode: 'virtual' },
    ),
    /**
     * The hull as one search term for the FTS5 index (migration 0012): 'h' and the hex of ship_id, so a
     * keyword search filters by hull class inside FTS5 itself, exactly (any id, punctuation included,
     * is one token of letters and digits that no other id shares). Computed on read, never stored.
     */
    hullToken: text('hull_token').generatedAlwaysAs(sql.raw(`'h' || hex(ship_id)`), { mode: 'virtual' }),
  },
  (table) => [
    // Lists are newest first by id (assigned at publish): the index's implicit trailing rowid gives
    // that order for the listable rows (deleted_at IS NULL, is_public = 1) without a sort.
    index('assemblies_listable').on(table.deletedAt, table.isPublic),
    index('assemblies_creator').on(table.creatorId, table.deletedAt),
    index('assemblies_ship').on(table.shipId),
    index('assemblies_cloned_from').on(table.clonedFromId),
    // Issue 16: every order a list offers walks an index of the listable rows only, so a page costs
    // its offset plus its size in index entries, never a sort of every row. The trailing rowid (id)
    // of each entry breaks ties, newest first, when the index is walked backwards. The shipType
    // forms lead with ship_id: a hull class is a union of a few hulls, merged in order (assembly.ts).
    index('assemblies_hot').on(table.hotRank).where(sql.raw(LISTABLE_SQL)),
    index('assemblies_rating').on(table.ratingRank, table.ratingCount).where(sql.raw(LISTABLE_SQL)),
    index('assemblies_ship_latest').on(table.shipId).where(sql.raw(LISTABLE_SQL)),
    index('assemblies_ship_hot').on(table.shipId, table.hotRank).where(sql.raw(LISTABLE_SQL)),
    index('assemblies_ship_rating').on(table.shipId, table.ratingRank, table.ratingCount).where(sql.raw(LISTABLE_SQL)),
    // Issue 18: sort=updated (the web client's sortField=updatedTime) and the date ranges
    // (createdStart/End, updatedStart/End) walk these, in either direction (migration 0015).
    index('assemblies_updated').on(table.updatedAt).where(sql.raw(LISTABLE_SQL)),
    index('assemblies_created').on(table.createdAt).where(sql.raw(LISTABLE_SQL)),
    index('assemblies_ship_updated').on(table.shipId, table.updatedAt).where(sql.raw(LISTABLE_SQL)),
    index('assemblies_ship_created').on(table.shipId, table.createdAt).where(sql.raw(LISTABLE_SQL)),
  ],
);

/**
 * How many times each assembly was read (GET /assembly/item), one narrow row per assembly, made by a
 * trigger on every insert into `assemblies` (migration 0017) and dropped with it. Kept out of the
 * wide `assemblies` row so that counting views rewrites small pages: the batched flush of the view
 * counter (server/infra/view-counter.ts) touched a 4 KiB page of `assemblies` per viewed row, a few
 * dozen rows per page here (bench/README.md, issue 22). A trigger on `views` moves hot_rank.
 */
export const assemblyViews = sqliteTable('assembly_views', {
  assemblyId: integer('assembly_id')
    .primaryKey()
    .references(() => assemblies.id, { onDelete: 'cascade' }),
  views: integer('views').notNull().default(0),
});

/**
 * How many listable assemblies each hull has, kept exact by triggers (migration 0012) on every
 * insert, delete, publish-state change, trash, restore and change of hull: a list's total is a sum
 * over a few rows instead of a count of up to a million per request.
 */
export const assemblyListableCounts = sqliteTable('assembly_listable_counts', {
  shipId: text('ship_id').primaryKey(),
  n: integer('n').notNull(),
});

/**
 * Likes (issue 19; any target since issue 34): one per user and target. The target is
 * `(targetType, targetId)` as for comments (db/schema/comment.ts): an assembly's uuid, or a codex
 * entry's kind and id. An assembly also keeps its count in `assemblies.likes` (its sorts read it),
 * written with every like in the same transaction. Deleting a user removes their likes (the foreign
 * key); deleting an assembly removes its likes (the trigger `assemblies_delete_reactions`, migration 0020).
 */
export const likes = sqliteTable(
  'likes',
  {
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  // The key counts a target's likes (a range of it); the second index serves a user's likes across
  // target types, newest first (user/likes, user/space/likes).
  (table) => [
    primaryKey({ columns: [table.targetType, table.targetId, table.userId] }),
    index('likes_user').on(table.userId, table.createdAt),
  ],
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
