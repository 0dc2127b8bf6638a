// War test data shared by the HTTP suites (war*.test.ts) and the in-process one (service.test.ts).
import { readFileSync } from 'node:fs';
import { setRole } from '../../server/domains/user/account';
import type { TSnapshotInput } from '../../server/domains/war/schemas';
import { seasonsFromCommunityFormat } from '../../server/domains/war/seasons';
import { recordSnapshots } from '../../server/domains/war/snapshots';
import type { TTestServer } from '../support/helpers';
import { serverSuite } from '../support/server-suite';
export const MINUTE = 60_000;
export const DAY = 86_400_000;
export const iso = (ms: number) => new Date(ms).toISOString();
export const at = (text: string) => Date.parse(text);

export const ZONES = [
  { id: 'red-isle', name: 'Red Isle' },
  { id: 'open-ocean', name: 'Open Ocean' },
];
export const COMPANIES = [
  { id: 'crimson', name: 'Crimson Reef', color: '#c0392b' },
  { id: 'sable', name: 'Sable Tide', color: '#34495e' },
];

/** Test data for y2s4 (gutsAndGlory, 2025-10-21..2026-02-10): crimson's score is the minute of the day (x.5 on :30 s). */
export function snapshotAt(ms: number, season = 'y2s4'): TSnapshotInput {
  const minuteOfDay = (ms - at('2025-11-17T00:00:00Z')) / MINUTE;
  return {
    season,
    capturedAt: iso(ms),
    companies: [
      { companyId: 'crimson', score: minuteOfDay },
      { companyId: 'sable', score: 1000 },
    ],
    zones: [
      { zoneId: 'red-isle', controlledBy: 'crimson', scores: { crimson: 10, sable: 5 } },
      { zoneId: 'open-ocean', controlledBy: null, scores: {} },
    ],
    hotspots: [],
  };
}

/**
 * The bucketing fixture (hand-computed expectations in war-snapshots, war-history and war-retention.test.ts):
 * - sparse: every 30 min from 2025-11-09T00:00Z to 2025-11-17T10:00Z (405 snapshots);
 * - dense: every minute at :30 s from 08:30:30 to 10:07:30 on 2025-11-17, except 09:45:30 (97).
 * Last snapshot: 2025-11-17T10:07:30Z.
 */
export function bucketingFixture(): TSnapshotInput[] {
  const times: number[] = [];
  for (let t = at('2025-11-09T00:00:00Z'); t <= at('2025-11-17T10:00:00Z'); t += 30 * MINUTE) times.push(t);
  for (let t = at('2025-11-17T08:30:30Z'); t <= at('2025-11-17T10:07:30Z'); t += MINUTE) {
    if (t !== at('2025-11-17T09:45:30Z')) times.push(t);
  }
  return times.map((t) => snapshotAt(t));
}

/** The ten seasons of test/fixtures/seasons.json (the community format). */
export const communitySeasons = () =>
  seasonsFromCommunityFormat(JSON.parse(readFileSync(new URL('../fixtures/seasons.json', import.meta.url), 'utf8')));

/** A season running now, so /latest has a current season. */
export function liveSeason(now: number) {
  const day = (offset: number) => iso(Math.floor(now / DAY) * DAY + offset * DAY).slice(0, 10);
  return { id: 'y9s1', key: 'liveWaters', name: 'Live Waters', number: 90, startDate: day(-10), endDate: day(10) };
}

/** The live season's newest snapshot, 5 minutes before `now` (a whole minute): sable holds both zones, a convoy is on. */
export function liveSnapshot(now: number): TSnapshotInput {
  return {
    season: 'liveWaters',
    capturedAt: iso(now - 5 * MINUTE),
    companies: [
      { companyId: 'crimson', score: 1200 },
      { companyId: 'sable', score: 1500.5 },
    ],
    zones: [
      { zoneId: 'red-isle', controlledBy: 'sable', scores: { crimson: 10, sable: 30 } },
      { zoneId: 'open-ocean', controlledBy: 'sable', scores: { sable: 7 } },
    ],
    hotspots: [{ zoneId: 'open-ocean', name: 'Treasure Convoy', kind: 'convoy', endsAt: iso(now + 60 * MINUTE) }],
  };
}

export interface TWarContext {
  app: TTestServer;
  /** The admin's token. */
  admin: string;
  /** A plain user's token. */
  user: string;
}

/**
 * A suite of the war routes' tests (HTTP, both surfaces): a test server with an admin and a user, holding `state`:
 * - 'empty': no war data (war.test.ts loads the reference data itself);
 * - 'reference': the community seasons and a live one (y9s1, the current season), the zones and the companies;
 * - 'snapshots': that, the live season's two snapshots (10 and 5 minutes ago) and the bucketing fixture of y2s4.
 */
export function warSuite(name: string, state: 'empty' | 'reference' | 'snapshots' = 'empty') {
  return serverSuite<Omit<TWarContext, 'app'>>(name, {
    setUp: async (context) => {
      const { app } = context;
      const admin = await app.signUp();
      await setRole({ db: app.database.db }, { username: admin.username, role: 'admin' });
      context.admin = admin.token;
      context.user = (await app.signUp()).token;
      if (state === 'empty') return;
      const loaded = await app.rest('POST', '/api/admin/war/reference', {
        token: context.admin,
        body: {
          seasons: [...communitySeasons(), liveSeason(app.clock.now().getTime())],
          zones: ZONES,
          companies: COMPANIES,
        },
      });
      if (loaded.status !== 200) throw new Error(`loading the war reference data failed: ${loaded.text}`);
      if (state === 'reference') return;
      const now = Math.floor(app.clock.now().getTime() / MINUTE) * MINUTE;
      await recordSnapshots(
        { db: app.database.db, now: app.clock.now },
        { snapshots: [snapshotAt(now - 10 * MINUTE, 'y9s1'), liveSnapshot(now), ...bucketingFixture()] },
      );
    },
  });
}
