import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The codex of the community data set (issue 34): one row per entity the web client has a codex page
 * for, so that comments and likes on those pages name a real target. `kind` is the target type the
 * client sends (ship, item, mod, commoditie, ...), `id` the entity's id as the client sends it; the
 * other columns are what a list of targets shows. Written only by the community data import.
 */
export const codexEntries = sqliteTable(
  'codex_entries',
  {
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    /** Made from the id (`crownedPrince` → Crowned Prince): the data set has no names, its translations do. */
    name: text('name').notNull(),
    /** The entity's `type` (or `category`) in the data set, when it has one. */
    type: text('type'),
    rarity: text('rarity'),
    /** The season key it came with (`shatteredSeas`), when the data set says. */
    season: text('season'),
  },
  (table) => [primaryKey({ columns: [table.kind, table.id] })],
);
