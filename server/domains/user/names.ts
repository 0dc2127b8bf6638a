/**
 * Names that look alike (issue 31, item 5). A display name is shown where a username could be
 * (comments, profiles), so it must not look like another account's username, and a new username
 * must not look like another account's username or display name. "Look like" is decided on the
 * name's skeleton: Unicode's confusables (UTS #39, through the maintained `unhomoglyph` table),
 * ignoring case, so `CAPTAIN`, `capta1n`, `сaptain` (Cyrillic с) and `ＣＡＰＴＡＩＮ` are one name.
 * Characters nobody sees are refused before this, by the text rule (server/text.ts, `name`).
 *
 * Skeletons are stored beside the names (`users.username_skeleton`, `alternative_name_skeleton`,
 * indexed), written with them, and filled at start-up for rows written before they existed.
 */
import { and, eq, ne, or, sql } from 'drizzle-orm';
import unhomoglyph from 'unhomoglyph';
import type { TDb } from '../../../db/client';
import { transaction } from '../../../db/transaction';
import { nameSkeletonsPending, users } from '../../../db/schema';
import { AppError } from '../../errors';

/**
 * The skeleton of a name: confusables mapped on the upper-cased name, then again on its lower case,
 * so that a letter and its other case land together with what either looks like (`I`, `l`, `i`, `1`).
 * Decomposed (NFD), as UTS #39 does, so `é` and `e` + U+0301 are one.
 */
export function nameSkeleton(name: string): string {
  return unhomoglyph(unhomoglyph(name.normalize('NFD').toUpperCase()).toLowerCase()).normalize('NFD');
}

const conflict = (field: 'username' | 'alternativeName', message: string) =>
  new AppError('CONFLICT', message, {
    key: field === 'username' ? 'signup.userAlreadyHas' : 'request.conflict',
    data: { field },
  });

/** An account whose username or display name looks like `username`: through the two skeleton indexes. */
function usernameLookalike(db: TDb, username: string) {
  const skeleton = nameSkeleton(username);
  return db
    .select({ id: users.id })
    .from(users)
    .where(or(eq(users.usernameSkeleton, skeleton), eq(users.alternativeNameSkeleton, skeleton)))
    .limit(1);
}

/** Another account than `userId` whose username looks like `displayName`: through the username skeleton index. */
function displayNameLookalike(db: TDb, userId: string, displayName: string) {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.usernameSkeleton, nameSkeleton(displayName)), ne(users.id, userId)))
    .limit(1);
}

/** Both look-alike queries, for a test of their plans. */
export function lookalikeQueries(db: TDb, name: string, userId: string) {
  return [usernameLookalike(db, name), displayNameLookalike(db, userId, name)];
}

/**
 * 409 when `username` looks like another account's username or display name. Run in the transaction
 * that inserts the account, so that two sign-ups (or a sign-up and a rename) cannot both pass.
 */
export async function assertUsernameUnlike(tx: TDb, username: string): Promise<void> {
  if (await usernameLookalike(tx, username).get())
    throw conflict('username', 'Username looks like the name of another account: choose another');
}

/** 409 when a display name looks like another account's username (its own username is fine). Run in the transaction that stores it. */
export async function assertDisplayNameUnlike(tx: TDb, userId: string, displayName: string): Promise<void> {
  if (await displayNameLookalike(tx, userId, displayName).get()) {
    throw conflict('alternativeName', 'Display name looks like the username of another account: choose another');
  }
}

/** Rows filled per transaction by fillNameSkeletons. */
const FILL_BATCH = 500;

/**
 * A batch of the rows whose skeletons are still to be filled, through the partial index of exactly
 * that condition, named: left to itself, SQLite splits the OR over the two skeleton indexes and walks
 * every account without a display name.
 */
export const PENDING_NAME_ROWS = sql`SELECT id, username, alternative_name AS alternativeName FROM users INDEXED BY users_name_skeletons_pending WHERE ${nameSkeletonsPending} LIMIT ${sql.raw(String(FILL_BATCH))}`;

/**
 * Fills the skeletons of rows written before they were stored (migration 0019 adds the columns
 * empty): at start-up, after migrating. Each batch is one statement per row in one transaction; a
 * second instance doing the same writes the same values. The rows are found through the partial
 * index of exactly this condition, so once none is left the call costs one lookup of an empty index.
 */
export async function fillNameSkeletons(db: TDb): Promise<number> {
  let filled = 0;
  for (;;) {
    const rows = await db.all<{ id: string; username: string; alternativeName: string | null }>(PENDING_NAME_ROWS);
    if (rows.length === 0) return filled;
    await transaction(db, async (tx) => {
      for (const row of rows) {
        await tx
          .update(users)
          .set({
            usernameSkeleton: nameSkeleton(row.username),
            alternativeNameSkeleton: row.alternativeName === null ? null : nameSkeleton(row.alternativeName),
          })
          .where(eq(users.id, row.id));
      }
    });
    filled += rows.length;
  }
}

/** The columns a write of these names sets beside them. */
export function skeletonsOf(names: { username?: string; alternativeName?: string | null }) {
  return {
    ...(names.username !== undefined && { usernameSkeleton: nameSkeleton(names.username) }),
    ...(names.alternativeName !== undefined && {
      alternativeNameSkeleton: names.alternativeName === null ? null : nameSkeleton(names.alternativeName),
    }),
  };
}
