// Reading grants (issue 35): an account's (an admin, or the account itself), whether it holds a type,
// the admins' list (grants, or the log of changes) and search, and the tree of types.
import { and, count, desc, eq } from 'drizzle-orm';
import { privilegeAudit, privilegeGrants, users } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { pageWindow } from '../../schemas';
import { effectivePrivileges, inForce } from './holders';
import { auditFilters, grantFilters, grantOrder, selectAudit, selectGrants, toAuditEntry, toGrant } from './queries';
import type { TListAnswer, TListInput, TPrivilegeType, TSearchInput, TUserPrivileges } from './schemas';
import { PRIVILEGE_TYPES } from './tree';

/** The caller may read an account's privileges: an admin any account's, anyone else only their own (403). */
export function assertAdminOrSelf(caller: { id: string; role: string }, userId: string): void {
  if (caller.role !== 'admin' && caller.id !== userId)
    throw new AppError('FORBIDDEN', "Only an admin or the account itself may read an account's privileges");
}

async function accountOf(deps: TDepsOf<'db'>, userId: string) {
  const account = await deps.db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!account) throw new AppError('NOT_FOUND', `User ${userId} not found`, { key: 'user.notFound' });
  return account;
}

/** GET /privilege/user/{userId}: its grants (in force only, unless includeInactive) and what it holds now. */
export async function userPrivileges(
  deps: TDepsOf<'db' | 'now'>,
  input: { userId: string; includeInactive: boolean },
): Promise<TUserPrivileges> {
  const now = deps.now();
  const account = await accountOf(deps, input.userId);
  const rows = await selectGrants(deps.db)
    .where(and(eq(privilegeGrants.userId, input.userId), input.includeInactive ? undefined : inForce(now)))
    .orderBy(privilegeGrants.type)
    .all();
  return {
    userId: account.id,
    privileges: rows.map((row) => toGrant(row, now)),
    effective: await effectivePrivileges({ db: deps.db, now: () => now }, account),
  };
}

/** GET /privilege/check/{userId}/{privilegeType}. */
export async function checkPrivilege(
  deps: TDepsOf<'db' | 'now'>,
  input: { userId: string; privilegeType: TPrivilegeType },
) {
  const account = await accountOf(deps, input.userId);
  const held = await effectivePrivileges(deps, account);
  return { userId: account.id, privilegeType: input.privilegeType, hasPrivilege: held.includes(input.privilegeType) };
}

/** GET /privilege/list: a page of grants, newest grant first, or of the log, newest change first. */
export async function listPrivileges(deps: TDepsOf<'db' | 'now'>, input: TListInput): Promise<TListAnswer> {
  const { db } = deps;
  const window = pageWindow(input.page, input.pageSize);
  if (input.view === 'log') {
    const where = auditFilters(input);
    const [rows, total] = await Promise.all([
      selectAudit(db).where(where).orderBy(desc(privilegeAudit.id)).limit(window.limit).offset(window.offset).all(),
      db.select({ n: count() }).from(privilegeAudit).where(where).get(),
    ]);
    return { view: 'log', data: rows.map(toAuditEntry), pagination: window.describe(total?.n ?? 0) };
  }
  return { view: 'grants', ...(await grantPage(deps, input, window)) };
}

/** GET /privilege/search: grants of the accounts whose username holds the keyword (or whose id it is). */
export function searchPrivileges(deps: TDepsOf<'db' | 'now'>, input: TSearchInput) {
  return grantPage(deps, input, pageWindow(input.page, input.pageSize));
}

async function grantPage(
  deps: TDepsOf<'db' | 'now'>,
  filters: Parameters<typeof grantFilters>[0],
  window: ReturnType<typeof pageWindow>,
) {
  const now = deps.now();
  const where = grantFilters(filters, now);
  const [rows, total] = await Promise.all([
    selectGrants(deps.db)
      .where(where)
      .orderBy(...grantOrder)
      .limit(window.limit)
      .offset(window.offset)
      .all(),
    deps.db
      .select({ n: count() })
      .from(privilegeGrants)
      .innerJoin(users, eq(users.id, privilegeGrants.userId))
      .where(where)
      .get(),
  ]);
  return { data: rows.map((row) => toGrant(row, now)), pagination: window.describe(total?.n ?? 0) };
}

/** GET /privilege/types: the tree, flattened, a parent before its children. */
export function privilegeTypes() {
  return {
    types: PRIVILEGE_TYPES.map((info) => ({
      type: info.type,
      kind: info.kind,
      parent: info.parent,
      children: info.children,
      grantable: info.grantable,
      description: info.description,
    })),
  };
}
