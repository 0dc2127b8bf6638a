/** Campaign rows to the API's shape: status from the clock (in JS and as SQL), rewards and channels loaded per page. */
import { and, asc, gt, inArray, lte, type SQL } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { dropCampaigns, dropChannels, dropRewards } from '../../../db/schema';
import type { TDropCampaign, TDropStatus } from './schemas';

export type TCampaignRow = typeof dropCampaigns.$inferSelect;

export function statusAt(row: { startsAt: Date; endsAt: Date }, nowMs: number): TDropStatus {
  if (nowMs < row.startsAt.getTime()) return 'upcoming';
  return nowMs < row.endsAt.getTime() ? 'active' : 'ended';
}

/** SQL condition for a status at `now`; the same rule as statusAt. */
export function statusCondition(status: TDropStatus, now: Date): SQL {
  if (status === 'upcoming') return gt(dropCampaigns.startsAt, now);
  if (status === 'ended') return lte(dropCampaigns.endsAt, now);
  return and(lte(dropCampaigns.startsAt, now), gt(dropCampaigns.endsAt, now))!;
}

/** Loads rewards and channels of the given rows (two queries, whatever the page size). */
export async function assemble(db: TDb, rows: TCampaignRow[], now: Date): Promise<TDropCampaign[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const rewards = await db
    .select()
    .from(dropRewards)
    .where(inArray(dropRewards.campaignId, ids))
    .orderBy(asc(dropRewards.campaignId), asc(dropRewards.position))
    .all();
  const channels = await db
    .select()
    .from(dropChannels)
    .where(inArray(dropChannels.campaignId, ids))
    .orderBy(asc(dropChannels.campaignId), asc(dropChannels.position))
    .all();
  const nowMs = now.getTime();
  return rows.map((row) => ({
    id: row.id,
    campaignId: row.campaignId,
    name: row.name,
    game: row.game,
    description: row.description,
    imageUrl: row.imageUrl,
    detailsUrl: row.detailsUrl,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    status: statusAt(row, nowMs),
    rewards: rewards
      .filter((reward) => reward.campaignId === row.id)
      .map((reward) => ({ name: reward.name, imageUrl: reward.imageUrl, requiredMinutes: reward.requiredMinutes })),
    channels: channels
      .filter((channel) => channel.campaignId === row.id)
      .map((channel) => ({ name: channel.name, url: channel.url })),
  }));
}
