import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './user';

/**
 * Comments (issue 19; any target since issue 34). Plain text, never HTML; edited in place
 * (`updatedAt`), deleted for good. The target is `(targetType, targetId)`: an assembly's uuid, or a
 * codex entry's kind and id (server/domains/assembly/targets.ts lists the types). Deleting a user
 * removes their comments (the foreign key); deleting an assembly removes its comments (the trigger
 * `assemblies_delete_reactions` of migration 0020).
 */
export const comments = sqliteTable(
  'comments',
  {
    id: text('id').primaryKey(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    authorId: text('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    // A target's comments in order, and their count: one range of this index.
    index('comments_target').on(table.targetType, table.targetId, table.createdAt),
    // An author's comments across target types, newest first (user/comments).
    index('comments_author').on(table.authorId, table.createdAt),
    // A smugglers' report takes one comment per author (issue 35: each connoisseur's appraisal), and
    // the lists of reports find the caller's own through it.
    uniqueIndex('comments_one_per_author')
      .on(table.targetType, table.targetId, table.authorId)
      .where(sql`target_type = 'smugglersReport'`),
  ],
);
