// A report as the target of comments (issue 35): what the target table (server/domains/assembly/targets.ts)
// reads of it, and who may write its comments. Imports nothing of the comment mechanism, which reads it.
import { eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { smugglersReports, users } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { assertPrivilege, type TRight } from '../privilege';

/** A report's id as comments store it: its number, as text. */
export const REPORT_TARGET_ID = /^[1-9][0-9]{0,14}$/;

/** The report a comment is on; a draft is no target (its comments are a 404, for its author too). */
export async function findReportTarget(
  db: TDb,
  id: string,
): Promise<{ id: string; title: string; authorId: string } | undefined> {
  const row = await db
    .select({
      id: smugglersReports.id,
      title: smugglersReports.title,
      authorId: smugglersReports.authorId,
      status: smugglersReports.status,
    })
    .from(smugglersReports)
    .where(eq(smugglersReports.id, Number(id)))
    .get();
  if (!row || row.status === 'draft') return undefined;
  return { id: String(row.id), title: row.title, authorId: row.authorId };
}

const RIGHT_OF: Record<'create' | 'edit' | 'delete', TRight> = {
  create: 'smuggler_weekly_report_comment_create',
  edit: 'smuggler_weekly_report_comment_update',
  delete: 'smuggler_weekly_report_comment_delete',
};

/**
 * Who may write a report's comments, beside the rules of every comment (the author edits; the author
 * or the report's author deletes; admins delete any): the right of the tree for the action, in force.
 * A report's author and the admins do not comment on it: for them DELETE smugglers/reports/{id}
 * deletes the report, and the web client sends that same call to delete a comment
 * (smugglers_service.ts delReportComment), so a comment of theirs could never be deleted from the page
 * without deleting the report.
 */
export async function assertMayCommentOnReport(
  deps: TDepsOf<'db' | 'now'>,
  input: { reportAuthorId: string; userId: string; action: 'create' | 'edit' | 'delete' },
): Promise<void> {
  if (input.action === 'create') {
    const user = await deps.db.select({ role: users.role }).from(users).where(eq(users.id, input.userId)).get();
    if (input.userId === input.reportAuthorId || user?.role === 'admin') {
      throw new AppError(
        'FORBIDDEN',
        "A report's author and the admins do not comment on it (DELETE smugglers/reports/{id} deletes the report for them)",
      );
    }
  }
  await assertPrivilege(deps, { userId: input.userId, type: RIGHT_OF[input.action] });
}
