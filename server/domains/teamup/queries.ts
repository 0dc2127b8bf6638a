// Reading the team-up board. Expiry is enforced here, on every read: a team-up whose time has passed is
// never listed, whether or not its expiry event went out (expiry.ts).
import { and, count, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { teamUps, users } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { pageWindow } from '../../schemas';
import type { TTeamUp, TTeamUpBoard, TTeamUpListInput, TTeamUpPage, TTeamUpStatistics } from './schemas';

const columns = {
  id: teamUps.id,
  publisherId: teamUps.publisherId,
  username: users.username,
  player: teamUps.player,
  description: teamUps.description,
  tags: teamUps.tags,
  createdAt: teamUps.createdAt,
  expiresAt: teamUps.expiresAt,
};

function selectTeamUps(db: TDb) {
  return db.select(columns).from(teamUps).leftJoin(users, eq(users.id, teamUps.publisherId));
}

export type TTeamUpRow = NonNullable<Awaited<ReturnType<typeof findTeamUp>>>;

export async function findTeamUp(db: TDb, id: string) {
  return selectTeamUps(db).where(eq(teamUps.id, id)).get();
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function toTeamUp(row: TTeamUpRow): TTeamUp {
  return {
    id: row.id,
    userId: row.publisherId,
    username: row.username,
    player: row.player,
    description: row.description,
    tags: row.tags,
    createdAt: seconds(row.createdAt),
    expiresAt: seconds(row.expiresAt),
    createdTime: row.createdAt.toISOString(),
    expiresTime: row.expiresAt.toISOString(),
  };
}

/** A keyword as a condition: found in the player, the description or a tag, ignoring ASCII case. */
function keywordCondition(keyword: string): SQL {
  const needle = keyword.toLowerCase();
  return sql`(instr(lower(${teamUps.player}), ${needle}) > 0 OR instr(lower(${teamUps.description}), ${needle}) > 0 OR instr(lower(${teamUps.tags}), ${needle}) > 0)`;
}

async function page(db: TDb, where: SQL, input: { page: number; pageSize: number }): Promise<TTeamUpPage> {
  const window = pageWindow(input.page, input.pageSize);
  const rows = await selectTeamUps(db)
    .where(where)
    .orderBy(desc(teamUps.createdAt), desc(teamUps.id))
    .limit(window.limit)
    .offset(window.offset)
    .all();
  const total = (await db.select({ total: count() }).from(teamUps).where(where).get())?.total ?? 0;
  return { data: rows.map(toTeamUp), pagination: window.describe(total) };
}

/** GET /teamups: a page of the board, newest first, optionally filtered by a keyword; the array alone (ZTeamUpBoard). */
export async function listTeamUps(deps: TDepsOf<'db' | 'now'>, input: TTeamUpListInput): Promise<TTeamUpBoard> {
  const active = gt(teamUps.expiresAt, deps.now());
  const keyword = input.keyword?.trim() ?? '';
  const window = pageWindow(input.page, input.pageSize);
  const rows = await selectTeamUps(deps.db)
    .where(keyword === '' ? active : and(active, keywordCondition(keyword))!)
    .orderBy(desc(teamUps.createdAt), desc(teamUps.id))
    .limit(window.limit)
    .offset(window.offset)
    .all();
  return rows.map(toTeamUp);
}

/** GET /user/me/teamups: the caller's team-ups still on the board, newest first. */
export async function listOwnTeamUps(
  deps: TDepsOf<'db' | 'now'>,
  input: { userId: string; page: number; pageSize: number },
): Promise<TTeamUpPage> {
  return page(deps.db, and(eq(teamUps.publisherId, input.userId), gt(teamUps.expiresAt, deps.now()))!, input);
}

/** GET /teamup/statistics: what is on the board now, and what was published lately. */
export async function teamUpStatistics(deps: TDepsOf<'db' | 'now'>): Promise<TTeamUpStatistics> {
  const now = deps.now();
  const since = (ms: number) => new Date(now.getTime() - ms);
  const activeTags = await deps.db.select({ tags: teamUps.tags }).from(teamUps).where(gt(teamUps.expiresAt, now)).all();
  const byTag = new Map<string, number>();
  for (const { tags } of activeTags) for (const tag of tags) byTag.set(tag, (byTag.get(tag) ?? 0) + 1);
  const publishedSince = async (ms: number) =>
    (
      await deps.db
        .select({ total: count() })
        .from(teamUps)
        .where(gt(teamUps.createdAt, since(ms)))
        .get()
    )?.total ?? 0;
  return {
    active: activeTags.length,
    publishedLastHour: await publishedSince(60 * 60 * 1000),
    publishedLastDay: await publishedSince(24 * 60 * 60 * 1000),
    byTag: Object.fromEntries(byTag),
  };
}
