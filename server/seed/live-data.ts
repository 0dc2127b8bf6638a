import { transaction } from '../../db/transaction';
import type { TDepsOf } from '../deps';
import { random } from './random';
import { replaceCalendar } from '../domains/calendar/season-calendar';
import type { TCalendarEventInput } from '../domains/calendar/schemas';
import { upsertCampaigns } from '../domains/drop/ingestion';
import type { TDropCampaignInput } from '../domains/drop/schemas';
import { seasonsFromCommunityFormat } from '../domains/war/seasons';
import { upsertWarReference } from '../domains/war/reference';
import { writeSnapshotBatch, type TPreparedSnapshot } from '../domains/war/snapshots';

/**
 * Demo live data, generated relative to `now` so a fresh `npm start` looks live: campaigns in each
 * status, two seasons (the running one and the one before) with seven days of war snapshots every
 * five minutes, and both seasons' calendars. Deterministic for a given `now`.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SNAPSHOT_EVERY = 5 * MINUTE;
export const DEMO_SNAPSHOTS_PER_SEASON = (7 * DAY) / SNAPSHOT_EVERY; // 2,016

export const DEMO_COMPANIES = [
  { id: 'crimson-reef', name: 'Crimson Reef Company', color: '#c0392b' },
  { id: 'sable-tide', name: 'Sable Tide Trading', color: '#34495e' },
  { id: 'gilded-anchor', name: 'Gilded Anchor Syndicate', color: '#d4a017' },
  { id: 'verdant-wake', name: 'Verdant Wake Consortium', color: '#27ae60' },
];

export const DEMO_ZONES = [
  { id: 'red-isle', name: 'Red Isle' },
  { id: 'coast-of-africa', name: 'Coast of Africa' },
  { id: 'east-indies', name: 'East Indies' },
  { id: 'open-ocean', name: 'Open Ocean' },
  { id: 'west-africa', name: 'West Africa' },
  { id: 'sainte-anne', name: 'Sainte-Anne Waters' },
];

const HOTSPOT_KINDS = [
  ['convoy', 'Treasure Convoy'],
  ['fort-siege', 'Fort Siege'],
  ['raid', 'Smuggler Raid'],
  ['storm', 'Storm Front'],
] as const;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const floorDay = (ms: number) => Math.floor(ms / DAY) * DAY;

export interface TDemoSeasons {
  previous: { id: string; startsAtMs: number; endsAtMs: number };
  current: { id: string; startsAtMs: number; endsAtMs: number };
}

/** The two demo seasons in the community seasons.json format, around `now`. */
export function demoSeasons(now: Date): { file: Record<string, unknown>; spans: TDemoSeasons } {
  const today = floorDay(now.getTime());
  const currentStart = today - 20 * DAY;
  const currentEndDay = today + 69 * DAY;
  const previousEndDay = currentStart - DAY;
  const previousStart = previousEndDay - 89 * DAY;
  const file = {
    silentShoals: {
      index: 10,
      id: 'silentShoals',
      alternativeName: 'y3s3',
      startDate: isoDay(previousStart),
      endDate: isoDay(previousEndDay),
    },
    burningStraits: {
      index: 11,
      id: 'burningStraits',
      alternativeName: 'y3s4',
      startDate: isoDay(currentStart),
      endDate: isoDay(currentEndDay),
    },
  };
  return {
    file,
    spans: {
      previous: { id: 'y3s3', startsAtMs: previousStart, endsAtMs: previousEndDay + DAY },
      current: { id: 'y3s4', startsAtMs: currentStart, endsAtMs: currentEndDay + DAY },
    },
  };
}

/** Seven days of snapshots every five minutes, the last one at `lastMs`. */
export function demoSnapshots(seasonId: string, lastMs: number, seed: number): TPreparedSnapshot[] {
  const next = random(seed);
  const scores = DEMO_COMPANIES.map((_, index) => 40_000 + Math.round(next() * 8_000) - index * 2_500);
  const rates = DEMO_COMPANIES.map(() => 20 + next() * 40);
  const influence = DEMO_ZONES.map(() => DEMO_COMPANIES.map(() => 200 + Math.round(next() * 600)));
  const snapshots: TPreparedSnapshot[] = [];
  let hotspots: TPreparedSnapshot['hotspots'] = [];
  const firstMs = lastMs - (DEMO_SNAPSHOTS_PER_SEASON - 1) * SNAPSHOT_EVERY;
  for (let index = 0; index < DEMO_SNAPSHOTS_PER_SEASON; index++) {
    const at = firstMs + index * SNAPSHOT_EVERY;
    // Rates drift so the lead changes hands now and then.
    if (index % 144 === 0) for (let c = 0; c < rates.length; c++) rates[c] = 20 + next() * 40;
    for (let c = 0; c < scores.length; c++) scores[c] = scores[c]! + Math.round(rates[c]! * (0.5 + next()));
    for (const zone of influence) {
      for (let c = 0; c < zone.length; c++) zone[c] = Math.max(0, zone[c]! + Math.round((next() - 0.48) * 40));
    }
    if (index % 24 === 0) {
      const endsAt = Math.floor(at / (2 * HOUR)) * 2 * HOUR + 2 * HOUR;
      const count = 1 + Math.floor(next() * 2);
      const zones = [...DEMO_ZONES].sort(() => next() - 0.5).slice(0, count);
      hotspots = zones.map((zone) => {
        const [kind, label] = HOTSPOT_KINDS[Math.floor(next() * HOTSPOT_KINDS.length)]!;
        return { zoneId: zone.id, name: `${label} near ${zone.name}`, kind, endsAtMs: endsAt };
      });
    }
    snapshots.push({
      seasonId,
      capturedAtMs: at,
      companies: DEMO_COMPANIES.map((company, c) => ({ companyId: company.id, score: scores[c]! })),
      zones: DEMO_ZONES.map((zone, z) => {
        const values = influence[z]!;
        const ranked = values.map((value, c) => ({ value, c })).sort((a, b) => b.value - a.value);
        // A zone is held when its leader is at least 10% ahead; otherwise it is contested.
        const held = ranked[0]!.value >= ranked[1]!.value * 1.1;
        return {
          zoneId: zone.id,
          controllerId: held ? DEMO_COMPANIES[ranked[0]!.c]!.id : null,
          scores: Object.fromEntries(DEMO_COMPANIES.map((company, c) => [company.id, values[c]!])),
        };
      }),
      hotspots: hotspots.filter((hotspot) => hotspot.endsAtMs! > at),
    });
  }
  return snapshots;
}

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
