// The reports' procedures (issue 35) at the web client's paths (smugglers_service.ts).
import { authedProcedure, publicProcedure } from '../../../trpc';
import { getReport, listReports, myReports, reportByTime, checkOwnPrivileges } from '../reads';
import { createReport, setReportStatus, updateReport } from '../reports';
import { deleteReportOrOwnComment } from '../comments';
import {
  MAX_LIST_WINDOW,
  ZByTimeInput,
  ZCheckPrivilegesInput,
  ZCreateReportInput,
  ZListReportsInput,
  ZMyReportsInput,
  ZPrivilegeCheck,
  ZReport,
  ZReportDeleted,
  ZReportPage,
  ZReportRef,
  ZUpdateReportInput,
} from '../schemas';
import type { TContext } from '../../../context';

// Answers hold the caller's own comment (isUserComment, userComment): never kept by shared caches.
const PRIVATE = { cacheControl: 'private, no-cache' };
const DRAFTS = 'A draft is seen by its author and the admins only (anyone else: 404).';
const RIGHTS =
  'Rights of the privilege tree (GET /privilege/types), in force (not suspended, not expired), checked in the write: 403 without; an admin holds every right.';

function openapi(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: `/smugglers/${string}`,
  summary: string,
  description: string,
  protect = true,
) {
  return { openapi: { method, path, tags: ['smugglers'], protect, summary, description } };
}

/** The caller, when signed in. */
function viewerOf(ctx: Pick<TContext, 'auth'>) {
  return ctx.auth ? { id: ctx.auth.user.id, role: ctx.auth.user.role } : undefined;
}

export const checkPrivileges = authedProcedure
  .meta({
    ...openapi(
      'POST',
      '/smugglers/privileges/check',
      'Which of these privilege types you hold',
      'hasPrivilege: whether you hold at least one of them now (through your role, or a grant in force of it or of a type above it); privileges: those you hold. ' +
        'A POST, so a mutation on native tRPC (its input travels in the body): a blacklisted account is refused it as every write.',
    ),
  })
  .input(ZCheckPrivilegesInput)
  .output(ZPrivilegeCheck)
  .mutation(({ input, ctx }) => checkOwnPrivileges(ctx.deps, { privileges: input.privileges, user: ctx.user }));

export const list = publicProcedure
  .meta({
    ...openapi(
      'GET',
      '/smugglers/reports',
      'Reports, newest first, paged',
      `Published and archived reports, with your own drafts (an admin: every draft); status narrows (draft: yours). search: part of the title. sortBy createdTime or updatedTime, sortOrder desc or asc. A list reaches its first ${MAX_LIST_WINDOW} reports. ` +
        'Each with commentCount and your own comment (isUserComment, userComment).',
      false,
    ),
    http: PRIVATE,
  })
  .input(ZListReportsInput.prefault({}))
  .output(ZReportPage)
  .query(({ input, ctx }) => listReports(ctx.deps, { ...input, viewer: viewerOf(ctx) }));

export const mine = authedProcedure
  .meta({
    ...openapi('GET', '/smugglers/my-reports', 'Your reports, newest first, paged', 'Every status; status narrows.'),
    http: PRIVATE,
  })
  .input(ZMyReportsInput.prefault({}))
  .output(ZReportPage)
  .query(({ input, ctx }) => myReports(ctx.deps, { ...input, viewer: ctx.user }));

export const byTime = publicProcedure
  .meta({
    ...openapi(
      'GET',
      '/smugglers/reports/byTime',
      'The published report of a moment',
      'The published report whose range (startTime to endTime) holds date (now when left out); of several, the one that starts last; when none does, the published report that starts last. 404 when none is published.',
      false,
    ),
    http: PRIVATE,
  })
  .input(ZByTimeInput.prefault({}))
  .output(ZReport)
  .query(({ input, ctx }) => reportByTime(ctx.deps, { date: input.date, viewer: viewerOf(ctx) }));

export const get = publicProcedure
  .meta({ ...openapi('GET', '/smugglers/reports/{id}', 'One report', `${DRAFTS} Unknown: 404.`, false), http: PRIVATE })
  .input(ZReportRef)
  .output(ZReport)
  .query(({ input, ctx }) => getReport(ctx.deps, { id: input.id, viewer: viewerOf(ctx) }));

export const create = authedProcedure
  .meta(
    openapi(
      'POST',
      '/smugglers/reports',
      'Create a report',
      `With smuggler_weekly_report_create. ${RIGHTS} title: one line, 1-200 characters; content: any JSON, stored as given; startTime and endTime: ISO 8601, end not before start, at most 366 days apart; status: draft (the default), published or archived.`,
    ),
  )
  .input(ZCreateReportInput)
  .output(ZReport)
  .mutation(({ input, ctx }) => createReport(ctx.deps, { ...input, user: ctx.user }));

export const update = authedProcedure
  .meta(
    openapi(
      'PUT',
      '/smugglers/reports/{id}',
      'Change a report',
      `Its author (or an admin) with smuggler_weekly_report_update; anyone else: 403. ${RIGHTS} The fields given change (at least one of title, content, status, startTime, endTime). ${DRAFTS}`,
    ),
  )
  .input(ZUpdateReportInput)
  .output(ZReport)
  .mutation(({ input, ctx }) => updateReport(ctx.deps, { ...input, user: ctx.user }));

function statusChange(status: 'published' | 'archived', path: `/smugglers/${string}`, summary: string) {
  return authedProcedure
    .meta(
      openapi(
        'POST',
        path,
        summary,
        `Sets status ${status}: its author (or an admin) with smuggler_weekly_report_update. ${RIGHTS} ${DRAFTS} Deleted meanwhile: 404.`,
      ),
    )
    .input(ZReportRef)
    .output(ZReport)
    .mutation(({ input, ctx }) => setReportStatus(ctx.deps, { id: input.id, status, user: ctx.user }));
}

export const publish = statusChange('published', '/smugglers/reports/{id}/publish', 'Publish a report');
export const archive = statusChange('archived', '/smugglers/reports/{id}/archive', 'Archive a report');

export const remove = authedProcedure
  .meta(
    openapi(
      'DELETE',
      '/smugglers/reports/{id}',
      'Delete a report, or your comment on it',
      'The web client sends this call to delete a report and to delete your comment on it (docs/smugglers.md). Its author and the admins: the report, with its comments (with smuggler_weekly_report_delete; an admin holds every right); they never comment on a report. ' +
        `Anyone else: your own comment on it (with smuggler_weekly_report_comment_delete); none: 404. ${DRAFTS} deleted says which.`,
    ),
  )
  .input(ZReportRef)
  .output(ZReportDeleted)
  .mutation(({ input, ctx }) => deleteReportOrOwnComment(ctx.deps, { id: input.id, user: ctx.user }));
