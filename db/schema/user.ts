import { sql } from 'drizzle-orm';
import { blob, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** A row whose name skeletons are not written yet (stored before migration 0019): the partial index's condition, and the fill's. */
export const nameSkeletonsPending = sql`username_skeleton IS NULL OR (alternative_name IS NOT NULL AND alternative_name_skeleton IS NULL)`;

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    /** Lower-cased username: the unique key, so "Anne" and "anne" cannot both exist. */
    usernameKey: text('username_key').notNull().unique(),
    /** Stored lower-case. */
    email: text('email').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    /**
     * Public profile (issue 19). `alternativeName` is the display name the web client edits through
     * `user/changeAlternativeName`; `username` stays the unique sign-in name. `avatarUrl` is either an
     * https URL the user gave or the service's own path to an uploaded image (`user_avatars`).
     */
    alternativeName: text('alternative_name'),
    avatarUrl: text('avatar_url'),
    introduction: text('introduction'),
    /** A BCP 47 tag such as `en-US` or `zh-CN`. */
    language: text('language'),
    /**
     * What the names look like (server/domains/user/names.ts: case and Unicode's confusables folded),
     * so that no name can pass for another account's. Written with the names; filled at start-up for
     * rows written before migration 0019.
     */
    usernameSkeleton: text('username_skeleton'),
    alternativeNameSkeleton: text('alternative_name_skeleton'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    index('users_username_skeleton').on(table.usernameSkeleton),
    index('users_alternative_name_skeleton').on(table.alternativeNameSkeleton),
    // The rows whose skeletons are still to be filled: empty once they are, so the fill at start-up costs one lookup.
    index('users_name_skeletons_pending').on(table.id).where(nameSkeletonsPending),
  ],
);

/** Sessions keyed by the SHA-256 of the token: a leaked table does not leak usable tokens. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [index('sessions_user_id').on(table.userId)],
);

/**
 * Uploaded avatars, one per user, kept in the database so that a backup holds them and every
 * instance of a scale-out serves them. The bytes are checked (type sniffed, size bounded) before
 * they are stored; `etag` is their SHA-256.
 */
export const userAvatars = sqliteTable('user_avatars', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  bytes: blob('bytes', { mode: 'buffer' }).notNull(),
  etag: text('etag').notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});
