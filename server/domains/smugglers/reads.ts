// Reading reports (issue 35): the list (published and archived, with the caller's own drafts), the
// caller's own, one report, the report of a moment (byTime), and which rights the caller holds.
import { and, asc, count, desc, eq, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import { smugglersReports } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { pageWindow } from '../../schemas';
import { effectivePrivileges } from '../privilege';
import type { TPrivilegeType } from '../privilege/schemas';
import { findReport, mayRead, reportNotFound, selectReports, toReport, toReports, type TViewer } from './rows';
import type { TListReportsInput, TMyReportsInput, TReport, TReportPage } from './schemas';

/**
 * Which reports a list shows the viewer: of a status asked for, those of it the viewer may see (a
 * draft: the viewer's own, every one for an admin); otherwise published and archived ones and the
 * viewer's own drafts. Each branch is a range of an index (status, or author and status), so the list
 * costs what it shows, not others' drafts.
 */
function visible(status: TListReportsInput['status'], viewer: TViewer): SQL {
  const shared = ['published', 'archived'] as const;
  const ownDrafts = viewer
    ? and(eq(smugglersReports.authorId, viewer.id), eq(smugglersReports.status, 'draft'))!
    : sql`0`;
  if (status === 'draft') return viewer?.role === 'admin' ? eq(smugglersReports.status, 'draft') : ownDrafts;
  if (status !== undefined) return eq(smugglersReports.status, status);
  if (viewer?.role === 'admin') return sql`1`;
  return or(inArray(smugglersReports.status, [...shared]), ownDrafts)!;
}

/** GET /smugglers/reports. */
export async function listReports(
  deps: TDepsOf<'db'>,
  input: TListReportsInput & { viewer: TViewer },
): Promise<TReportPage> {
  const { db } = deps;
  const window = pageWindow(input.page, input.pageSize);
  const search = input.search?.trim().toLowerCase();
  const where = and(
    visible(input.status, input.viewer),
    search ? sql`instr(lower(${smugglersReports.title}), ${search}) > 0` : undefined,
  );
  const by = input.sortOrder === 'asc' ? asc : desc;
  const column = input.sortBy === 'updatedTime' ? smugglersReports.updatedAt : smugglersReports.createdAt;
  const [rows, total] = await Promise.all([
    selectReports(db)
      .where(where)
      .orderBy(by(column), by(smugglersReports.id))
      .limit(window.limit)
      .offset(window.offset)
      .all(),
    db.select({ n: count() }).from(smugglersReports).where(where).get(),
  ]);
  return { data: await toReports(db, rows, input.viewer), pagination: window.describe(total?.n ?? 0) };
}

/** GET /smugglers/my-reports: the caller's reports of every status, newest first. */
export async function myReports(
  deps: TDepsOf<'db'>,
  input: TMyReportsInput & { viewer: NonNullable<TViewer> },
): Promise<TReportPage> {
  const { db } = deps;
  const window = pageWindow(input.page, input.pageSize);
  const where = and(
    eq(smugglersReports.authorId, input.viewer.id),
    input.status === undefined ? undefined : eq(smugglersReports.status, input.status),
  );
  const [rows, total] = await Promise.all([
    selectReports(db)
      .where(where)
      .orderBy(desc(smugglersReports.createdAt), desc(smugglersReports.id))
      .limit(window.limit)
      .offset(window.offset)
      .all(),
    db.select({ n: count() }).from(smugglersReports).where(where).get(),
  ]);
  return { data: await toReports(db, rows, input.viewer), pagination: window.describe(total?.n ?? 0) };
}

/** GET /smugglers/reports/{id}: a draft is a 404 but for its author and the admins. */
export async function getReport(deps: TDepsOf<'db'>, input: { id: number; viewer: TViewer }): Promise<TReport> {
  const row = await findReport(deps.db, input.id);
  if (!row || !mayRead(row, input.viewer)) throw reportNotFound(input.id);
  return toReport(deps.db, row, input.viewer);
}

/**
 * GET /smugglers/reports/byTime: the published report whose range holds `date` (of several, the one
 * that starts last), else the published report that starts last; 404 when none is published.
 */
export async function reportByTime(deps: TDepsOf<'db' | 'now'>, input: { date?: Date; viewer: TViewer }) {
  const { db } = deps;
  const date = input.date ?? deps.now();
  const published = eq(smugglersReports.status, 'published');
  const latestFirst = [desc(smugglersReports.startTime), desc(smugglersReports.id)];
  const row =
    (await selectReports(db)
      .where(and(published, lte(smugglersReports.startTime, date), gte(smugglersReports.endTime, date)))
      .orderBy(...latestFirst)
      .limit(1)
      .get()) ??
    (await selectReports(db)
      .where(published)
      .orderBy(...latestFirst)
      .limit(1)
      .get());
  if (!row) throw new AppError('NOT_FOUND', 'No smugglers report is published yet');
  return toReport(db, row, input.viewer);
}

/** POST /smugglers/privileges/check: which of the types asked about the caller holds now. */
export async function checkOwnPrivileges(
  deps: TDepsOf<'db' | 'now'>,
  input: { privileges: TPrivilegeType[]; user: { id: string; role: 'user' | 'admin' } },
) {
  const held = new Set<string>(await effectivePrivileges(deps, input.user));
  const privileges = input.privileges.filter((type) => held.has(type));
  return { hasPrivilege: privileges.length > 0, userId: input.user.id, privileges };
}
