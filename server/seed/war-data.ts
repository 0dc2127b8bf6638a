// Demo war data (seed/live-data.ts): the companies and zones, two seasons around `now`, and seven days
// of snapshots every five minutes for each. Deterministic for a given `now` and seed.
import { random } from './random';
import type { TPreparedSnapshot } from '../domains/war/snapshots';

const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const SNAPSHOT_EVERY = 5 * MINUTE;
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
