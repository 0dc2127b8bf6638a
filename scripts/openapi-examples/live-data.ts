// The examples of the live data's operations: drops, the state of war, the calendar, and the admin's imports.
import { readDemoCatalog } from '../../server/seed/assemblies';
import { readCommunityData } from '../../server/infra/packaged-files';
import { demoCampaigns, demoWar } from '../../server/seed/live-data';
import type { TTestServer } from '../../test/support/helpers';
import type { Recorder, TJson } from './recorder';

/** Drop campaigns, seasons, war state and history, the calendar and its feeds; the admin's writes of each, a catalog import and the community data set's. */
export async function recordLiveData(r: Recorder, app: TTestServer, admin: string) {
  const war = demoWar(readCommunityData());
  const drops = await r.call('GET /drop/history', {
    parameters: { page: 1, pageSize: 2, status: 'active', keyword: 'straits' },
  });
  await r.call('GET /drop/current', { parameters: { refresh: false } });
  await r.call('GET /drop/{id}', { parameters: { id: drops.data[0].id } });
  const seasons = await r.call('GET /stateOfWar/seasons');
  const current = seasons.items.find((item: TJson) => item.status === 'active') ?? seasons.items[0];
  const season = current.id as string;
  await r.call('GET /stateOfWar/latest');
  await r.call('GET /stateOfWar/season/{season}', { parameters: { season } });
  await r.call('GET /stateOfWar/history', { parameters: { range: '1d', season } });
  await r.call('POST /admin/drop/campaigns', {
    token: admin,
    body: { campaigns: demoCampaigns(app.clock.now()).slice(0, 1) },
  });
  // The demo has no calendar: the admin writes one event first.
  const opening = Date.parse(current.startsAt) + 2 * 86_400_000;
  const kraken = {
    id: 'kraken',
    title: 'World event: Kraken Hunt',
    category: 'world-event',
    startsAt: new Date(opening + 18 * 3_600_000).toISOString(),
    endsAt: new Date(opening + 54 * 3_600_000).toISOString(),
  };
  await r.call('PUT /admin/calendar/{season}', { token: admin, parameters: { season }, body: { events: [kraken] } });
  await r.call('GET /calendar/data', { parameters: { season } });
  await r.call('GET /calendar/events.ics', { parameters: { season, language: 'en', eventId: '' }, raw: true });
  await r.call('GET /calendar/event.ics', { parameters: { season, language: 'en', eventId: kraken.id }, raw: true });
  await r.call('POST /admin/war/snapshots', {
    token: admin,
    body: {
      season,
      capturedAt: app.clock.now().toISOString(),
      companies: war.companies.slice(0, 2).map((company, index) => ({
        companyId: company.id,
        score: 125_000 - index * 20_000,
      })),
    },
  });
  await r.call('POST /admin/war/reference', {
    token: admin,
    body: { companies: war.companies.slice(0, 1), zones: war.zones.slice(0, 1) },
  });
  await r.call('POST /admin/war/thin', { token: admin, body: { olderThanDays: 30 } });
  const catalog = readDemoCatalog() as { ships: TJson; items: TJson };
  const [shipId, ship] = Object.entries(catalog.ships)[0]!;
  const [itemId, item] = Object.entries(catalog.items)[0]!;
  await r.call('POST /admin/catalog/import', {
    token: admin,
    body: { ships: { [shipId]: ship }, items: { [itemId]: item } },
  });
  // The demo seed imported all but the catalog: the full catalog is added, the rest is unchanged.
  await r.call('POST /admin/community-data/import', { token: admin });
}
