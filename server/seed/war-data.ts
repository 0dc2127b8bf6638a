// The demo's war (seed/live-data.ts), on the community data set's real places and factions: its zones
// are the data set's regions (regions.json), its trading companies the factions those regions name
// (factions.json), and each zone is contested by its own region's factions only. Seven days of
// snapshots every five minutes per season, deterministic for a given window and seed.
import { colorOf } from '../domains/war/community';
import { nameFromKey } from '../domains/war/seasons';
import type { TPreparedSnapshot } from '../domains/war/snapshots';
import { random } from './random';

const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const SNAPSHOT_EVERY = 5 * MINUTE;
export const DEMO_SNAPSHOTS_PER_SEASON = (7 * DAY) / SNAPSHOT_EVERY; // 2,016

export interface TDemoWar {
  zones: { id: string; name: string }[];
  companies: { id: string; name: string; color: string }[];
  /** The companies that contest each zone, by zone id: its region's factions. */
  contenders: Map<string, string[]>;
}

/** The demo's zones and companies, from the data set's regions.json (each region's id and its `factions`). */
export function demoWar(data: Record<string, unknown>): TDemoWar {
  const regions = (data['regions.json'] ?? {}) as Record<string, { id?: string; factions?: unknown }>;
  const zones: TDemoWar['zones'] = [];
  const contenders = new Map<string, string[]>();
  const companyIds: string[] = [];
  for (const [key, region] of Object.entries(regions)) {
    const id = typeof region.id === 'string' ? region.id : key;
    const factions = Array.isArray(region.factions)
      ? region.factions.filter((faction): faction is string => typeof faction === 'string')
      : [];
    zones.push({ id, name: nameFromKey(id) });
    contenders.set(id, factions);
    for (const faction of factions) if (!companyIds.includes(faction)) companyIds.push(faction);
  }
  const companies = companyIds.map((id) => ({ id, name: nameFromKey(id), color: colorOf(id) }));
  return { zones, companies, contenders };
}

const HOTSPOT_KINDS = [
  ['convoy', 'Treasure Convoy'],
  ['fort-siege', 'Fort Siege'],
  ['raid', 'Smuggler Raid'],
  ['storm', 'Storm Front'],
] as const;

/** Snapshots every five minutes from `firstMs` to `lastMs` (at most DEMO_SNAPSHOTS_PER_SEASON of them). */
export function demoSnapshots(
  war: TDemoWar,
  window: { seasonId: string; firstMs: number; lastMs: number },
  seed: number,
): TPreparedSnapshot[] {
  const { companies, zones, contenders } = war;
  const next = random(seed);
  const scores = companies.map((_, index) => 40_000 + Math.round(next() * 8_000) - index * 2_500);
  const rates = companies.map(() => 20 + next() * 40);
  const influence = zones.map(
    (zone) => new Map((contenders.get(zone.id) ?? []).map((companyId) => [companyId, 200 + Math.round(next() * 600)])),
  );
  const snapshots: TPreparedSnapshot[] = [];
  let hotspots: TPreparedSnapshot['hotspots'] = [];
  for (let index = 0, at = window.firstMs; at <= window.lastMs; index++, at += SNAPSHOT_EVERY) {
    // Rates drift so the lead changes hands now and then.
    if (index % 144 === 0) for (let c = 0; c < rates.length; c++) rates[c] = 20 + next() * 40;
    for (let c = 0; c < scores.length; c++) scores[c] = scores[c]! + Math.round(rates[c]! * (0.5 + next()));
    for (const zone of influence)
      for (const [companyId, value] of zone) zone.set(companyId, Math.max(0, value + Math.round((next() - 0.48) * 40)));
    if (index % 24 === 0) {
      const endsAt = Math.floor(at / (2 * HOUR)) * 2 * HOUR + 2 * HOUR;
      const count = 1 + Math.floor(next() * 2);
      const picked = [...zones].sort(() => next() - 0.5).slice(0, count);
      hotspots = picked.map((zone) => {
        const [kind, label] = HOTSPOT_KINDS[Math.floor(next() * HOTSPOT_KINDS.length)]!;
        return { zoneId: zone.id, name: `${label} near ${zone.name}`, kind, endsAtMs: endsAt };
      });
    }
    snapshots.push({
      seasonId: window.seasonId,
      capturedAtMs: at,
      companies: companies.map((company, c) => ({ companyId: company.id, score: scores[c]! })),
      zones: zones.map((zone, z) => {
        const ranked = [...influence[z]!].sort((a, b) => b[1] - a[1]);
        // A zone is held when its leader is at least 10% ahead; otherwise it is contested.
        const held = ranked.length > 0 && (ranked.length === 1 || ranked[0]![1] >= ranked[1]![1] * 1.1);
        return {
          zoneId: zone.id,
          controllerId: held ? ranked[0]![0] : null,
          scores: Object.fromEntries(influence[z]!),
        };
      }),
      hotspots: hotspots.filter((hotspot) => hotspot.endsAtMs! > at),
    });
  }
  return snapshots;
}
