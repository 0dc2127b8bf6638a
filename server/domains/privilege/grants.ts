// Changing grants (issue 35), by an admin: grant (and batch), revoke, suspend and resume, change the
// expiry. Each is one transaction that reads the grant as it is, writes it and logs the change in
// privilege_audit, so that however calls interleave (a tRPC batch, concurrent requests: a grant while
// a revoke runs) every change is logged once, in the order it was made, and the last entry of a grant
// says what it is. A call that changes nothing (a grant already as asked) logs nothing.
import { and, eq, inArray } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { privilegeAudit, privilegeGrants, sessions, users } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { findGrant, type TGrantRow, toGrant } from './queries';
import type { TBatchGrantInput, TGrant, TGrantRef, TSuspendInput, TUpdateExpiryInput } from './schemas';
import { isAccountState } from './tree';

type TActor = { actorId: string };
type TAuditAction = (typeof privilegeAudit.$inferInsert)['action'];

function grantNotFound(ref: TGrantRef): AppError {
  return new AppError('NOT_FOUND', `User ${ref.userId} has no grant of ${ref.privilegeType}`);
}

function assertFuture(expiryTime: Date | null | undefined, now: Date): void {
  if (expiryTime && expiryTime.getTime() <= now.getTime()) {
    throw new AppError('BAD_REQUEST', 'Invalid input: expiryTime: must be in the future', {
      issues: [{ path: 'expiryTime', message: 'must be in the future' }],
    });
  }
}

async function log(tx: TDb, row: Omit<typeof privilegeAudit.$inferInsert, 'id'>): Promise<void> {
  await tx.insert(privilegeAudit).values(row).run();
}

/** A frozen account's sessions end when the state comes in force (they would be refused at use anyway). */
async function endSessionsIfFrozen(tx: TDb, userId: string, type: string): Promise<void> {
  if (type === 'freezed') await tx.delete(sessions).where(eq(sessions.userId, userId)).run();
}

/** The accounts named, each once: a 404 for the first unknown one, a 409 for an admin given an account state. */
async function assertAccounts(tx: TDb, userIds: string[], type: string): Promise<void> {
  const found = await tx.select({ id: users.id, role: users.role }).from(users).where(inArray(users.id, userIds)).all();
  const byId = new Map(found.map((row) => [row.id, row.role]));
  const missing = userIds.find((id) => !byId.has(id));
  if (missing !== undefined)
    throw new AppError('NOT_FOUND', `User ${missing} not found`, { key: 'user.notFound', data: { userId: missing } });
  const admin = userIds.find((id) => byId.get(id) === 'admin');
  if (admin !== undefined && isAccountState(type))
    throw new AppError('CONFLICT', `User ${admin} is an admin: an admin cannot be given the account state ${type}`, {
      data: { userId: admin },
    });
}

/**
 * Grants `type` to one account, in the caller's transaction: a new grant, or the existing one put in
 * force again (no longer suspended) with the expiry given; without one, an existing grant keeps an
 * expiry still ahead and a new or expired one has none.
 */
async function grantTo(
  tx: TDb,
  userId: string,
  input: { privilegeType: string; expiryTime?: Date | null; actorId: string },
  now: Date,
): Promise<TGrantRow> {
  const type = input.privilegeType;
  const current = await findGrant(tx, userId, type);
  const kept = current?.expiresAt && current.expiresAt.getTime() > now.getTime() ? current.expiresAt : null;
  const expiresAt = input.expiryTime === undefined ? kept : input.expiryTime;
  const unchanged =
    current !== undefined && current.suspendedAt === null && current.expiresAt?.getTime() === expiresAt?.getTime();
  if (unchanged) return current;
  const values = { grantedBy: input.actorId, grantedAt: now, expiresAt, suspendedAt: null };
  await tx
    .insert(privilegeGrants)
    .values({ userId, type, ...values })
    .onConflictDoUpdate({ target: [privilegeGrants.userId, privilegeGrants.type], set: values })
    .run();
  await log(tx, { userId, type, action: 'grant', actorId: input.actorId, at: now, expiresAt });
  await endSessionsIfFrozen(tx, userId, type);
  return (await findGrant(tx, userId, type))!;
}

/** POST /privilege/grant. */
export async function grantPrivilege(
  deps: TDepsOf<'db' | 'now'>,
  input: { userId: string; privilegeType: string; expiryTime?: Date | null } & TActor,
): Promise<TGrant> {
  const [grant] = await grantMany(deps, { ...input, userIds: [input.userId] });
  return grant!;
}

/** POST /privilege/batch-grant: every account or none (one unknown account is a 404 and nothing is granted). */
export async function grantMany(
  deps: TDepsOf<'db' | 'now'>,
  input: Omit<TBatchGrantInput, 'privilegeType'> & { privilegeType: string } & TActor,
): Promise<TGrant[]> {
  const now = deps.now();
  assertFuture(input.expiryTime, now);
  const userIds = [...new Set(input.userIds)];
  const rows = await transaction(deps.db, async (tx) => {
    await assertAccounts(tx, userIds, input.privilegeType);
    const written: TGrantRow[] = [];
    for (const userId of userIds) written.push(await grantTo(tx, userId, input, now));
    return written;
  });
  return rows.map((row) => toGrant(row, now));
}

/** POST /privilege/revoke: the grant is deleted (its log stays); 404 when there is none (of two revokes at once, one). */
export async function revokePrivilege(
  deps: TDepsOf<'db' | 'now'>,
  input: TGrantRef & TActor,
): Promise<{ userId: string; privilegeType: string; revoked: true }> {
  const now = deps.now();
  await transaction(deps.db, async (tx) => {
    const deleted = await tx
      .delete(privilegeGrants)
      .where(and(eq(privilegeGrants.userId, input.userId), eq(privilegeGrants.type, input.privilegeType)))
      .returning({ type: privilegeGrants.type });
    if (deleted.length === 0) throw grantNotFound(input);
    await log(tx, { ...auditOf(input, 'revoke', now), expiresAt: null });
  });
  return { userId: input.userId, privilegeType: input.privilegeType, revoked: true };
}

function auditOf(input: TGrantRef & TActor, action: TAuditAction, at: Date) {
  return { userId: input.userId, type: input.privilegeType, action, actorId: input.actorId, at };
}

/** Changes one existing grant in a transaction (404 when there is none), logging `action` unless nothing changed. */
async function changeGrant(
  db: TDb,
  input: TGrantRef & TActor,
  now: Date,
  change: (current: TGrantRow) => { action: TAuditAction; set: Partial<TGrantRow> } | undefined,
): Promise<TGrant> {
  const row = await transaction(db, async (tx) => {
    const current = await findGrant(tx, input.userId, input.privilegeType);
    if (!current) throw grantNotFound(input);
    const wanted = change(current);
    if (!wanted) return current;
    const where = and(eq(privilegeGrants.userId, input.userId), eq(privilegeGrants.type, input.privilegeType));
    await tx.update(privilegeGrants).set(wanted.set).where(where).run();
    const changed = (await findGrant(tx, input.userId, input.privilegeType))!;
    await log(tx, { ...auditOf(input, wanted.action, now), expiresAt: changed.expiresAt });
    if (wanted.action === 'resume') await endSessionsIfFrozen(tx, input.userId, input.privilegeType);
    return changed;
  });
  return toGrant(row, now);
}

/** POST /privilege/suspend: held but not in force until resumed (suspended: false) or granted again. */
export function suspendPrivilege(deps: TDepsOf<'db' | 'now'>, input: TSuspendInput & TActor): Promise<TGrant> {
  const now = deps.now();
  return changeGrant(deps.db, input, now, (current) => {
    if ((current.suspendedAt !== null) === input.suspended) return undefined;
    return input.suspended
      ? { action: 'suspend', set: { suspendedAt: now } }
      : { action: 'resume', set: { suspendedAt: null } };
  });
}

/** POST /privilege/update-expiry: a new expiry (in the future), or none (null). */
export function updateExpiry(deps: TDepsOf<'db' | 'now'>, input: TUpdateExpiryInput & TActor): Promise<TGrant> {
  const now = deps.now();
  assertFuture(input.expiryTime, now);
  return changeGrant(deps.db, input, now, (current) =>
    current.expiresAt?.getTime() === input.expiryTime?.getTime()
      ? undefined
      : { action: 'expiry', set: { expiresAt: input.expiryTime } },
  );
}
