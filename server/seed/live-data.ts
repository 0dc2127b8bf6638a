import { transaction } from '../../db/transaction';
import type { TDepsOf } from '../deps';
import { importCommunityData } from '../domains/codex';
import { replaceCalendar } from '../domains/calendar/season-calendar';
import type { TCalendarEventInput } from '../domains/calendar/schemas';
import { upsertCampaigns } from '../domains/drop/ingestion';
import type { TDropCampaignInput } from '../domains/drop/schemas';
import { findCurrentSeason, listSeasonRows, nameFromKey, type TSeasonRow } from '../domains/war/seasons';
import { writeSnapshotBatch } from '../domains/war/snapshots';
import { readCommunityData } from '../infra/packaged-files';
import { DAY, DEMO_SNAPSHOTS_PER_SEASON, demoSnapshots, demoWar, HOUR, SNAPSHOT_EVERY } from './war-data';

/**
 * Demo live data on the community data set (server/seed/community-data/): its seasons, the war's zones
 * and companies and every codex kind, imported as `cli import-community-data` imports them (all but the
 * catalog: the demo has its own); seven days of war snapshots every five minutes for the current
 * season (the one running at `now`, else the last one that ended) and the one before it, ending at
 * `now` or at the season's end; each season's calendar of the data set's events (events.json, which
 * gives no dates: each is placed inside its season); and drop campaigns in each status around `now`.
 * Deterministic for a given `now`.
 */

export { DEMO_SNAPSHOTS_PER_SEASON, demoSnapshots, demoWar, type TDemoWar } from './war-data';

export function demoCampaigns(now: Date): TDropCampaignInput[] {
  const base = Math.floor(now.getTime() / HOUR) * HOUR;
  const at = (offsetMs: number) => new Date(base + offsetMs).toISOString();
  const reward = (name: string, requiredMinutes: number) => ({
    name,
    requiredMinutes,
    imageUrl: `https://static.tidewatch.example/drops/${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.png`,
  });
  const channels = (...names: string[]) => names.map((name) => ({ name, url: `https://www.twitch.tv/${name}` }));
  const campaign = (
    campaignId: string,
    name: string,
    startOffset: number,
    endOffset: number,
    rewards: ReturnType<typeof reward>[],
    channelList: ReturnType<typeof channels>,
  ): TDropCampaignInput => ({
    campaignId,
    name,
    game: 'Skull and Bones',
    description: `${name}: watch participating channels to earn the rewards.`,
    imageUrl: `https://static.tidewatch.example/drops/${campaignId}.jpg`,
    detailsUrl: `https://www.twitch.tv/drops/campaigns?dropID=${campaignId}`,
    startsAt: at(startOffset),
    endsAt: at(endOffset),
    rewards,
    channels: channelList,
  });
  return [
    campaign(
      '8f0c2f6e-1b7a-4c33-9a51-2d9e7c1a0b01',
      'Burning Straits Launch Drops',
      -2 * DAY,
      5 * DAY,
      [reward('Ember Sail', 30), reward('Flamewake Flag', 90), reward('Cinder Figurehead', 240)],
      channels('skullandbonesgame', 'ubisoft'),
    ),
    campaign(
      '8f0c2f6e-1b7a-4c33-9a51-2d9e7c1a0b02',
      'Helm Partner Week',
      -6 * HOUR,
      2 * DAY,
      [reward('Smuggler Lantern', 60), reward('Contraband Crate Decor', 120)],
      channels('captainmarrow', 'saltyseadog', 'ubisoft'),
    ),
    campaign(
      '8f0c2f6e-1b7a-4c33-9a51-2d9e7c1a0b03',
      'Kraken Hunt Weekend',
      3 * DAY,
      10 * DAY,
      [reward('Tentacle Hull Paint', 60), reward('Kraken Eye Trophy', 180)],
      channels('skullandbonesgame'),
    ),
    campaign(
      '8f0c2f6e-1b7a-4c33-9a51-2d9e7c1a0b04',
      'Season Finale Drops',
      12 * DAY,
      19 * DAY,
      [reward('Golden Gunport Trim', 120)],
      channels('skullandbonesgame', 'ubisoft'),
    ),
    campaign(
      '8f0c2f6e-1b7a-4c33-9a51-2d9e7c1a0b05',
      'Silent Shoals Farewell',
      -30 * DAY,
      -23 * DAY,
      [reward('Fog Banner', 60), reward('Shoal Runner Sail', 120)],
      channels('skullandbonesgame'),
    ),
    campaign(
      '8f0c2f6e-1b7a-4c33-9a51-2d9e7c1a0b06',
      'Community Convoy Drops',
      -16 * DAY,
      -9 * DAY,
      [reward('Convoy Pennant', 45), reward('Merchant Lantern', 90)],
      channels('saltyseadog', 'captainmarrow'),
    ),
    campaign(
      '8f0c2f6e-1b7a-4c33-9a51-2d9e7c1a0b07',
      'Anniversary Twitch Drops',
      -60 * DAY,
      -53 * DAY,
      [reward('Anniversary Figurehead', 240), reward('Helm Coin Pouch', 30)],
      channels('ubisoft'),
    ),
  ];
}

/**
 * A season's calendar: the data set's events that ran in it (events.json `seasons`), spread over the
 * season, a week each (cut at its end), starting at 17:00 UTC. events.json gives no dates: these are
 * the demo's.
 */
export function demoCalendar(season: TSeasonRow, data: Record<string, unknown>): TCalendarEventInput[] {
  const events = Object.entries((data['events.json'] ?? {}) as Record<string, { id?: string; seasons?: unknown }>)
    .map(([key, event]) => ({ id: typeof event.id === 'string' ? event.id : key, seasons: event.seasons }))
    .filter((event) => Array.isArray(event.seasons) && event.seasons.includes(season.key));
  const startsAtMs = season.startsAt.getTime();
  const endsAtMs = season.endsAt.getTime();
  return events.map((event, index) => {
    const day = Math.floor((startsAtMs + ((index + 1) * (endsAtMs - startsAtMs)) / (events.length + 1)) / DAY) * DAY;
    const starts = Math.max(startsAtMs, day - 3 * DAY) + 17 * HOUR;
    return {
      id: event.id,
      title: nameFromKey(event.id),
      category: 'event',
      startsAt: new Date(starts).toISOString(),
      endsAt: new Date(Math.min(endsAtMs, starts + 7 * DAY)).toISOString(),
    };
  });
}

export interface TLiveDataSeedStats {
  seasons: number;
  codexEntries: number;
  snapshots: number;
  campaigns: number;
  calendarEvents: number;
  ms: number;
}

/** The last week of a season's snapshots, ending at `endMs` (a snapshot time, inside the season) or sooner. */
function lastWeek(season: TSeasonRow, endMs: number): { seasonId: string; firstMs: number; lastMs: number } {
  const lastMs =
    Math.floor(Math.min(endMs, season.endsAt.getTime() - SNAPSHOT_EVERY) / SNAPSHOT_EVERY) * SNAPSHOT_EVERY;
  let firstMs = lastMs - (DEMO_SNAPSHOTS_PER_SEASON - 1) * SNAPSHOT_EVERY;
  while (firstMs < season.startsAt.getTime()) firstMs += SNAPSHOT_EVERY;
  return { seasonId: season.id, firstMs, lastMs };
}

export async function seedLiveData(
  deps: TDepsOf<'db' | 'now'>,
  data: Record<string, unknown> = readCommunityData(),
): Promise<TLiveDataSeedStats> {
  const started = performance.now();
  const now = deps.now();
  const imported = await importCommunityData(deps, { files: data, withCatalog: false });
  const count = (prefix: string) =>
    imported.kinds.filter((kind) => kind.kind.startsWith(prefix)).reduce((sum, kind) => sum + kind.added, 0);
  const seasons = await listSeasonRows(deps.db);
  const current = await findCurrentSeason(deps.db, now);
  const previous = current && seasons.filter((season) => season.startsAt < current.startsAt).at(-1);
  const war = demoWar(data);
  const snapshots = [
    ...(previous ? demoSnapshots(war, lastWeek(previous, previous.endsAt.getTime()), 10) : []),
    ...(current ? demoSnapshots(war, lastWeek(current, now.getTime()), 11) : []),
  ];
  // One transaction, multi-row inserts: up to 4,032 snapshots with their scores, zones and hotspots.
  if (snapshots.length > 0) await transaction(deps.db, (tx) => writeSnapshotBatch({ db: tx }, { snapshots }));
  const campaigns = demoCampaigns(now);
  await upsertCampaigns({ db: deps.db, now: () => now }, { campaigns });
  let calendarEvents = 0;
  for (const season of seasons) {
    const events = demoCalendar(season, data);
    if (events.length === 0) continue;
    await replaceCalendar(deps, { season: season.id, events });
    calendarEvents += events.length;
  }
  return {
    seasons: seasons.length,
    codexEntries: count('codex '),
    snapshots: snapshots.length,
    campaigns: campaigns.length,
    calendarEvents,
    ms: Math.round(performance.now() - started),
  };
}
