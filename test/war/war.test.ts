// State of war, the reference data (HTTP, both surfaces): only an admin loads seasons (community format), zones
// and companies, clashing or malformed ones are a 400, and the seasons list shows their spans, status and
// snapshot coverage. Recording snapshots and reading them: war-snapshots.test.ts; history: war-history.test.ts;
// thinning: war-retention.test.ts; the services in process: service.test.ts.
import { count } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { warZones } from '../../db/schema';
import { trpcError } from '../support/http-clients';
import { at, COMPANIES, communitySeasons, liveSeason, snapshotAt, warSuite, ZONES } from './fixtures';

const War = warSuite('state of war: reference data');

War('reference data is admin-only: 401 without a token, 403 for a user, on both surfaces', async ({ app, user }) => {
  const body = { zones: ZONES };
  assert.is((await app.rest('POST', '/api/admin/war/reference', { body })).status, 401);
  assert.is((await app.rest('POST', '/api/admin/war/reference', { body, token: user })).status, 403);
  assert.is((await trpcError(app.trpc(user).admin.war.upsertReference.mutate(body))).status, 403);
  assert.is(
    (await trpcError(app.trpc(user).admin.war.recordSnapshot.mutate(snapshotAt(at('2025-11-01T00:00:00Z'))))).status,
    403,
  );
  assert.is(
    (await app.rest('POST', '/api/admin/war/snapshots', { body: snapshotAt(at('2025-11-01T00:00:00Z')) })).status,
    401,
  );
  assert.is((await app.database.db.select({ n: count() }).from(warZones).get())!.n, 0);
});

War('an admin loads seasons (community format), zones and companies; clashes are a 400', async ({ app, admin }) => {
  const seasons = communitySeasons();
  assert.is(seasons.length, 10);
  assert.equal(seasons[7], {
    id: 'y2s4',
    key: 'gutsAndGlory',
    name: 'Guts and Glory',
    number: 7,
    startDate: '2025-10-21',
    endDate: '2026-02-10',
  });
  const loaded = await app.rest('POST', '/api/admin/war/reference', {
    token: admin,
    body: { seasons: [...seasons, liveSeason(app.clock.now().getTime())], zones: ZONES, companies: COMPANIES },
  });
  assert.is(loaded.status, 200);
  assert.equal(loaded.body.data, { seasons: 11, zones: 2, companies: 2 });
  const clash = await app.rest('POST', '/api/admin/war/reference', {
    token: admin,
    body: { seasons: [{ id: 'y9s9', number: 7, startDate: '2030-01-01', endDate: '2030-02-01' }] },
  });
  assert.is(clash.status, 400);
  assert.equal(clash.body.data.issues, [{ path: 'seasons[0].number', message: 'is already used by season y2s4' }]);
  const backwards = await trpcError(
    app.trpc(admin).admin.war.upsertReference.mutate({
      seasons: [{ id: 'y9s9', number: 99, startDate: '2030-02-01', endDate: '2030-01-01' }],
    }),
  );
  assert.is(backwards.status, 400);
  assert.match(backwards.message, /seasons\[0\]\.endDate/);
  const badDay = await app.rest('POST', '/api/admin/war/reference', {
    token: admin,
    body: { seasons: [{ id: 'y9s9', number: 99, startDate: '2030-02-30', endDate: '2030-03-01' }] },
  });
  assert.is(badDay.status, 400);
  assert.match(badDay.body.message, /startDate/);
  assert.is((await app.rest('POST', '/api/admin/war/reference', { token: admin, body: {} })).status, 400);
});

War('seasons list their spans, status and snapshot coverage', async ({ app }) => {
  const response = await app.rest('GET', '/api/stateOfWar/seasons');
  assert.is(response.status, 200);
  assert.is(response.headers.get('cache-control'), 'public, max-age=300');
  const items = response.body.data.items;
  assert.is(items.length, 11);
  const guts = items.find((item: any) => item.id === 'y2s4');
  assert.equal(guts, {
    id: 'y2s4',
    key: 'gutsAndGlory',
    name: 'Guts and Glory',
    number: 7,
    startDate: '2025-10-21',
    endDate: '2026-02-10',
    startsAt: '2025-10-21T00:00:00.000Z',
    endsAt: '2026-02-11T00:00:00.000Z',
    status: 'ended',
    snapshotCount: 0,
    firstSnapshotAt: null,
    lastSnapshotAt: null,
    current: false,
  });
  assert.is(response.body.data.currentSeasonId, 'y9s1');
  assert.is(items.find((item: any) => item.id === 'y9s1').status, 'active');
  const viaTrpc = await app.trpc().war.listSeasons.query({});
  assert.equal(
    viaTrpc.items.map((item) => item.id),
    items.map((item: any) => item.id),
  );
});

War.run();
