// A report's comments at the web client's paths (issue 35): the comment mechanism's, on target type
// smugglersReport (its rules, text, limits, captcha; the report's own in targets.ts and target.ts),
// and DELETE smugglers/reports/{id}, which the client sends both to delete a report and to delete
// the caller's comment on it (smugglers_service.ts deleteReport and delReportComment).
import type { TCaptchaAnswer } from '../captcha/schemas';
import { AppError } from '../../errors';
import type { TDepsOf } from '../../deps';
import { commentTarget, createComment, deleteComment, editComment, listComments, ownComments } from '../comment';
import { deleteReport } from './reports';
import { findReport, mayRead, reportNotFound } from './rows';

type TUser = { id: string; role: 'user' | 'admin' };

const TYPE = 'smugglersReport';

export function listReportComments(
  deps: TDepsOf<'db'>,
  input: { id: number; page: number; pageSize: number; viewerId?: string },
) {
  return listComments(deps, {
    targetType: TYPE,
    targetId: String(input.id),
    page: input.page,
    pageSize: input.pageSize,
    sortOrder: 'desc',
    viewerId: input.viewerId,
  });
}

export function createReportComment(
  deps: TDepsOf<'db' | 'now' | 'limits' | 'captcha'>,
  input: { id: number; content: string; captcha?: TCaptchaAnswer; user: TUser },
) {
  return createComment(deps, {
    targetType: TYPE,
    targetId: String(input.id),
    content: input.content,
    captcha: input.captcha,
    userId: input.user.id,
  });
}

/** The comment, if it is one of this report's: a 404 otherwise, as for an unknown comment. */
async function assertCommentOf(deps: TDepsOf<'db'>, id: number, commentId: string): Promise<void> {
  const target = await commentTarget(deps.db, commentId);
  if (!target || target.targetType !== TYPE || target.targetId !== String(id))
    throw new AppError('NOT_FOUND', `Comment ${commentId} not found`);
}

export async function editReportComment(
  deps: TDepsOf<'db' | 'now' | 'limits'>,
  input: { id: number; commentId: string; content: string; user: TUser },
) {
  await assertCommentOf(deps, input.id, input.commentId);
  return editComment(deps, { id: input.commentId, content: input.content, userId: input.user.id });
}

export async function deleteReportComment(
  deps: TDepsOf<'db' | 'now'>,
  input: { id: number; commentId: string; user: TUser },
) {
  await assertCommentOf(deps, input.id, input.commentId);
  return deleteComment(deps, { id: input.commentId, userId: input.user.id, isAdmin: input.user.role === 'admin' });
}

/**
 * DELETE smugglers/reports/{id}. Its author and the admins delete the report (with the right to);
 * they never comment on it (target.ts), so the call cannot mean a comment of theirs. Anyone else
 * holds no right over the report: the call deletes their own comment on it, the one the page's
 * delete button is shown for (smugglersReport.vue:491, isUserComment), and a repeated call is a 404,
 * never a deletion of the report.
 */
export async function deleteReportOrOwnComment(
  deps: TDepsOf<'db' | 'now'>,
  input: { id: number; user: TUser },
): Promise<{ id: number; deleted: 'report' | 'comment'; commentId: string | null }> {
  const report = await findReport(deps.db, input.id);
  if (!report || !mayRead(report, input.user)) throw reportNotFound(input.id);
  if (report.authorId === input.user.id || input.user.role === 'admin') {
    await deleteReport(deps, input);
    return { id: input.id, deleted: 'report', commentId: null };
  }
  const own = (await ownComments(deps.db, TYPE, [String(input.id)], input.user.id)).get(String(input.id));
  if (!own) {
    throw new AppError(
      'NOT_FOUND',
      `You have no comment on smugglers report ${input.id} (only its author or an admin deletes the report)`,
    );
  }
  await deleteComment(deps, { id: own.id, userId: input.user.id, isAdmin: false });
  return { id: input.id, deleted: 'comment', commentId: own.id };
}
