/**
 * Profiles (issue 19): the public fields of an account (display name, avatar, introduction,
 * language) in the web client's shapes, and their edits. Avatars are set and served in avatar.ts;
 * the password in account.ts.
 */
import { eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { users } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { effectivePrivileges } from '../privilege';
import { assertDisplayNameUnlike, skeletonsOf } from './names';
import type { TProfile, TPublicProfile, TRole, TRoleName, TUpdateMeInput } from './schemas';

/** The role's names as the web client knows them. */
export function roleNames(role: TRole): TRoleName[] {
  return role === 'admin' ? ['admin'] : ['normal'];
}

/** The columns of users a profile is made of. */
export const profileColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  role: users.role,
  createdAt: users.createdAt,
  alternativeName: users.alternativeName,
  avatarUrl: users.avatarUrl,
  introduction: users.introduction,
  language: users.language,
};

function findProfile(db: TDb, id: string) {
  return db.select(profileColumns).from(users).where(eq(users.id, id)).get();
}

/** An account's row as profileColumns reads it. */
export type TProfileRow = NonNullable<Awaited<ReturnType<typeof findProfile>>>;

/** A public profile in the web client's shape: what anyone may read of an account. */
export function toPublicProfile(row: TProfileRow): TPublicProfile {
  return {
    id: row.id,
    username: row.username,
    alternativeName: row.alternativeName,
    userAvatar: row.avatarUrl,
    role: roleNames(row.role),
    attr: { introduction: row.introduction ?? '', language: row.language ?? '' },
    joinTime: row.createdAt.toISOString(),
    userId: row.id,
    lastOnlineTime: null,
  };
}

/** The caller's own profile: the public one, the e-mail and what the account holds now (issue 35). */
export async function toProfile(deps: TDepsOf<'db' | 'now'>, row: TProfileRow): Promise<TProfile> {
  return { ...toPublicProfile(row), email: row.email, privilege: await effectivePrivileges(deps, row) };
}

const userNotFound = () => new AppError('NOT_FOUND', 'User not found', { key: 'user.notFound' });
/** The caller's account is gone (deleted while its session was being used): as for a dead token. */
const accountGone = () => new AppError('UNAUTHORIZED', 'Invalid or expired access token', { key: 'user.tokenExpired' });

/** GET /user/info: anyone's public profile; 404 for an unknown id. */
export async function getPublicProfile(deps: TDepsOf<'db'>, { id }: { id: string }): Promise<TPublicProfile> {
  const row = await findProfile(deps.db, id);
  if (!row) throw userNotFound();
  return toPublicProfile(row);
}

/** Whether a user exists: the public lists of a user's space are a 404 for an unknown id, as their profile is. */
export async function assertUserExists(deps: TDepsOf<'db'>, { id }: { id: string }): Promise<void> {
  const row = await deps.db.select({ id: users.id }).from(users).where(eq(users.id, id)).get();
  if (!row) throw userNotFound();
}

/** GET /user/me: the caller's profile as stored now. */
export async function getOwnProfile(deps: TDepsOf<'db' | 'now'>, { userId }: { userId: string }): Promise<TProfile> {
  const row = await findProfile(deps.db, userId);
  if (!row) throw accountGone();
  return toProfile(deps, row);
}

/** One UPDATE of the caller's row, answering the profile as it now is (one statement: nothing to interleave with). */
export async function updateOwnProfile(
  deps: TDepsOf<'db' | 'now'>,
  {
    userId,
    set,
  }: {
    userId: string;
    set: Partial<
      Pick<
        typeof users.$inferInsert,
        'alternativeName' | 'alternativeNameSkeleton' | 'avatarUrl' | 'introduction' | 'language'
      >
    >;
  },
): Promise<TProfile> {
  const [row] = await deps.db
    .update(users)
    .set({ ...set, updatedAt: deps.now() })
    .where(eq(users.id, userId))
    .returning(profileColumns);
  if (!row) throw accountGone();
  return toProfile(deps, row);
}

/** POST /user/me: the fields of `attr` given are set (`''` clears one: stored as null), the others kept. */
export function updateProfileAttr(
  deps: TDepsOf<'db' | 'now'>,
  { userId, attr }: { userId: string } & TUpdateMeInput,
): Promise<TProfile> {
  const set: { introduction?: string | null; language?: string | null } = {};
  if (attr.introduction !== undefined) set.introduction = attr.introduction === '' ? null : attr.introduction;
  if (attr.language !== undefined) set.language = attr.language === '' ? null : attr.language;
  return Object.keys(set).length === 0 ? getOwnProfile(deps, { userId }) : updateOwnProfile(deps, { userId, set });
}

/**
 * PUT /user/changeAlternativeName: the display name (trimmed by its schema); `''` removes it. 409 when
 * it looks like another account's username (names.ts), checked in the transaction that stores it.
 */
export function changeAlternativeName(
  deps: TDepsOf<'db' | 'now'>,
  { userId, name }: { userId: string; name: string },
): Promise<TProfile> {
  const alternativeName = name === '' ? null : name;
  return transaction(deps.db, async (tx) => {
    if (alternativeName !== null) await assertDisplayNameUnlike(tx, userId, alternativeName);
    return updateOwnProfile(
      { ...deps, db: tx },
      { userId, set: { alternativeName, ...skeletonsOf({ alternativeName }) } },
    );
  });
}
