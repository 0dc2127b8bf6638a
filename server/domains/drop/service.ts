import { and, asc, count, desc, eq, gt, inArray, lte, min, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TDb } from '../../../db/client';
import { dropCampaigns, dropChannels, dropRewards } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import { AppError, issuesFromZod, type TIssue } from '../../errors';
import { pageWindow, type TPagination } from '../../schemas';
import type { TLiveDataRuntime } from './runtime';

// ---------- input (admin upsert, CLI import) ----------

const ZUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000);
const ZInstant = z.iso.datetime({ offset: true, error: 'must be an ISO-8601 date-time such as 2026-05-01T17:00:00Z' });

export const ZDropRewardInput = z.object({
  name: z.string().trim().min(1).max(200),
  imageUrl: ZUrl.optional(),
  requiredMinutes: z.number().int().min(0).max(100_000),
});

export const ZDropChannelInput = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_]+$/, 'must be a channel login (letters, digits, _)'),
  url: ZUrl.optional(),
});

export const ZDropCampaignInput = z
  .object({
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
  .object({ campaigns: z.array(ZDropCampaignInput).min(1, 'must list at least one campaign').max(500) })
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

// ---------- output ----------

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

type TCampaignRow = typeof dropCampaigns.$inferSelect;

function statusAt(row: { startsAt: Date; endsAt: Date }, nowMs: number): TDropStatus {
  if (nowMs < row.startsAt.getTime()) return 'upcoming';
  return nowMs < row.endsAt.getTime() ? 'active' : 'ended';
}

/** SQL condition for a status at `now`; the same rule as statusAt. */
function statusCondition(status: TDropStatus, now: Date): SQL {
  if (status === 'upcoming') return gt(dropCampaigns.startsAt, now);
  if (status === 'ended') return lte(dropCampaigns.endsAt, now);
  return and(lte(dropCampaigns.startsAt, now), gt(dropCampaigns.endsAt, now))!;
}

/** Loads rewards and channels of the given rows (two queries, whatever the page size). */
async function assemble(db: TDb, rows: TCampaignRow[], now: Date): Promise<TDropCampaign[]> {
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

// ---------- current (cached) ----------

export interface TDropCurrent {
  items: TDropCampaign[];
  generatedAt: string;
  expiresAt: string;
  cache: 'hit' | 'miss' | 'refresh';
}

export interface TDropCurrentSnapshot {
  items: TDropCampaign[];
  generatedAt: string;
}

async function buildCurrent(db: TDb, now: Date, ttlMs: number): Promise<{ value: TDropCurrentSnapshot; expiresAtMs: number }> {
  const rows = await db
    .select()
    .from(dropCampaigns)
    .where(statusCondition('active', now))
    .orderBy(asc(dropCampaigns.endsAt), asc(dropCampaigns.id))
    .all();
  const items = await assemble(db, rows, now);
  // The set of active campaigns changes when one ends or the next one starts: never cache past that.
  const nextStart = await db
    .select({ at: min(dropCampaigns.startsAt) })
    .from(dropCampaigns)
    .where(gt(dropCampaigns.startsAt, now))
    .get();
  const nowMs = now.getTime();
  const candidates = [nowMs + ttlMs, ...rows.map((row) => row.endsAt.getTime())];
  if (nextStart?.at) candidates.push(nextStart.at.getTime());
  return { value: { items, generatedAt: now.toISOString() }, expiresAtMs: Math.min(...candidates) };
}

/**
 * Active campaigns from the short-lived cache. `refresh` rebuilds it, at most once per interval per
 * client; a faster refresh is a 429 with Retry-After rather than a silent cache answer, so a client
 * knows its refresh did not happen.
 */
export async function getCurrentCampaigns(
  db: TDb,
  runtime: TLiveDataRuntime,
  options: { now: Date; refresh: boolean; clientKey: string },
): Promise<TDropCurrent> {
  const nowMs = options.now.getTime();
  const cache = runtime.dropCurrentCache;
  if (options.refresh) {
    const hold = await runtime.dropRefreshHolds.claim(options.clientKey, nowMs + runtime.dropRefreshIntervalMs, nowMs);
    if (!hold.claimed) {
      const retryAfterSeconds = Math.max(1, Math.ceil((hold.heldUntilMs - nowMs) / 1000));
      throw new AppError('TOO_MANY_REQUESTS', `refresh=1 is allowed once every ${runtime.dropRefreshIntervalMs / 1000} seconds; retry in ${retryAfterSeconds} s or call without refresh`, {
        retryAfterSeconds,
        data: { retryAfterSeconds },
      });
    }
  } else {
    const entry = cache.get(nowMs);
    if (entry) return { ...entry.value, expiresAt: new Date(entry.expiresAtMs).toISOString(), cache: 'hit' };
  }
  const generation = cache.currentGeneration();
  const built = await buildCurrent(db, options.now, runtime.dropCacheTtlMs);
  cache.set({ value: built.value, builtAtMs: nowMs, expiresAtMs: built.expiresAtMs }, generation);
  return {
    ...built.value,
    expiresAt: new Date(built.expiresAtMs).toISOString(),
    cache: options.refresh ? 'refresh' : 'miss',
  };
}

// ---------- history and single campaign ----------

/** `%keyword%` with LIKE's own wildcards escaped, so "100%" matches literally. */
function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export async function listCampaignHistory(
  db: TDb,
  filters: { page: number; pageSize: number; status?: TDropStatus; keyword?: string },
  now: Date,
): Promise<{ items: TDropCampaign[]; pagination: TPagination }> {
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
  return { items: await assemble(db, rows, now), pagination: window.describe(total) };
}

/**
 * One campaign by our numeric id or by the platform's campaign id. A numeric reference is tried as
 * our id first, then as a campaign id (platform ids can be numeric too).
 */
export async function getCampaign(db: TDb, ref: string, now: Date): Promise<TDropCampaign> {
  const text = ref.trim();
  let row: TCampaignRow | undefined;
  if (/^\d{1,15}$/.test(text)) row = await db.select().from(dropCampaigns).where(eq(dropCampaigns.id, Number(text))).get();
  row ??= await db.select().from(dropCampaigns).where(eq(dropCampaigns.campaignId, text)).get();
  if (!row) throw new AppError('NOT_FOUND', `No drop campaign with id or campaign id "${text}"`);
  const [campaign] = await assemble(db, [row], now);
  return campaign!;
}

// ---------- ingestion ----------

export interface TDropUpsertResult {
  created: number;
  updated: number;
  items: { id: number; campaignId: string; created: boolean }[];
}

/**
 * Inserts or updates campaigns by campaignId; rewards and channels are replaced with the given
 * lists. All or nothing. Invalidates the /drop/current cache of this process.
 */
export async function upsertCampaigns(
  db: TDb,
  campaigns: TDropCampaignInput[],
  now: Date,
  runtime?: TLiveDataRuntime,
): Promise<TDropUpsertResult> {
  const result = await transaction(db, async (tx) => {
    const items: TDropUpsertResult['items'] = [];
    for (const campaign of campaigns) {
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
          .values(campaign.channels.map((channel, position) => ({ campaignId: id, position, name: channel.name, url: channel.url ?? null })))
          .run();
      }
      items.push({ id, campaignId: campaign.campaignId, created: !existing });
    }
    return items;
  });
  await runtime?.invalidateDropCurrent();
  const created = result.filter((item) => item.created).length;
  return { created, updated: result.length - created, items: result };
}

/** Parses an import file: `{ campaigns: [...] }` or a bare array. Issues name the exact place. */
export function parseDropImport(data: unknown): TDropCampaignInput[] {
  const parsed = ZDropUpsertInput.safeParse(Array.isArray(data) ? { campaigns: data } : data);
  if (!parsed.success) throw invalidFile(issuesFromZod(parsed.error));
  return parsed.data.campaigns;
}

export function invalidFile(issues: TIssue[]): AppError {
  const listed = issues.slice(0, 10).map((issue) => `  ${issue.path || '(root)'}: ${issue.message}`);
  const more = issues.length > 10 ? `\n  ... and ${issues.length - 10} more` : '';
  return new AppError('BAD_REQUEST', `Invalid data (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${listed.join('\n')}${more}`, { issues });
}
