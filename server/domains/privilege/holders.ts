// Who holds what, at use (issue 35): an account's grants in force, what they give through the tree,
// its account state for the session check, and the check a write makes of a right.
import { and, eq, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { privilegeGrants, users } from '../../../db/schema';
import type { TAccountState } from '../../auth';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { effectiveTypes, type TPrivilegeType, type TRight, typeInfo } from './tree';

/** A grant in force at `now`: not suspended, and without an expiry or before it. Expiry is read here, at each use. */
export function inForce(now: Date): SQL {
  return sql`(${privilegeGrants.suspendedAt} is null and (${privilegeGrants.expiresAt} is null or ${privilegeGrants.expiresAt} > ${now.getTime()}))`;
}

function holdsInForce(userId: SQLWrapper | string, type: TPrivilegeType, now: Date): SQL {
  return sql`exists (select 1 from ${privilegeGrants} where ${privilegeGrants.userId} = ${userId} and ${privilegeGrants.type} = ${type} and ${inForce(now)})`;
}

/**
 * The account state of the user `userId` names (a column of the session's query) at `now`, as one SQL
 * expression: two lookups of the grants' primary key. A frozen account is `freezed` whatever else.
 */
export function accountStateSql(userId: SQLWrapper, now: Date): SQL<TAccountState> {
  return sql<TAccountState>`case when ${holdsInForce(userId, 'freezed', now)} then 'freezed' when ${holdsInForce(userId, 'blacklisted', now)} then 'blacklisted' else 'active' end`;
}

/** The account's state now (sign-in reads it once the password is checked). */
export async function accountStateOf(deps: TDepsOf<'db' | 'now'>, { userId }: { userId: string }) {
  const row = await deps.db
    .select({ state: accountStateSql(users.id, deps.now()) })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  return row?.state ?? 'active';
}

async function grantedInForce(db: TDb, userId: string, now: Date): Promise<string[]> {
  const rows = await db
    .select({ type: privilegeGrants.type })
    .from(privilegeGrants)
    .where(and(eq(privilegeGrants.userId, userId), inForce(now)))
    .all();
  return rows.map((row) => row.type);
}

/** What an account holds now (`privilege[]` of sign-in and user/me): an admin every right, others what their grants in force give. */
export async function effectivePrivileges(
  deps: TDepsOf<'db' | 'now'>,
  user: { id: string; role: 'user' | 'admin' },
): Promise<TPrivilegeType[]> {
  return effectiveTypes(user.role, await grantedInForce(deps.db, user.id, deps.now()));
}

/** Whether the account holds `type` now, by its role or a grant in force of it or of a type above it. */
export async function holdsPrivilege(
  deps: TDepsOf<'db' | 'now'>,
  { userId, type }: { userId: string; type: TPrivilegeType },
): Promise<boolean> {
  const user = await deps.db.select({ role: users.role }).from(users).where(eq(users.id, userId)).get();
  if (!user) return false;
  return (await effectivePrivileges(deps, { id: userId, role: user.role })).includes(type);
}

export function privilegeRequired(type: TRight): AppError {
  const above: string[] = [];
  for (let parent = typeInfo(type).parent; parent !== null; parent = typeInfo(parent).parent) above.push(parent);
  const through = above.length > 0 ? ` (or ${above.join(', ')})` : '';
  return new AppError('FORBIDDEN', `This needs the privilege ${type}${through}, in force`, {
    data: { privilegeType: type },
  });
}

/**
 * A write's check of a right: a 403 naming it unless the account holds it now. Called with the
 * write's transaction, so a grant revoked, suspended or expired before the write commits stops it.
 */
export async function assertPrivilege(
  deps: TDepsOf<'db' | 'now'>,
  { userId, type }: { userId: string; type: TRight },
): Promise<void> {
  if (!(await holdsPrivilege(deps, { userId, type }))) throw privilegeRequired(type);
}
