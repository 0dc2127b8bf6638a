/** Campaign ingestion: the admin upsert and CLI import files, written all or nothing. */
import { eq } from 'drizzle-orm';
import { dropCampaigns, dropChannels, dropRewards } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf, TProgressListener } from '../../deps';
import { invalidFile, issuesFromZod } from '../../errors';
import { ZDropUpsertInput, type TDropCampaignInput, type TDropUpsertResult } from './schemas';

/**
 * Inserts or updates campaigns by campaignId; rewards and channels are replaced with the given
 * lists. All or nothing. With `deps.liveData` (the app's), drops the /drop/current cache here and, through
 * the bus, on every instance; the CLI and the demo seed pass none.
 */
export async function upsertCampaigns(
  deps: TDepsOf<'db' | 'now'> & Partial<TDepsOf<'liveData'>>,
  input: { campaigns: TDropCampaignInput[]; onProgress?: TProgressListener },
): Promise<TDropUpsertResult> {
  const now = deps.now();
  const result = await transaction(deps.db, async (tx) => {
    const items: TDropUpsertResult['items'] = [];
    for (const campaign of input.campaigns) {
      const values = {
        name: campaign.name,
        game: campaign.game,
        description: campaign.description ?? null,
        imageUrl: campaign.imageUrl ?? null,
        detailsUrl: campaign.detailsUrl ?? null,
        startsAt: new Date(campaign.startsAt),
        endsAt: new Date(campaign.endsAt),
        updatedAt: now,
      };
      const existing = await tx
        .select({ id: dropCampaigns.id })
        .from(dropCampaigns)
        .where(eq(dropCampaigns.campaignId, campaign.campaignId))
        .get();
      let id: number;
      if (existing) {
        id = existing.id;
        await tx.update(dropCampaigns).set(values).where(eq(dropCampaigns.id, id)).run();
        await tx.delete(dropRewards).where(eq(dropRewards.campaignId, id)).run();
        await tx.delete(dropChannels).where(eq(dropChannels.campaignId, id)).run();
      } else {
        const inserted = await tx
          .insert(dropCampaigns)
          .values({ campaignId: campaign.campaignId, createdAt: now, ...values })
          .returning({ id: dropCampaigns.id })
          .get();
        id = inserted.id;
      }
      if (campaign.rewards.length > 0) {
        await tx
          .insert(dropRewards)
          .values(
            campaign.rewards.map((reward, position) => ({
              campaignId: id,
              position,
              name: reward.name,
              imageUrl: reward.imageUrl ?? null,
              requiredMinutes: reward.requiredMinutes,
            })),
          )
          .run();
      }
      if (campaign.channels.length > 0) {
        await tx
          .insert(dropChannels)
          .values(
            campaign.channels.map((channel, position) => ({
              campaignId: id,
              position,
              name: channel.name,
              url: channel.url ?? null,
            })),
          )
          .run();
      }
      items.push({ id, campaignId: campaign.campaignId, created: !existing });
      input.onProgress?.('writing drop campaigns', items.length, input.campaigns.length);
    }
    return items;
  });
  await deps.liveData?.invalidateDropCurrent();
  const created = result.filter((item) => item.created).length;
  return { created, updated: result.length - created, items: result };
}

/** Parses an import file: `{ campaigns: [...] }` or a bare array. Issues name the exact place. */
export function parseDropImport(data: unknown): TDropCampaignInput[] {
  const parsed = ZDropUpsertInput.safeParse(Array.isArray(data) ? { campaigns: data } : data);
  if (!parsed.success) throw invalidFile(issuesFromZod(parsed.error));
  return parsed.data.campaigns;
}
