/** The campaign archive (paged, filtered) and single campaigns by our id or the platform's. */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { dropCampaigns, dropRewards } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { pageWindow, type TPagination } from '../../schemas';
import { assemble, statusCondition, type TCampaignRow } from './rows';
import type { TDropCampaign, TDropStatus } from './schemas';

/** `%keyword%` with LIKE's own wildcards escaped, so "100%" matches literally. */
function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** The archive of campaigns, newest start first, filtered by status (at the clock's time) and a keyword in a campaign or reward name. */
export async function listCampaignHistory(
  deps: TDepsOf<'db' | 'now'>,
  filters: { page: number; pageSize: number; status?: TDropStatus; keyword?: string },
): Promise<{ data: TDropCampaign[]; pagination: TPagination }> {
  const { db } = deps;
  const now = deps.now();
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(statusCondition(filters.status, now));
  const keyword = filters.keyword?.trim();
  if (keyword) {
    const pattern = likePattern(keyword);
    conditions.push(
      sql`(${dropCampaigns.name} LIKE ${pattern} ESCAPE '\\' OR EXISTS (SELECT 1 FROM ${dropRewards} WHERE ${dropRewards.campaignId} = ${dropCampaigns.id} AND ${dropRewards.name} LIKE ${pattern} ESCAPE '\\'))`,
    );
  }
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const window = pageWindow(filters.page, filters.pageSize);
  const total = (await db.select({ n: count() }).from(dropCampaigns).where(where).get())?.n ?? 0;
  const rows = await db
    .select()
    .from(dropCampaigns)
    .where(where)
    .orderBy(desc(dropCampaigns.startsAt), desc(dropCampaigns.id))
    .limit(window.limit)
    .offset(window.offset)
    .all();
  return { data: await assemble(db, rows, now), pagination: window.describe(total) };
}

/**
 * One campaign by our numeric id or by the platform's campaign id. A numeric reference is tried as
 * our id first, then as a campaign id (platform ids can be numeric too).
 */
export async function getCampaign(deps: TDepsOf<'db' | 'now'>, input: { ref: string }): Promise<TDropCampaign> {
  const { db } = deps;
  const now = deps.now();
  const text = input.ref.trim();
  let row: TCampaignRow | undefined;
  if (/^\d{1,15}$/.test(text))
    row = await db
      .select()
      .from(dropCampaigns)
      .where(eq(dropCampaigns.id, Number(text)))
      .get();
  row ??= await db.select().from(dropCampaigns).where(eq(dropCampaigns.campaignId, text)).get();
  if (!row) throw new AppError('NOT_FOUND', `No drop campaign with id or campaign id "${text}"`);
  const [campaign] = await assemble(db, [row], now);
  return campaign!;
}
