// The rows of grants and of their log, with the accounts' names, and their answers.
import { and, desc, eq, gt, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { TDb } from '../../../db/client';
import { privilegeAudit, privilegeGrants, users } from '../../../db/schema';
import { inForce } from './holders';
import type { TAuditEntry, TGrant } from './schemas';

const grantColumns = {
  userId: privilegeGrants.userId,
  username: users.username,
  type: privilegeGrants.type,
  grantedBy: privilegeGrants.grantedBy,
  grantedAt: privilegeGrants.grantedAt,
  expiresAt: privilegeGrants.expiresAt,
  suspendedAt: privilegeGrants.suspendedAt,
};

export function selectGrants(db: TDb) {
  return db
    .select(grantColumns)
    .from(privilegeGrants)
    .innerJoin(users, eq(users.id, privilegeGrants.userId))
    .$dynamic();
}

export type TGrantRow = Awaited<ReturnType<ReturnType<typeof selectGrants>['all']>>[number];

export async function findGrant(db: TDb, userId: string, type: string): Promise<TGrantRow | undefined> {
  return await selectGrants(db)
    .where(and(eq(privilegeGrants.userId, userId), eq(privilegeGrants.type, type)))
    .get();
}

/** The status the web client reads (PrivilegeManagement.vue:517, :597): expired first, then suspended (inactive). */
export function statusOf(row: Pick<TGrantRow, 'expiresAt' | 'suspendedAt'>, now: Date): TGrant['status'] {
  if (row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return row.suspendedAt !== null ? 'inactive' : 'active';
}

/** The SQL of a status, for the filters: the same rule as statusOf. */
export function statusIs(status: TGrant['status'], now: Date): SQL {
  const expired = and(isNotNull(privilegeGrants.expiresAt), lte(privilegeGrants.expiresAt, now))!;
  if (status === 'expired') return expired;
  const current = or(isNull(privilegeGrants.expiresAt), gt(privilegeGrants.expiresAt, now))!;
  return status === 'active' ? inForce(now) : and(current, isNotNull(privilegeGrants.suspendedAt))!;
}

export function toGrant(row: TGrantRow, now: Date): TGrant {
  return {
    userId: row.userId,
    username: row.username,
    privilegeType: row.type,
    status: statusOf(row, now),
    grantedBy: row.grantedBy,
    grantedTime: row.grantedAt.toISOString(),
    expiryTime: row.expiresAt?.toISOString() ?? null,
    suspendedTime: row.suspendedAt?.toISOString() ?? null,
  };
}

/** The filters of the list, the search and the export, over grants. */
export function grantFilters(
  filters: { userId?: string; privilegeType?: string; status?: TGrant['status']; keyword?: string },
  now: Date,
): SQL | undefined {
  const keyword = filters.keyword?.trim().toLowerCase();
  return and(
    filters.userId === undefined ? undefined : eq(privilegeGrants.userId, filters.userId),
    filters.privilegeType === undefined ? undefined : eq(privilegeGrants.type, filters.privilegeType),
    filters.status === undefined ? undefined : statusIs(filters.status, now),
    keyword
      ? or(
          eq(privilegeGrants.userId, keyword),
          sql`${users.usernameKey} like ${`%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`,
        )
      : undefined,
  );
}

/** Newest grant first; ties by account and type, so that pages never overlap. */
export const grantOrder = [desc(privilegeGrants.grantedAt), privilegeGrants.userId, privilegeGrants.type];

const actors = alias(users, 'actors');

export function selectAudit(db: TDb) {
  return db
    .select({
      id: privilegeAudit.id,
      userId: privilegeAudit.userId,
      username: users.username,
      type: privilegeAudit.type,
      action: privilegeAudit.action,
      actorId: privilegeAudit.actorId,
      actorName: actors.username,
      at: privilegeAudit.at,
      expiresAt: privilegeAudit.expiresAt,
    })
    .from(privilegeAudit)
    .leftJoin(users, eq(users.id, privilegeAudit.userId))
    .leftJoin(actors, eq(actors.id, privilegeAudit.actorId))
    .$dynamic();
}

export type TAuditRow = Awaited<ReturnType<ReturnType<typeof selectAudit>['all']>>[number];

export function auditFilters(filters: { userId?: string; privilegeType?: string }): SQL | undefined {
  return and(
    filters.userId === undefined ? undefined : eq(privilegeAudit.userId, filters.userId),
    filters.privilegeType === undefined ? undefined : eq(privilegeAudit.type, filters.privilegeType),
  );
}

export function toAuditEntry(row: TAuditRow): TAuditEntry {
  return {
    id: row.id,
    userId: row.userId,
    username: row.username,
    privilegeType: row.type,
    action: row.action,
    actorId: row.actorId,
    actorName: row.actorName,
    time: row.at.toISOString(),
    expiryTime: row.expiresAt?.toISOString() ?? null,
  };
}
