// The rows of smugglers_reports with their author's name and avatar, who may see them, and their answers.
import { eq, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { smugglersReports, users } from '../../../db/schema';
import { AppError } from '../../errors';
import { commentCounts, ownComments } from '../comment';
import type { TReport } from './schemas';

const reportColumns = {
  id: smugglersReports.id,
  authorId: smugglersReports.authorId,
  title: smugglersReports.title,
  content: smugglersReports.content,
  startTime: smugglersReports.startTime,
  endTime: smugglersReports.endTime,
  status: smugglersReports.status,
  createdAt: smugglersReports.createdAt,
  updatedAt: smugglersReports.updatedAt,
  authorName: sql<string>`coalesce(nullif(trim(${users.alternativeName}), ''), ${users.username})`,
  authorAvatar: users.avatarUrl,
};

/** Every report has its author (a foreign key, cascading): an inner join on the primary key. */
export function selectReports(db: TDb) {
  return db
    .select(reportColumns)
    .from(smugglersReports)
    .innerJoin(users, eq(users.id, smugglersReports.authorId))
    .$dynamic();
}

export type TReportRow = Awaited<ReturnType<ReturnType<typeof selectReports>['all']>>[number];

export async function findReport(db: TDb, id: number): Promise<TReportRow | undefined> {
  return await selectReports(db).where(eq(smugglersReports.id, id)).get();
}

/** Who is calling: the signed-in account, or undefined. */
export type TViewer = { id: string; role: 'user' | 'admin' } | undefined;

export function reportNotFound(id: number): AppError {
  return new AppError('NOT_FOUND', `Smugglers report ${id} not found`);
}

/** A draft is seen by its author and the admins only; to anyone else it does not exist. */
export function mayRead(row: Pick<TReportRow, 'status' | 'authorId'>, viewer: TViewer): boolean {
  return row.status !== 'draft' || viewer?.role === 'admin' || viewer?.id === row.authorId;
}

/** The reports' answers, with each one's comment count and the viewer's comment on it: two statements for the page. */
export async function toReports(db: TDb, rows: TReportRow[], viewer: TViewer): Promise<TReport[]> {
  const ids = rows.map((row) => String(row.id));
  const [counts, own] = await Promise.all([
    commentCounts(db, 'smugglersReport', ids),
    viewer ? ownComments(db, 'smugglersReport', ids, viewer.id) : new Map(),
  ]);
  return rows.map((row) => {
    const userComment = own.get(String(row.id)) ?? null;
    return {
      id: row.id,
      title: row.title,
      content: JSON.parse(row.content) as unknown,
      startTime: row.startTime.toISOString(),
      endTime: row.endTime.toISOString(),
      status: row.status,
      createdBy: row.authorId,
      author_name: row.authorName,
      author_avatar: row.authorAvatar ?? null,
      createdTime: row.createdAt.toISOString(),
      updatedTime: row.updatedAt.toISOString(),
      commentCount: counts.get(String(row.id)) ?? 0,
      isUserComment: userComment !== null,
      userComment,
    };
  });
}

export async function toReport(db: TDb, row: TReportRow, viewer: TViewer): Promise<TReport> {
  const [report] = await toReports(db, [row], viewer);
  return report!;
}
