import { z } from 'zod';
import { zBool, zPageInput, zRef } from '../../schemas';
import { zText } from '../../text';

/** The drop domain's schemas: campaigns as imported (admin upsert, CLI) and as answered, and the reads' inputs. */

const ZUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000);
const ZInstant = z.iso.datetime({ offset: true, error: 'must be an ISO-8601 date-time such as 2026-05-01T17:00:00Z' });

export const ZDropRewardInput = z.strictObject({
  name: zText({ min: 1, max: 200 }).meta({ description: 'Name of the reward, unique within the campaign' }),
  imageUrl: ZUrl.optional().meta({ description: 'Picture of the reward (http or https)' }),
  requiredMinutes: z.number().int().min(0).max(100_000).meta({ description: 'Minutes of watching that earn it' }),
});

export const ZDropChannelInput = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_]+$/, 'must be a channel login (letters, digits, _)')
    .meta({ description: 'Login of a participating channel' }),
  url: ZUrl.optional().meta({ description: "The channel's page" }),
});

export const ZDropCampaignInput = z
  .strictObject({
    campaignId: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9._:-]+$/, 'may contain only letters, digits and . _ : -')
      .meta({ description: "The streaming platform's campaign id: an import with the same id updates the campaign" }),
    name: zText({ min: 1, max: 200 }).meta({ description: 'Name of the campaign' }),
    game: zText({ min: 1, max: 100 })
      .meta({ description: 'The game; Skull and Bones when absent' })
      .default('Skull and Bones'),
    description: zText({ max: 4000, kind: 'multiline' })
      .optional()
      .meta({ description: 'What the campaign offers, up to 4000 characters' }),
    imageUrl: ZUrl.optional().meta({ description: 'Banner picture (http or https)' }),
    detailsUrl: ZUrl.optional().meta({ description: "The campaign's page on the streaming platform" }),
    startsAt: ZInstant.meta({ description: 'When watching starts to count (ISO-8601 with offset)' }),
    endsAt: ZInstant.meta({ description: 'When it ends; after startsAt' }),
    rewards: z.array(ZDropRewardInput).max(50).meta({ description: 'Up to 50 rewards' }).default([]),
    channels: z
      .array(ZDropChannelInput)
      .max(1000)
      .meta({ description: 'Participating channels, in the order imported (may be empty)' })
      .default([]),
  })
  .superRefine((campaign, check) => {
    if (Date.parse(campaign.endsAt) <= Date.parse(campaign.startsAt)) {
      check.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' });
    }
    const rewardNames = new Set<string>();
    campaign.rewards.forEach((reward, index) => {
      const key = reward.name.toLowerCase();
      if (rewardNames.has(key))
        check.addIssue({ code: 'custom', path: ['rewards', index, 'name'], message: 'duplicate reward name' });
      rewardNames.add(key);
    });
    const channelNames = new Set<string>();
    campaign.channels.forEach((channel, index) => {
      const key = channel.name.toLowerCase();
      if (channelNames.has(key))
        check.addIssue({ code: 'custom', path: ['channels', index, 'name'], message: 'duplicate channel' });
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
        check.addIssue({
          code: 'custom',
          path: ['campaigns', index, 'campaignId'],
          message: `duplicates campaigns[${first}]`,
        });
      } else seen.set(campaign.campaignId, index);
    });
  });

export type TDropCampaignInput = z.infer<typeof ZDropCampaignInput>;
export type TDropUpsertInput = z.infer<typeof ZDropUpsertInput>;

export const ZDropUpsertResult = z.object({
  created: z.number().int().meta({ description: 'Campaigns added' }),
  updated: z.number().int().meta({ description: 'Campaigns that existed and were replaced' }),
  items: z
    .array(
      z.object({
        id: z.number().int().meta({ description: 'Our id of the campaign' }),
        campaignId: z.string().meta({ description: "The platform's campaign id, as given" }),
        created: z.boolean().meta({ description: 'true when added, false when updated' }),
      }),
    )
    .meta({ description: 'Each campaign of the import, in its order' }),
});
export type TDropUpsertResult = z.infer<typeof ZDropUpsertResult>;

export const ZDropStatus = z.enum(['active', 'upcoming', 'ended']);
export type TDropStatus = z.infer<typeof ZDropStatus>;

export const ZDropCampaign = z.object({
  id: z.number().int().meta({ description: 'Our id' }),
  campaignId: z.string().meta({ description: "The streaming platform's campaign id" }),
  name: z.string().meta({ description: 'Name of the campaign' }),
  game: z.string().meta({ description: 'The game' }),
  description: z.string().nullable().meta({ description: 'What the campaign offers; null when not given' }),
  imageUrl: z.string().nullable().meta({ description: 'Banner picture; null when not given' }),
  detailsUrl: z
    .string()
    .nullable()
    .meta({ description: "The campaign's page on the streaming platform; null when not given" }),
  startsAt: z.string().meta({ description: 'When watching starts to count (ISO-8601)' }),
  endsAt: z.string().meta({ description: 'When it ends (ISO-8601)' }),
  status: ZDropStatus.meta({ description: 'Derived from the clock at response time' }),
  rewards: z
    .array(
      z.object({
        name: z.string().meta({ description: 'Name of the reward' }),
        imageUrl: z.string().nullable().meta({ description: 'Picture of the reward; null when not given' }),
        requiredMinutes: z.number().int().meta({ description: 'Minutes of watching that earn it' }),
      }),
    )
    .meta({ description: 'Rewards, in the order imported' }),
  channels: z
    .array(
      z.object({
        name: z.string().meta({ description: 'Channel login' }),
        url: z.string().nullable().meta({ description: "The channel's page; null when not given" }),
      }),
    )
    .meta({ description: 'Participating channels, in the order imported (may be empty)' }),
});
export type TDropCampaign = z.infer<typeof ZDropCampaign>;

export const ZDropCurrent = z.object({
  items: z.array(ZDropCampaign).meta({ description: 'The active campaigns' }),
  generatedAt: z.string().meta({ description: 'When the served list was built' }),
  expiresAt: z
    .string()
    .meta({ description: 'When the cached list is rebuilt (TTL, or the next campaign start or end)' }),
  cache: z
    .enum(['hit', 'miss', 'refresh'])
    .meta({ description: 'hit: served from cache; miss: rebuilt because expired; refresh: rebuilt on refresh=1' }),
});
export type TDropCurrent = z.infer<typeof ZDropCurrent>;
/** What the `dropCurrent` cache scope holds: the answer without its per-call fields. */
export type TDropCurrentSnapshot = Pick<TDropCurrent, 'items' | 'generatedAt'>;

export const ZDropCurrentInput = z
  .strictObject({
    refresh: zBool().optional().meta({ description: '1 forces a cache rebuild (rate-limited per client)' }),
  })
  .prefault({});

export const ZDropHistoryInput = z
  .strictObject({
    ...zPageInput(10),
    status: ZDropStatus.optional().meta({ description: 'Derived from the clock: active, upcoming or ended' }),
    keyword: z
      .string()
      .max(100, 'must be at most 100 characters')
      .optional()
      .meta({ description: 'Part of the campaign name or of a reward name (case-insensitive)' }),
  })
  .prefault({});
export type TDropHistoryInput = z.infer<typeof ZDropHistoryInput>;

export const ZDropItemInput = z.strictObject({
  id: zRef(128).meta({ description: 'Our numeric id, or the platform campaign id' }),
});
