// Writing reports (issue 35): create, update (publish and archive are updates of the status), delete.
// Each is one transaction that checks the caller's right of the privilege tree in it, with the report
// as it is then: a grant revoked, suspended or expired before the write commits stops it, and of a
// publish and a delete at once either the publish comes first or it finds no report (404).
import { eq } from 'drizzle-orm';
import { smugglersReports } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDb } from '../../../db/client';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { assertPrivilege, type TRight } from '../privilege';
import { findReport, mayRead, reportNotFound, toReport, type TReportRow } from './rows';
import {
  rangeProblem,
  type TCreateReportInput,
  type TReport,
  type TReportStatus,
  type TUpdateReportInput,
} from './schemas';

type TUser = { id: string; role: 'user' | 'admin' };

/** POST /smugglers/reports: the caller's new report, with the right to create them. */
export async function createReport(
  deps: TDepsOf<'db' | 'now'>,
  input: TCreateReportInput & { user: TUser },
): Promise<TReport> {
  const now = deps.now();
  const row = await transaction(deps.db, async (tx) => {
    await assertPrivilege({ db: tx, now: () => now }, { userId: input.user.id, type: 'smuggler_weekly_report_create' });
    const [created] = await tx
      .insert(smugglersReports)
      .values({
        authorId: input.user.id,
        title: input.title,
        content: JSON.stringify(input.content),
        startTime: input.startTime,
        endTime: input.endTime,
        status: input.status,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: smugglersReports.id });
    return (await findReport(tx, created!.id))!;
  });
  return toReport(deps.db, row, input.user);
}

/**
 * The report, for a change by `user` with `right`, in the write's transaction: 404 when it is gone or
 * a draft the caller may not see; 403 without the right (an admin holds every right) or when it is
 * someone else's and the caller is no admin.
 */
async function writableReport(tx: TDb, now: Date, id: number, user: TUser, right: TRight): Promise<TReportRow> {
  const row = await findReport(tx, id);
  if (!row || !mayRead(row, user)) throw reportNotFound(id);
  await assertPrivilege({ db: tx, now: () => now }, { userId: user.id, type: right });
  if (row.authorId !== user.id && user.role !== 'admin')
    throw new AppError('FORBIDDEN', 'Only its author or an admin may change or delete a report');
  return row;
}

/** PUT /smugglers/reports/{id}: the fields given, by its author (or an admin) with the right to update reports. */
export async function updateReport(
  deps: TDepsOf<'db' | 'now'>,
  input: Omit<TUpdateReportInput, 'id'> & { id: number; user: TUser },
): Promise<TReport> {
  const now = deps.now();
  const row = await transaction(deps.db, async (tx) => {
    const current = await writableReport(tx, now, input.id, input.user, 'smuggler_weekly_report_update');
    const problem = rangeProblem(input.startTime ?? current.startTime, input.endTime ?? current.endTime);
    if (problem) {
      const field = input.endTime ? 'endTime' : 'startTime';
      throw new AppError('BAD_REQUEST', `Invalid input: ${field}: the range's end ${problem}`, {
        issues: [{ path: field, message: `the range's end ${problem}` }],
      });
    }
    await tx
      .update(smugglersReports)
      .set({
        title: input.title,
        content: input.content === undefined ? undefined : JSON.stringify(input.content),
        status: input.status,
        startTime: input.startTime,
        endTime: input.endTime,
        updatedAt: now,
      })
      .where(eq(smugglersReports.id, input.id))
      .run();
    return (await findReport(tx, input.id))!;
  });
  return toReport(deps.db, row, input.user);
}

/** POST /smugglers/reports/{id}/publish and /archive: the status, as an update. */
export function setReportStatus(
  deps: TDepsOf<'db' | 'now'>,
  input: { id: number; status: TReportStatus; user: TUser },
): Promise<TReport> {
  return updateReport(deps, input);
}

/** The report deleted by its author (or an admin) with the right to delete reports; its comments go with it (a trigger). */
export async function deleteReport(deps: TDepsOf<'db' | 'now'>, input: { id: number; user: TUser }): Promise<void> {
  const now = deps.now();
  await transaction(deps.db, async (tx) => {
    await writableReport(tx, now, input.id, input.user, 'smuggler_weekly_report_delete');
    await tx.delete(smugglersReports).where(eq(smugglersReports.id, input.id)).run();
  });
}
