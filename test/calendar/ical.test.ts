import ICAL from 'ical.js';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { feedEtag } from '../../server/domains/calendar/ical-feed';
import { setRole } from '../../server/domains/user/account';
import { startTestServer, type TTestServer } from '../support/helpers';
import { trpcError } from '../support/http-clients';
import { resolveRef } from '../support/openapi-operations';

/** The calendar as an iCalendar feed (issue 19 item 5): the web client's links, parsed back with ical.js. */

interface TCtx {
  app: TTestServer;
}

const Feed = suite<TCtx>('calendar iCalendar feed');

const SEASONS = [
  { id: 'y2s3', key: 'oathsOfWar', number: 6, name: 'Oaths of War', startDate: '2025-07-15', endDate: '2025-10-21' },
  {
    id: 'y2s4',
    key: 'gutsAndGlory',
    number: 7,
    name: 'Guts and Glory',
    startDate: '2025-10-21',
    endDate: '2026-02-10',
  },
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
    title: 'Maintenance; servers, all of them',
    category: 'maintenance',
    startsAt: '2025-10-31T22:00:00Z',
    endsAt: '2025-11-01T00:00:00Z',
    description: 'Servers down.\nBack by midnight, hopefully; 维护 ✓ \\ done',
  },
  {
    id: 'launch',
    title: 'Season launch',
    category: 'season',
    startsAt: '2025-10-21T09:00:00+02:00',
    endsAt: '2025-10-22T07:00:00Z',
    url: 'https://example.test/launch?a=1&b=2',
  },
];

/** The client's links (GlowProw/website src/views/calendar/History.vue, openICSFile). */
const seasonLink = (season: string) =>
  `/api/calendar/events.ics?${new URLSearchParams({ language: 'zh_CN', season, eventId: '' })}`;
const eventLink = (season: string, eventId: string) =>
  `/api/calendar/event.ics?${new URLSearchParams({ language: 'zh_CN', season, eventId })}`;

Feed.before(async (context) => {
  context.app = await startTestServer();
  const admin = await context.app.signUp();
  await setRole({ db: context.app.database.db }, { username: admin.username, role: 'admin' });
  await context.app.trpc(admin.token).admin.war.upsertReference.mutate({ seasons: SEASONS });
  const replaced = await context.app.rest('PUT', '/api/admin/calendar/y2s4', {
    token: admin.token,
    body: { events: EVENTS },
  });
  assert.is(replaced.status, 200, replaced.text);
});
Feed.after(async (context) => {
  await context.app.stop();
});

function parse(text: string): ICAL.Component {
  return new ICAL.Component(ICAL.parse(text));
}

function eventsOf(calendar: ICAL.Component): Record<string, ICAL.Event> {
  return Object.fromEntries(
    calendar.getAllSubcomponents('vevent').map((component) => {
      const event = new ICAL.Event(component);
      return [event.uid, event];
    }),
  );
}

function assertEvent(event: ICAL.Event | undefined, expected: (typeof EVENTS)[number]): void {
  assert.ok(event, `${expected.id} is in the feed`);
  assert.is(event.uid, `${expected.id}@y2s4.tidewatch`);
  assert.is(event.summary, expected.title);
  assert.is(event.startDate.isDate, false, 'timed, at its UTC instant');
  assert.is(event.startDate.toJSDate().toISOString(), new Date(expected.startsAt).toISOString());
  assert.is(event.endDate.toJSDate().toISOString(), new Date(expected.endsAt).toISOString());
  assert.is(event.description, expected.description ?? null);
  assert.is(event.component.getFirstPropertyValue('url'), expected.url ?? null);
  assert.is(event.component.getFirstPropertyValue('categories'), expected.category);
  assert.ok(event.component.getFirstPropertyValue('dtstamp'), 'DTSTAMP');
}

Feed(
  "the season's feed: text/calendar, every event with a stable UID, summary, start, end, description",
  async ({ app }) => {
    const response = await app.rest('GET', seasonLink('y2s4'));
    assert.is(response.status, 200, response.text);
    assert.is(response.headers.get('content-type'), 'text/calendar; charset=utf-8');
    assert.is(response.body, undefined, 'not the JSON envelope');
    assert.ok(response.text.startsWith('BEGIN:VCALENDAR\r\n'));
    assert.is(response.headers.get('cache-control'), 'public, max-age=300');
    assert.match(response.headers.get('etag') ?? '', /^W\/"/);
    assert.ok(response.headers.get('ratelimit-remaining'), 'under the global rate limit');

    const calendar = parse(response.text);
    assert.is(calendar.getFirstPropertyValue('version'), '2.0');
    assert.is(calendar.getFirstPropertyValue('x-wr-calname'), 'Guts and Glory');
    assert.is(calendar.getFirstPropertyValue('name'), 'Guts and Glory');
    assert.is(String(calendar.getFirstPropertyValue('refresh-interval')), 'PT1H');
    assert.is(String(calendar.getFirstPropertyValue('x-published-ttl')), 'PT1H');
    const events = eventsOf(calendar);
    assert.equal(
      Object.keys(events),
      ['launch@y2s4.tidewatch', 'kraken@y2s4.tidewatch', 'maint-1@y2s4.tidewatch'],
      'in order of start',
    );
    for (const expected of EVENTS) assertEvent(events[`${expected.id}@y2s4.tidewatch`], expected);

    // The same season by key or number gives the same events; another season's calendar is empty.
    const byKey = parse((await app.rest('GET', '/api/calendar/events.ics?season=gutsAndGlory')).text);
    assert.equal(Object.keys(eventsOf(byKey)), Object.keys(events));
    const other = await app.rest('GET', seasonLink('6'));
    assert.is(other.status, 200);
    assert.is(parse(other.text).getFirstPropertyValue('x-wr-calname'), 'Oaths of War');
    assert.equal(parse(other.text).getAllSubcomponents('vevent'), []);
  },
);

Feed('one event: event.ics has that event only, with the same UID as in the season feed', async ({ app }) => {
  const response = await app.rest('GET', eventLink('y2s4', 'maint-1'));
  assert.is(response.status, 200, response.text);
  assert.is(response.headers.get('content-type'), 'text/calendar; charset=utf-8');
  const calendar = parse(response.text);
  assert.is(calendar.getFirstPropertyValue('x-wr-calname'), 'Guts and Glory: Maintenance; servers, all of them');
  const events = eventsOf(calendar);
  assert.equal(Object.keys(events), ['maint-1@y2s4.tidewatch']);
  assertEvent(events['maint-1@y2s4.tidewatch'], EVENTS[1]!);
});

Feed(
  'revalidation: the ETag gives a 304, later too (the feed keeps its bytes, DTSTAMP too); HEAD has the content type',
  async ({ app }) => {
    const first = await app.rest('GET', seasonLink('y2s4'));
    const etag = first.headers.get('etag')!;
    app.clock.advance(90_000);
    const later = await app.rest('GET', seasonLink('y2s4'));
    assert.is(later.headers.get('etag'), etag);
    assert.is(later.text, first.text, 'DTSTAMP is the time of the build, not of the answer');
    // The tag leaves DTSTAMP out: another instance, which built the same feed at another time, gives the same one.
    assert.is(etag, feedEtag(first.text.replace(/^DTSTAMP:.*$/gm, 'DTSTAMP:20000101T000000Z')));
    const conditional = await app.rest('GET', seasonLink('y2s4'), { headers: { 'if-none-match': etag } });
    assert.is(conditional.status, 304);
    assert.is(conditional.text, '');
    assert.is(conditional.headers.get('etag'), etag);
    const single = await app.rest('GET', eventLink('y2s4', 'kraken'));
    assert.is(
      (
        await app.rest('GET', eventLink('y2s4', 'kraken'), {
          headers: { 'if-none-match': single.headers.get('etag')! },
        })
      ).status,
      304,
    );
    assert.is(
      (
        await app.rest('GET', eventLink('y2s4', 'launch'), {
          headers: { 'if-none-match': single.headers.get('etag')! },
        })
      ).status,
      200,
    );
    const head = await app.rest('HEAD', seasonLink('y2s4'));
    assert.is(head.status, 200);
    assert.is(head.headers.get('content-type'), 'text/calendar; charset=utf-8');
    assert.is(head.text, '');
  },
);

Feed('errors stay JSON envelopes: unknown season or event 404, bad query 400', async ({ app }) => {
  const cases: [string, number, RegExp][] = [
    [seasonLink('y9s9'), 404, /Unknown season "y9s9"/],
    [eventLink('y9s9', 'kraken'), 404, /Unknown season "y9s9"/],
    [eventLink('y2s4', 'nowhere'), 404, /Season y2s4 has no event "nowhere"/],
    [eventLink('y2s3', 'kraken'), 404, /Season y2s3 has no event "kraken"/],
    ['/api/calendar/events.ics?season=y2s4&lang=en', 400, /Unrecognized key: "lang"/],
    ['/api/calendar/event.ics?season=y2s4&eventId=kraken&format=json', 400, /Unrecognized key: "format"/],
    ['/api/calendar/events.ics', 400, /season/],
    ['/api/calendar/events.ics?season=y2s4&eventId=kraken', 400, /eventId: must be empty here/],
    ['/api/calendar/event.ics?season=y2s4&eventId=', 400, /eventId/],
    ['/api/calendar/event.ics?season=y2s4', 400, /eventId/],
    ['/api/calendar/events.ics?season=y2s4&language=%3Cscript%3E', 400, /language: must be a locale tag/],
    ['/api/calendar/events.ics?season=y2s4&season=y2s3', 400, /season/],
  ];
  for (const [path, status, message] of cases) {
    const response = await app.rest('GET', path);
    assert.is(response.status, status, `${path}: ${response.text}`);
    assert.is(response.headers.get('content-type'), 'application/json; charset=utf-8', path);
    assert.is(response.body.code, status, path);
    assert.match(response.body.message, message, path);
  }
  // `language` is accepted, and picks nothing: the events exist in the language they were imported in.
  const english = await app.rest('GET', '/api/calendar/events.ics?season=y2s4&language=en');
  assert.is(english.status, 200);
  assert.is(english.headers.get('etag'), (await app.rest('GET', seasonLink('y2s4'))).headers.get('etag'));
});

Feed('native tRPC: the same procedures answer the iCalendar text as a string, errors alike', async ({ app }) => {
  const text = await app.trpc().calendar.eventsFeed.query({ season: 'y2s4', language: 'zh_CN', eventId: '' });
  assert.equal(Object.keys(eventsOf(parse(text))), [
    'launch@y2s4.tidewatch',
    'kraken@y2s4.tidewatch',
    'maint-1@y2s4.tidewatch',
  ]);
  const one = await app.trpc().calendar.eventFeed.query({ season: 'y2s4', eventId: 'kraken' });
  assertEvent(eventsOf(parse(one))['kraken@y2s4.tidewatch'], EVENTS[0]!);
  assert.is((await trpcError(app.trpc().calendar.eventFeed.query({ season: 'y2s4', eventId: 'nowhere' }))).status, 404);
  assert.is(
    (await trpcError(app.trpc().calendar.eventsFeed.query({ season: 'y2s4', lang: 'en' } as never))).status,
    400,
  );
});

Feed('OpenAPI documents both paths with text/calendar answers and envelope errors', async ({ app }) => {
  const document = (await app.rest('GET', '/api/openapi.json')).body as any;
  for (const path of ['/calendar/events.ics', '/calendar/event.ics']) {
    const operation = document.paths[path]?.get;
    assert.ok(operation, path);
    assert.equal(Object.keys(operation.responses['200'].content), ['text/calendar'], path);
    assert.is(operation.responses['200'].content['text/calendar'].schema.type, 'string');
    assert.is(
      resolveRef(document, operation.responses['404']).content['application/json'].schema.$ref,
      '#/components/schemas/ErrorEnvelope',
    );
    assert.equal(operation.parameters.map((p: { name: string }) => p.name).sort(), ['eventId', 'language', 'season']);
  }
});

Feed.run();
