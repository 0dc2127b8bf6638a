import { z } from 'zod';
import { zBool, zPageInput, zRef } from '../../schemas';

/** The drop domain's schemas: campaigns as imported (admin upsert, CLI) and as answered, and the reads' inputs. */

const ZUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000);
const ZInstant = z.iso.datetime({ offset: true, error: 'must be an ISO-8601 date-time such as 2026-05-01T17:00:00Z' });

export const ZDropRewardInput = z.strictObject({
  name: z.string().trim().min(1).max(200),
  imageUrl: ZUrl.optional(),
  requiredMinutes: z.number().int().min(0).max(100_000),
});

export const ZDropChannelInput = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_]+$/, 'must be a channel login (letters, digits, _)'),
  url: ZUrl.optional(),
});

export const ZDropCampaignInput = z
  .strictObject({
    campaignId: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9._:-]+$/, 'may contain only letters, digits and . _ : -'),
    name: z.string().trim().min(1).max(200),
    game: z.string().trim().min(1).max(100).default('Skull and Bones'),
    description: z.string().trim().max(4000).optional(),
    imageUrl: ZUrl.optional(),
    detailsUrl: ZUrl.optional(),
    startsAt: ZInstant,
    endsAt: ZInstant,
    rewards: z.array(ZDropRewardInput).max(50).default([]),
    channels: z.array(ZDropChannelInput).max(1000).default([]),
  })
  .superRefine((campaign, check) => {
    if (Date.parse(campaign.endsAt) <= Date.parse(campaign.startsAt)) {
      check.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' });
    }
    const rewardNames = new Set<string>();
    campaign.rewards.forEach((reward, index) => {
      const key = reward.name.toLowerCase();
      if (rewardNames.has(key)) check.addIssue({ code: 'custom', path: ['rewards', index, 'name'], message: 'duplicate reward name' });
      rewardNames.add(key);
    });
    const channelNames = new Set<string>();
    campaign.channels.forEach((channel, index) => {
      const key = channel.name.toLowerCase();
      if (channelNames.has(key)) check.addIssue({ code: 'custom', path: ['channels', index, 'name'], message: 'duplicate channel' });
      channelNames.add(key);
    });
  });

export const ZDropUpsertInput = z
  .strictObject({ campaigns: z.array(ZDropCampaignInput).min(1, 'must list at least one campaign').max(500) })
  .superRefine((input, check) => {
    const seen = new Map<string, number>();
    input.campaigns.forEach((campaign, index) => {
      const first = seen.get(campaign.campaignId);
      if (first !== undefined) {
        check.addIssue({ code: 'custom', path: ['campaigns', index, 'campaignId'], message: `duplicates campaigns[${first}]` });
      } else seen.set(campaign.campaignId, index);
    });
  });

export type TDropCampaignInput = z.infer<typeof ZDropCampaignInput>;
export type TDropUpsertInput = z.infer<typeof ZDropUpsertInput>;

export const ZDropUpsertResult = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  items: z.array(z.object({ id: z.number().int(), campaignId: z.string(), created: z.boolean() })),
});
export type TDropUpsertResult = z.infer<typeof ZDropUpsertResult>;

export const ZDropStatus = z.enum(['active', 'upcoming', 'ended']);
export type TDropStatus = z.infer<typeof ZDropStatus>;

export const ZDropCampaign = z.object({
  id: z.number().int().meta({ description: 'Our id' }),
  campaignId: z.string().meta({ description: "The streaming platform's campaign id" }),
  name: z.string(),
  game: z.string(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
  detailsUrl: z.string().nullable(),
  startsAt: z.string(),
  endsAt: z.string(),
  status: ZDropStatus.meta({ description: 'Derived from the clock at response time' }),
  rewards: z.array(z.object({ name: z.string(), imageUrl: z.string().nullable(), requiredMinutes: z.number().int() })),
  channels: z.array(z.object({ name: z.string(), url: z.string().nullable() })),
});
export type TDropCampaign = z.infer<typeof ZDropCampaign>;

export const ZDropCurrent = z.object({
  items: z.array(ZDropCampaign),
  generatedAt: z.string().meta({ description: 'When the served list was built' }),
  expiresAt: z.string().meta({ description: 'When the cached list is rebuilt (TTL, or the next campaign start or end)' }),
  cache: z.enum(['hit', 'miss', 'refresh']).meta({ description: 'hit: served from cache; miss: rebuilt because expired; refresh: rebuilt on refresh=1' }),
});
export type TDropCurrent = z.infer<typeof ZDropCurrent>;
/** What the `dropCurrent` cache scope holds: the answer without its per-call fields. */
export type TDropCurrentSnapshot = Pick<TDropCurrent, 'items' | 'generatedAt'>;

export const ZDropCurrentInput = z
  .strictObject({ refresh: zBool().optional().meta({ description: '1 forces a cache rebuild (rate-limited per client)' }) })
  .prefault({});

export const ZDropHistoryInput = z
  .strictObject({
    ...zPageInput(10),
    status: ZDropStatus.optional().meta({ description: 'Derived from the clock: active, upcoming or ended' }),
    keyword: z.string().max(100, 'must be at most 100 characters').optional().meta({ description: 'Part of the campaign name or of a reward name (case-insensitive)' }),
  })
  .prefault({});
export type TDropHistoryInput = z.infer<typeof ZDropHistoryInput>;

export const ZDropItemInput = z.strictObject({ id: zRef(128).meta({ description: 'Our numeric id, or the platform campaign id' }) });
