/**
 * The live-data stages of bench/generate.ts: two years of drop campaigns with their rewards and
 * channels, and the war snapshots that complete each demo season at one snapshot per 5 minutes.
 */
import { eq, sql } from 'drizzle-orm';
import type { TDb } from '../db/client';
import { dropCampaigns, dropChannels, dropRewards, seasons, warSnapshots } from '../db/schema';
import { transaction } from '../db/transaction';
import { writeSnapshotBatch, type TPreparedSnapshot } from '../server/domains/war/snapshots';
import { readCommunityData } from '../server/infra/packaged-files';
import { demoWar } from '../server/seed/live-data';
import { random } from '../server/seed/random';
import { benchUuid, DAY, HOUR, MINUTE, WORDS } from './generate-vocabulary';

const SNAPSHOT_EVERY = 5 * MINUTE;

/** Inserts `count` weekly drop campaigns ending around `now` (about 4 active), each with 3 rewards and 2 channels. */
export async function insertDropCampaigns(
  db: TDb,
  count: number,
  now: Date,
  advance: (done: number) => void,
): Promise<void> {
  const next = random(11);
  const insertCampaignOn = (tx: TDb) =>
    tx
      .insert(dropCampaigns)
      .values({
        campaignId: sql.placeholder('campaignId'),
        name: sql.placeholder('name'),
        game: 'Skull and Bones',
        description: sql.placeholder('description'),
        imageUrl: sql.placeholder('imageUrl'),
        detailsUrl: sql.placeholder('detailsUrl'),
        startsAt: sql.placeholder('startsAt'),
        endsAt: sql.placeholder('endsAt'),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: dropCampaigns.id })
      .prepare();
  const insertRewardOn = (tx: TDb) =>
    tx
      .insert(dropRewards)
      .values({
        campaignId: sql.placeholder('campaignId'),
        position: sql.placeholder('position'),
        name: sql.placeholder('name'),
        imageUrl: sql.placeholder('imageUrl'),
        requiredMinutes: sql.placeholder('requiredMinutes'),
      })
      .prepare();
  const insertChannelOn = (tx: TDb) =>
    tx
      .insert(dropChannels)
      .values({
        campaignId: sql.placeholder('campaignId'),
        position: sql.placeholder('position'),
        name: sql.placeholder('name'),
        url: sql.placeholder('url'),
      })
      .prepare();
  const hourNow = Math.floor(now.getTime() / HOUR) * HOUR;
  await transaction(db, async (tx) => {
    const [insertCampaign, insertReward, insertChannel] = [
      insertCampaignOn(tx),
      insertRewardOn(tx),
      insertChannelOn(tx),
    ];
    for (let i = 0; i < count; i++) {
      // Two years of weekly campaigns, most ended; the last few overlap now (about 4 active).
      const startsAt = hourNow - (count - 1 - i) * 1.5 * DAY + 4 * DAY - Math.floor(next() * 12) * HOUR;
      const endsAt = startsAt + 7 * DAY;
      const campaignId = benchUuid(3, i);
      const row = (await insertCampaign.get({
        campaignId,
        name: `${WORDS[i % WORDS.length]} drops ${i}`,
        description: `Campaign ${i}: watch participating channels to earn the rewards.`,
        imageUrl: `https://static.tidewatch.example/drops/${campaignId}.jpg`,
        detailsUrl: `https://www.twitch.tv/drops/campaigns?dropID=${campaignId}`,
        startsAt: new Date(startsAt),
        endsAt: new Date(endsAt),
      })) as { id: number };
      for (let r = 0; r < 3; r++) {
        await insertReward.run({
          campaignId: row.id,
          position: r,
          name: `Reward ${i}.${r}`,
          imageUrl: `https://static.tidewatch.example/drops/${i}-${r}.png`,
          requiredMinutes: 30 * (r + 1),
        });
      }
      for (let c = 0; c < 2; c++) {
        await insertChannel.run({
          campaignId: row.id,
          position: c,
          name: `channel${(i + c) % 40}`,
          url: `https://www.twitch.tv/channel${(i + c) % 40}`,
        });
      }
      if ((i + 1) % 50 === 0) advance(i + 1);
    }
  });
}

/** The war snapshots still to write: the span of each season before the demo seed's week, and the war they score. */
export interface TWarFill {
  ranges: { seasonId: string; from: number; to: number }[];
  war: ReturnType<typeof demoWar>;
  /** How many snapshots the ranges take. */
  snapshotCount: number;
}

export async function planWarFill(db: TDb): Promise<TWarFill> {
  // The demo seed wrote the last week of two seasons; fill each from its first day up to that week.
  const seeded = await db
    .select({
      seasonId: warSnapshots.seasonId,
      startsAt: seasons.startsAt,
      first: sql<number>`min(${warSnapshots.capturedAt})`,
    })
    .from(warSnapshots)
    .innerJoin(seasons, eq(seasons.id, warSnapshots.seasonId))
    .groupBy(warSnapshots.seasonId)
    .all();
  const ranges = seeded.map((row) => ({
    seasonId: row.seasonId,
    from: row.startsAt.getTime(),
    to: Number(row.first),
  }));
  const war = demoWar(readCommunityData());
  const snapshotCount = ranges.reduce(
    (sum, range) => sum + Math.max(0, Math.ceil((range.to - range.from) / SNAPSHOT_EVERY)),
    0,
  );
  return { ranges, war, snapshotCount };
}

/** Writes the snapshots of `fill`, scores rising from random starts, in transactions of 5,000. */
export async function writeWarSnapshots(
  db: TDb,
  { ranges, war }: TWarFill,
  advance: (done: number) => void,
): Promise<void> {
  const next = random(5);
  let written = 0;
  for (const range of ranges) {
    const snapshots: TPreparedSnapshot[] = [];
    const scores = war.companies.map(() => 10_000 + Math.round(next() * 5_000));
    for (let at = range.from; at < range.to; at += SNAPSHOT_EVERY) {
      for (let c = 0; c < scores.length; c++) scores[c] = scores[c]! + Math.round(20 + next() * 40);
      snapshots.push({
        seasonId: range.seasonId,
        capturedAtMs: at,
        companies: war.companies.map((company, c) => ({ companyId: company.id, score: scores[c]! })),
        zones: war.zones.map((zone, z) => {
          const contenders = war.contenders.get(zone.id) ?? [];
          return {
            zoneId: zone.id,
            controllerId: contenders[(z + Math.floor(at / DAY)) % contenders.length] ?? null,
            scores: Object.fromEntries(contenders.map((id) => [id, 200 + Math.round(next() * 600)])),
          };
        }),
        hotspots: [],
      });
    }
    for (let start = 0; start < snapshots.length; start += 5_000) {
      const batch = snapshots.slice(start, start + 5_000);
      await transaction(db, (tx) => writeSnapshotBatch({ db: tx }, { snapshots: batch }));
      written += batch.length;
      advance(written);
    }
  }
}
