// The iCalendar feeds are built once per data version (issue 31 item 6, server/infra/cache/calendar-memo.ts): the same
// bytes on every call and both surfaces, a 304 that builds nothing, and a new feed after every kind of calendar write.
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../db/client';
import { importCalendarFile } from '../../server/domains/calendar/season-calendar';
import { setRole } from '../../server/domains/user/account';
import { calendarFeedBuilds } from '../../server/infra/cache/calendar-memo';
import { startTestServer, TEST_DRIVER, type TTestServer } from '../support/helpers';
import { batchClient } from '../support/http-clients';

interface TCtx {
  app: TTestServer;
  admin: string;
}

const Memo = suite<TCtx>('calendar iCalendar feed, built once per data version');

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

const event = (id: string, title: string) => ({
  id,
  title,
  category: 'world-event',
  startsAt: '2025-11-01T18:00:00Z',
  endsAt: '2025-11-02T06:00:00Z',
});
const FEED = '/api/calendar/events.ics?language=zh_CN&season=y2s4&eventId=';

Memo.before(async (context) => {
  context.app = await startTestServer();
  const admin = await context.app.signUp();
  await setRole({ db: context.app.database.db }, { username: admin.username, role: 'admin' });
  context.admin = admin.token;
  await context.app.trpc(admin.token).admin.war.upsertReference.mutate({ seasons: SEASONS });
  await context.app.trpc(admin.token).admin.calendar.replace.mutate({
    season: 'y2s4',
    events: [event('kraken', 'Kraken Hunt'), event('fleet', 'Ghost Fleet')],
  });
});
Memo.after(async (context) => {
  await context.app.stop();
});

const builds = (app: TTestServer) => calendarFeedBuilds(app.database.db);
const feedViaTrpc = (app: TTestServer, season: string | number) =>
  app.trpc().calendar.eventsFeed.query({ season, eventId: '' });

Memo(
  'one build per version: the same bytes on every call, every spelling of the season and both surfaces',
  async ({ app }) => {
    const before = builds(app);
    const first = await app.rest('GET', FEED);
    assert.is(first.status, 200, first.text);
    assert.is(builds(app) - before, 1);
    app.clock.advance(3_600_000);
    for (const path of [
      FEED,
      '/api/calendar/events.ics?season=gutsAndGlory',
      '/api/calendar/events.ics?season=7',
      '/api/calendar/events.ics?season=Y2S4',
    ]) {
      const again = await app.rest('GET', path);
      assert.is(again.text, first.text, `${path}: the same bytes, DTSTAMP included`);
      assert.is(again.headers.get('etag'), first.headers.get('etag'), path);
    }
    assert.is(await feedViaTrpc(app, 'y2s4'), first.text, 'native tRPC answers the same text');
    assert.is(await feedViaTrpc(app, 7), first.text);
    assert.is(builds(app) - before, 1, 'built once for all of them');
    // One event's feed is a feed of its own, built once too.
    const single = await app.rest('GET', '/api/calendar/event.ics?season=y2s4&eventId=fleet');
    assert.is(await app.trpc().calendar.eventFeed.query({ season: 'gutsAndGlory', eventId: 'fleet' }), single.text);
    assert.is(builds(app) - before, 2);
  },
);

Memo('a matching If-None-Match is a 304 that builds nothing; a stale tag gets the new feed', async ({ app, admin }) => {
  const current = await app.rest('GET', FEED);
  const etag = current.headers.get('etag')!;
  const before = builds(app);
  for (let call = 0; call < 3; call++) {
    const conditional = await app.rest('GET', FEED, { headers: { 'if-none-match': etag } });
    assert.is(conditional.status, 304);
    assert.is(conditional.text, '');
  }
  assert.is(builds(app), before, 'no build for a 304');

  await app
    .trpc(admin)
    .admin.calendar.replace.mutate({ season: 'y2s4', events: [event('kraken', 'Kraken Hunt, second week')] });
  const changed = await app.rest('GET', FEED, { headers: { 'if-none-match': etag } });
  assert.is(changed.status, 200, 'the old tag no longer matches');
  assert.is.not(changed.headers.get('etag'), etag);
  assert.match(changed.text, /SUMMARY:Kraken Hunt\\, second week/);
  assert.not.match(changed.text, /Ghost Fleet/);
  assert.is(await feedViaTrpc(app, 'y2s4'), changed.text, 'native tRPC has the new feed too');
  assert.is(builds(app), before + 1);
  const event404 = await app.rest('GET', '/api/calendar/event.ics?season=y2s4&eventId=fleet');
  assert.is(event404.status, 404, 'the removed event is gone from event.ics too');
});

Memo('an import through another connection (the CLI, another instance) is seen at once', async ({ app }) => {
  const before = await app.rest('GET', FEED);
  const other = openDatabase(app.config.DATABASE_URL, { driver: TEST_DRIVER });
  try {
    await importCalendarFile({ db: other.db }, { data: { season: 'y2s4', events: [event('armada', 'The Armada')] } });
  } finally {
    other.close();
  }
  const after = await app.rest('GET', FEED);
  assert.is.not(after.headers.get('etag'), before.headers.get('etag'));
  assert.match(after.text, /SUMMARY:The Armada/);
  assert.match(await feedViaTrpc(app, 'gutsAndGlory'), /SUMMARY:The Armada/);
});

Memo('war writes: a snapshot or a zone keeps the feed; renaming the season rebuilds it', async ({ app, admin }) => {
  const before = await app.rest('GET', FEED);
  const built = builds(app);
  await app.trpc(admin).admin.war.upsertReference.mutate({ zones: [{ id: 'red-isle', name: 'Red Isle' }] });
  const same = await app.rest('GET', FEED);
  assert.is(same.text, before.text);
  assert.is(builds(app), built, 'the season row did not change: no build');

  await app.trpc(admin).admin.war.upsertReference.mutate({ seasons: [{ ...SEASONS[1]!, name: 'Guts and Glory II' }] });
  const renamed = await app.rest('GET', FEED);
  assert.match(renamed.text, /X-WR-CALNAME:Guts and Glory II/);
  assert.is.not(renamed.headers.get('etag'), before.headers.get('etag'));
  assert.match(await feedViaTrpc(app, 7), /X-WR-CALNAME:Guts and Glory II/);
  assert.is(builds(app), built + 1);
});

Memo('concurrent calls after a write share one build: a tRPC batch, parallel REST requests', async ({ app, admin }) => {
  await app
    .trpc(admin)
    .admin.calendar.replace.mutate({ season: 'y2s4', events: [event('kraken', 'Kraken Hunt, third week')] });
  const before = builds(app);
  const { client, sent } = batchClient(app.url);
  const batched = await Promise.all(
    [0, 1, 2].map(() => client.calendar.eventsFeed.query({ season: 'y2s4', eventId: '' })),
  );
  assert.is(sent.requests, 1, 'the tRPC calls went out as one batch');
  assert.ok(batched.every((text) => text === batched[0]) && /third week/.test(batched[0]!));
  assert.is(builds(app), before + 1);

  await app
    .trpc(admin)
    .admin.calendar.replace.mutate({ season: 'y2s4', events: [event('kraken', 'Kraken Hunt, fourth week')] });
  const rest = await Promise.all([0, 1, 2].map(() => app.rest('GET', FEED)));
  assert.ok(rest.every((response) => response.text === rest[0]!.text) && /fourth week/.test(rest[0]!.text));
  assert.is(builds(app), before + 2);
});

Memo('unknown seasons and events stay 404s on both surfaces and are not remembered', async ({ app, admin }) => {
  assert.is((await app.rest('GET', '/api/calendar/events.ics?season=y9s9')).status, 404);
  assert.is((await app.rest('GET', '/api/calendar/event.ics?season=y2s4&eventId=ghost')).status, 404);
  await app.trpc(admin).admin.war.upsertReference.mutate({
    seasons: [
      {
        id: 'y9s9',
        key: 'lateSeason',
        number: 99,
        name: 'Late Season',
        startDate: '2026-03-01',
        endDate: '2026-05-01',
      },
    ],
  });
  await app.trpc(admin).admin.calendar.replace.mutate({ season: 'y2s4', events: [event('ghost', 'Ghost Ship')] });
  assert.is((await app.rest('GET', '/api/calendar/events.ics?season=y9s9')).status, 200);
  assert.match((await app.rest('GET', '/api/calendar/event.ics?season=y2s4&eventId=ghost')).text, /SUMMARY:Ghost Ship/);
  assert.match(await app.trpc().calendar.eventFeed.query({ season: 'y2s4', eventId: 'ghost' }), /SUMMARY:Ghost Ship/);
});

Memo.run();
