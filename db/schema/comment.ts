import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { assemblies } from './assembly';
import { users } from './user';

/**
 * Comments on assemblies (issue 19). Plain text, never HTML; edited in place (`updatedAt`), deleted
 * for good. Purging an assembly or a user removes their comments.
 */
export const assemblyComments = sqliteTable(
  'assembly_comments',
  {
    id: text('id').primaryKey(),
    assemblyId: integer('assembly_id')
      .notNull()
      .references(() => assemblies.id, { onDelete: 'cascade' }),
    authorId: text('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    index('assembly_comments_assembly').on(table.assemblyId, table.createdAt),
    index('assembly_comments_author').on(table.authorId, table.createdAt),
  ],
);
