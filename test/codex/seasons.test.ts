// Seasons keyed by the community data set's ids (issue 34): the key the web client sends (`shatteredSeas`)
// names a season wherever one is named, its alternativeName (`y3s2`, any case) and its number still do,
// on REST and native tRPC: stateOfWar/season/{season}, stateOfWar/history?season=, calendar/data?season=
// and the iCalendar feed.
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { suite } from '../support/suite';
import { importCarriedData } from './fixtures';

const Seasons = suite<{ app: TTestServer }>('seasons named by the data set id, its alternativeName or its number');
Seasons.before(async (context) => {
  context.app = await startTestServer();
  await importCarriedData(context.app);
});
Seasons.after(async ({ app }) => app.stop());

const SPELLINGS = ['shatteredSeas', 'y3s2', 'Y3S2', '9'];

Seasons('every endpoint that names a season takes each spelling, alike on both surfaces', async ({ app }) => {
  for (const season of SPELLINGS) {
    const state = await app.rest('GET', `/api/stateOfWar/season/${season}`);
    assert.is(state.status, 200, `${season}: ${state.text}`);
    assert.equal([state.body.data.season.id, state.body.data.season.key], ['y3s2', 'shatteredSeas'], season);
    assert.equal(await app.trpc().war.getSeason.query({ season }), state.body.data);
    const history = await app.rest('GET', `/api/stateOfWar/history?season=${season}&range=1h`);
    assert.equal([history.status, history.body.data.season.key], [200, 'shatteredSeas'], season);
    assert.equal(await app.trpc().war.getHistory.query({ season, range: '1h' }), history.body.data);
    const calendar = await app.rest('GET', `/api/calendar/data?season=${season}`);
    assert.equal(
      [calendar.status, calendar.body.data.season.key, calendar.body.data.season.name],
      [200, 'shatteredSeas', 'Shattered Seas'],
    );
    assert.equal(await app.trpc().calendar.getData.query({ season }), calendar.body.data);
    const feed = await app.rest('GET', `/api/calendar/events.ics?season=${season}`);
    assert.is(feed.status, 200, season);
    assert.match(feed.text, /^BEGIN:VCALENDAR\r\n/);
    const stamped = (text: string) => text.replace(/^DTSTAMP:.*\r\n/gm, '');
    assert.is(stamped(await app.trpc().calendar.eventsFeed.query({ season })), stamped(feed.text));
  }
  const seasons = (await app.rest('GET', '/api/stateOfWar/seasons')).body.data.items;
  assert.equal(
    seasons.map((season: any) => season.key),
    [
      'release',
      'ragingTides',
      'chorusOfHavoc',
      'intoTheDragonsWake',
      'shadowsOfTheDeep',
      'ascentIntoChaos',
      'oathsOfWar',
      'gutsAndGlory',
      'eyeOfTheBeast',
      'shatteredSeas',
    ],
  );
  for (const unknown of ['burningStraits', 'y9s9', '42']) {
    assert.is((await app.rest('GET', `/api/calendar/data?season=${unknown}`)).status, 404, unknown);
    assert.is((await app.rest('GET', `/api/stateOfWar/season/${unknown}`)).status, 404, unknown);
  }
});

Seasons.run();
