// Who holds what, at use (issue 35): an account's grants in force, what they give through the tree,
// its account state for the session check, and the check a write makes of a right.
import { and, eq, Placeholder, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { prepared } from '../../../db/prepared';
import { privilegeGrants, users } from '../../../db/schema';
import type { TAccountState } from '../../auth';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { effectiveTypes, type TPrivilegeType, type TRight, typeInfo } from './tree';

/** The moment grants are judged at: a Date, or the placeholder of a prepared query that binds it as epoch ms. */
export type TAt = Date | Placeholder;

/** A grant in force at `at`: not suspended, and without an expiry or before it. Expiry is read here, at each use. */
export function inForce(at: TAt): SQL {
  const ms = at instanceof Placeholder ? at : at.getTime();
  return sql`(${privilegeGrants.suspendedAt} is null and (${privilegeGrants.expiresAt} is null or ${privilegeGrants.expiresAt} > ${ms}))`;
}

function holdsInForce(userId: SQLWrapper | string, type: TPrivilegeType, at: TAt): SQL {
  return sql`exists (select 1 from ${privilegeGrants} where ${privilegeGrants.userId} = ${userId} and ${privilegeGrants.type} = ${type} and ${inForce(at)})`;
}

/**
 * The account state of the user `userId` names (a column of the session's query) at `now`, as one SQL
 * expression: two lookups of the grants' primary key. A frozen account is `freezed` whatever else.
 */
export function accountStateSql(userId: SQLWrapper, at: TAt): SQL<TAccountState> {
  return sql<TAccountState>`case when ${holdsInForce(userId, 'freezed', at)} then 'freezed' when ${holdsInForce(userId, 'blacklisted', at)} then 'blacklisted' else 'active' end`;
}

/** The account's state now (sign-in reads it once the password is checked). Prepared once: sign-in is hot. */
export async function accountStateOf(deps: TDepsOf<'db' | 'now'>, { userId }: { userId: string }) {
  const query = prepared(deps.db, 'privilege.accountState', (d) =>
    d
      .select({ state: accountStateSql(users.id, sql.placeholder('nowMs')) })
      .from(users)
      .where(eq(users.id, sql.placeholder('userId')))
      .prepare(),
  );
  const row = await query.get({ userId, nowMs: deps.now().getTime() });
  return row?.state ?? 'active';
}

async function grantedInForce(db: TDb, userId: string, now: Date): Promise<string[]> {
  const query = prepared(db, 'privilege.grantedInForce', (d) =>
    d
      .select({ type: privilegeGrants.type })
      .from(privilegeGrants)
      .where(and(eq(privilegeGrants.userId, sql.placeholder('userId')), inForce(sql.placeholder('nowMs'))))
      .prepare(),
  );
  const rows = await query.all({ userId, nowMs: now.getTime() });
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
