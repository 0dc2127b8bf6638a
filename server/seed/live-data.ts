import { transaction } from '../../db/transaction';
import type { TDepsOf } from '../deps';
import { replaceCalendar } from '../domains/calendar/season-calendar';
import type { TCalendarEventInput } from '../domains/calendar/schemas';
import { upsertCampaigns } from '../domains/drop/ingestion';
import type { TDropCampaignInput } from '../domains/drop/schemas';
import { seasonsFromCommunityFormat } from '../domains/war/seasons';
import { upsertWarReference } from '../domains/war/reference';
import { writeSnapshotBatch } from '../domains/war/snapshots';
import { DAY, DEMO_COMPANIES, DEMO_ZONES, demoSeasons, demoSnapshots, HOUR, SNAPSHOT_EVERY } from './war-data';

/**
 * Demo live data, generated relative to `now` so a fresh `npm start` looks live: campaigns in each
 * status, two seasons (the running one and the one before) with seven days of war snapshots every
 * five minutes, and both seasons' calendars. Deterministic for a given `now`.
 */

export {
  DEMO_COMPANIES,
  DEMO_SNAPSHOTS_PER_SEASON,
  DEMO_ZONES,
  demoSeasons,
  demoSnapshots,
  type TDemoSeasons,
} from './war-data';

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

function demoCalendar(startsAtMs: number, endsAtMs: number, prefix: string): TCalendarEventInput[] {
  const at = (days: number, hours = 9) => new Date(startsAtMs + days * DAY + hours * HOUR).toISOString();
  const events: TCalendarEventInput[] = [
    { id: `${prefix}-launch`, title: 'Season launch', category: 'season', startsAt: at(0), endsAt: at(1) },
    {
      id: `${prefix}-pass`,
      title: 'Season pass',
      category: 'season',
      startsAt: at(0),
      endsAt: new Date(endsAtMs).toISOString(),
    },
    {
      id: `${prefix}-kraken`,
      title: 'World event: Kraken Hunt',
      category: 'world-event',
      startsAt: at(3),
      endsAt: at(10),
    },
    {
      id: `${prefix}-double`,
      title: 'Double Infamy weekend',
      category: 'bonus',
      startsAt: at(14, 17),
      endsAt: at(17, 9),
    },
    { id: `${prefix}-drops`, title: 'Twitch drops week', category: 'drops', startsAt: at(18), endsAt: at(25) },
    {
      id: `${prefix}-maint-1`,
      title: 'Scheduled maintenance',
      category: 'maintenance',
      startsAt: at(21, 8),
      endsAt: at(21, 10),
    },
    { id: `${prefix}-festival`, title: 'Helm Festival', category: 'world-event', startsAt: at(25), endsAt: at(32) },
    {
      id: `${prefix}-ghost`,
      title: 'World event: Ghost Fleet',
      category: 'world-event',
      startsAt: at(40),
      endsAt: at(47),
    },
    {
      id: `${prefix}-maint-2`,
      title: 'Scheduled maintenance',
      category: 'maintenance',
      startsAt: at(50, 8),
      endsAt: at(50, 10),
    },
    {
      id: `${prefix}-finale`,
      title: 'Season finale: war for the Red Isle',
      category: 'world-event',
      startsAt: at(80),
      endsAt: at(86),
    },
  ];
  return events.filter((event) => Date.parse(event.startsAt) < endsAtMs);
}

export interface TLiveDataSeedStats {
  seasons: number;
  snapshots: number;
  campaigns: number;
  calendarEvents: number;
  ms: number;
}

export async function seedLiveData(deps: TDepsOf<'db' | 'now'>): Promise<TLiveDataSeedStats> {
  const started = performance.now();
  const now = deps.now();
  const { file, spans } = demoSeasons(now);
  await upsertWarReference(deps, {
    seasons: seasonsFromCommunityFormat(file),
    zones: DEMO_ZONES,
    companies: DEMO_COMPANIES,
  });
  const currentLast = Math.floor(now.getTime() / SNAPSHOT_EVERY) * SNAPSHOT_EVERY;
  const previousLast = spans.previous.endsAtMs - SNAPSHOT_EVERY;
  const snapshots = [
    ...demoSnapshots(spans.previous.id, previousLast, 10),
    ...demoSnapshots(spans.current.id, currentLast, 11),
  ];
  // One transaction, multi-row inserts: 4,032 snapshots with their scores, zones and hotspots.
  await transaction(deps.db, (tx) => writeSnapshotBatch({ db: tx }, { snapshots }));
  const campaigns = demoCampaigns(now);
  await upsertCampaigns({ db: deps.db, now: () => now }, { campaigns });
  const previousEvents = demoCalendar(spans.previous.startsAtMs, spans.previous.endsAtMs, 'y3s3');
  const currentEvents = demoCalendar(spans.current.startsAtMs, spans.current.endsAtMs, 'y3s4');
  await replaceCalendar(deps, { season: spans.previous.id, events: previousEvents });
  await replaceCalendar(deps, { season: spans.current.id, events: currentEvents });
  return {
    seasons: 2,
    snapshots: snapshots.length,
    campaigns: campaigns.length,
    calendarEvents: previousEvents.length + currentEvents.length,
    ms: Math.round(performance.now() - started),
  };
}
