import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './user';

/**
 * Privileges (issue 35): one row per account and privilege type granted to it, its types declared
 * in code (server/domains/privilege/tree.ts). A grant is in force while it is not suspended and not
 * past `expires_at`, read at each use: nothing has to run when it expires. Revoking deletes the row;
 * every change is in `privilege_audit`.
 */
export const privilegeGrants = sqliteTable(
  'privilege_grants',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    /** The admin who granted it last; null once that account is gone. */
    grantedBy: text('granted_by').references(() => users.id, { onDelete: 'set null' }),
    grantedAt: integer('granted_at', { mode: 'timestamp_ms' }).notNull(),
    /** Null: never expires. */
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }),
    /** Set while it is suspended (held, not in force). */
    suspendedAt: integer('suspended_at', { mode: 'timestamp_ms' }),
  },
  (table) => [
    // An account's grants, and whether it holds one type: the one key the auth check and sign-in read.
    primaryKey({ columns: [table.userId, table.type] }),
    // The list and the export filtered by type, newest grant first.
    index('privilege_grants_type').on(table.type, table.grantedAt),
    index('privilege_grants_granted').on(table.grantedAt),
  ],
);

/**
 * Every change of a grant, in order (`id`): who changed what of whose, when, and the expiry it left.
 * Kept when the grant is revoked and when either account is deleted (no foreign keys), so the log
 * says what happened even then.
 */
export const privilegeAudit = sqliteTable(
  'privilege_audit',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: text('user_id').notNull(),
    type: text('type').notNull(),
    action: text('action', { enum: ['grant', 'revoke', 'suspend', 'resume', 'expiry'] }).notNull(),
    /** The admin who made the change. */
    actorId: text('actor_id').notNull(),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
    /** The grant's expiry after the change (null: none, or revoked). */
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }),
  },
  (table) => [
    index('privilege_audit_user').on(table.userId, table.id),
    index('privilege_audit_type').on(table.type, table.id),
  ],
);
