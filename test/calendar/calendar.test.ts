import { count } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { calendarEvents } from '../../db/schema';
import { setRole } from '../../server/domains/user/account';
import { startTestServer, type TTestServer } from '../support/helpers';
import { trpcError } from '../support/http-clients';

interface TCtx {
  app: TTestServer;
  admin: string;
  user: string;
}

const Calendar = suite<TCtx>('season calendar');

const SEASONS = [
  { id: 'y2s3', key: 'oathsOfWar', number: 6, startDate: '2025-07-15', endDate: '2025-10-21' },
  { id: 'y2s4', key: 'gutsAndGlory', number: 7, startDate: '2025-10-21', endDate: '2026-02-10' },
];

const EVENTS = [
  {
    id: 'kraken',
    title: 'World event: Kraken Hunt',
    category: 'world-event',
    startsAt: '2025-10-25T18:00:00Z',
    endsAt: '2025-10-27T06:00:00Z',
  },
  {
    id: 'maint-1',
    title: 'Maintenance',
    category: 'maintenance',
    startsAt: '2025-10-31T22:00:00Z',
    endsAt: '2025-11-01T00:00:00Z',
    description: 'Servers down',
  },
  {
    id: 'launch',
    title: 'Season launch',
    category: 'season',
    startsAt: '2025-10-21T09:00:00+02:00',
    endsAt: '2025-10-22T07:00:00Z',
    url: 'https://example.test/launch',
  },
];

Calendar.before(async (context) => {
  context.app = await startTestServer();
  const admin = await context.app.signUp();
  await setRole({ db: context.app.database.db }, { username: admin.username, role: 'admin' });
  context.admin = admin.token;
  context.user = (await context.app.signUp()).token;
  await context.app.trpc(context.admin).admin.war.upsertReference.mutate({ seasons: SEASONS });
});
Calendar.after(async (context) => {
  await context.app.stop();
});

const eventCount = async (app: TTestServer) =>
  (await app.database.db.select({ n: count() }).from(calendarEvents).get())!.n;

Calendar('season is required (400) and must exist (404), on both surfaces', async ({ app }) => {
  const missing = await app.rest('GET', '/api/calendar/data');
  assert.is(missing.status, 400);
  assert.equal(missing.body.data.issues, [{ path: 'season', message: 'is required' }]);
  assert.is((await app.rest('GET', '/api/calendar/data?season=')).status, 400);
  assert.is((await trpcError(app.trpc().calendar.getData.query({} as never))).status, 400);
  const unknown = await app.rest('GET', '/api/calendar/data?season=y9s9');
  assert.is(unknown.status, 404);
  assert.match(unknown.body.message, /y9s9/);
  assert.is((await trpcError(app.trpc().calendar.getData.query({ season: 'nowhere' }))).status, 404);
  // Unknown query fields are refused, naming the key, on both surfaces.
  const extra = await app.rest('GET', '/api/calendar/data?season=y2s4&lang=en');
  assert.is(extra.status, 400);
  assert.match(extra.body.message, /Unrecognized key: "lang"/);
  assert.is((await trpcError(app.trpc().calendar.getData.query({ season: 'y2s4', lang: 'en' } as never))).status, 400);
});

Calendar('replacing a calendar is admin-only', async ({ app, user }) => {
  const body = { events: EVENTS };
  assert.is((await app.rest('PUT', '/api/admin/calendar/y2s4', { body })).status, 401);
  assert.is((await app.rest('PUT', '/api/admin/calendar/y2s4', { body, token: user })).status, 403);
  assert.is(
    (await trpcError(app.trpc(user).admin.calendar.replace.mutate({ season: 'y2s4', events: EVENTS }))).status,
    403,
  );
  assert.is(await eventCount(app), 0);
});

Calendar(
  'an admin replaces the calendar; data has the events keyed by id with occurrences and duration',
  async ({ app, admin }) => {
    const replaced = await app.rest('PUT', '/api/admin/calendar/y2s4', { token: admin, body: { events: EVENTS } });
    assert.is(replaced.status, 200);
    assert.equal(replaced.body.data, { seasonId: 'y2s4', events: 3 });

    const response = await app.rest('GET', '/api/calendar/data?season=y2s4');
    assert.is(response.status, 200);
    assert.is(response.headers.get('cache-control'), 'public, max-age=300');
    const data = response.body.data;
    assert.is(data.season.id, 'y2s4');
    assert.equal(Object.keys(data.events), ['launch', 'kraken', 'maint-1'], 'keyed by id, ordered by start');
    assert.equal(data.events.launch, {
      id: 'launch',
      name: 'Season launch',
      description: '',
      duration: 2,
      occurrences: [{ year: 2025, month: 10, day: 21 }],
      droppeds: {},
      category: 'season',
      url: 'https://example.test/launch',
      startsAt: '2025-10-21T07:00:00.000Z',
      endsAt: '2025-10-22T07:00:00.000Z',
      status: 'ended',
    });
    assert.equal(data.events.kraken.occurrences, [{ year: 2025, month: 10, day: 25 }]);
    assert.is(data.events.kraken.duration, 3, 'the 25th to the 27th');
    // Ends exactly at midnight: it runs on the 31st only, not on 1 November.
    assert.equal(data.events['maint-1'].occurrences, [{ year: 2025, month: 10, day: 31 }]);
    assert.is(data.events['maint-1'].duration, 1);
    assert.is(data.timeline, undefined, 'the day-by-day timeline is replaced by occurrences and duration');

    const byNumber = await app.trpc().calendar.getData.query({ season: '7' });
    assert.equal(byNumber, data);
    assert.equal((await app.rest('GET', '/api/calendar/data?season=gutsAndGlory')).body.data, data);
  },
);

Calendar('a replacement removes events not in the new list; other seasons are untouched', async ({ app, admin }) => {
  await app.trpc(admin).admin.calendar.replace.mutate({
    season: 'y2s3',
    events: [
      {
        id: 'oath',
        title: 'Oath Week',
        category: 'event',
        startsAt: '2025-08-01T00:00:00Z',
        endsAt: '2025-08-08T00:00:00Z',
      },
    ],
  });
  await app.trpc(admin).admin.calendar.replace.mutate({ season: 'gutsAndGlory', events: [EVENTS[1]!] });
  const data = await app.trpc().calendar.getData.query({ season: 'y2s4' });
  assert.equal(Object.keys(data.events), ['maint-1']);
  assert.is(data.events['maint-1']!.description, 'Servers down');
  assert.equal(Object.keys((await app.trpc().calendar.getData.query({ season: 'y2s3' })).events), ['oath']);
  assert.is(await eventCount(app), 2);
});

Calendar('invalid calendars are a 400 and leave the stored calendar as it was', async ({ app, admin }) => {
  const cases: [string, unknown[], RegExp][] = [
    [
      'outside the season',
      [{ ...EVENTS[0], startsAt: '2026-03-01T00:00:00Z', endsAt: '2026-03-02T00:00:00Z' }],
      /events\[0\]: does not overlap season y2s4/,
    ],
    ['backwards', [{ ...EVENTS[0], endsAt: '2025-10-20T00:00:00Z' }], /events\[0\]\.endsAt/],
    ['duplicate id', [EVENTS[0], EVENTS[0]], /events\[1\]\.id/],
    ['bad category', [{ ...EVENTS[0], category: 'World Event!' }], /events\[0\]\.category/],
    ['bad url', [{ ...EVENTS[0], url: 'javascript:alert(1)' }], /events\[0\]\.url/],
  ];
  for (const [name, events, message] of cases) {
    const response = await app.rest('PUT', '/api/admin/calendar/y2s4', { token: admin, body: { events } });
    assert.is(response.status, 400, name);
    assert.match(response.body.message, message, `${name}: ${response.body.message}`);
  }
  assert.is((await app.rest('PUT', '/api/admin/calendar/y9s9', { token: admin, body: { events: [] } })).status, 404);
  assert.equal(Object.keys((await app.trpc().calendar.getData.query({ season: 'y2s4' })).events), ['maint-1']);
});

Calendar('calendar data has an ETag and answers 304', async ({ app }) => {
  const first = await app.rest('GET', '/api/calendar/data?season=y2s4');
  const etag = first.headers.get('etag');
  assert.ok(etag);
  const second = await fetch(`${app.url}/api/calendar/data?season=y2s4`, { headers: { 'if-none-match': etag! } });
  assert.is(second.status, 304);
});

Calendar.run();
