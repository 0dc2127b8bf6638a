// Calendar service logic called in process (no HTTP): occurrences and durations at the edges of a season, event
// statuses at the clock's time, the overlap rule, and import files (all or nothing, their messages).
// test/calendar/calendar.test.ts covers the routes on both surfaces (status codes, headers, access rules).
import { count } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { calendarEvents } from '../../db/schema';
import { importCalendarFile } from '../../server/domains/calendar/season-calendar';
import { startInProcess, type TCaller, type TInProcessApp } from '../support/caller';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const isoDay = (ms: number) => iso(ms).slice(0, 10);

interface TCtx {
  app: TInProcessApp;
  admin: TCaller;
  /** Midnight (UTC) of the clock's day; the live season runs from 3 days before to 3 days after it. */
  today: number;
}

const Calendar = suite<TCtx>('calendar services (in process)');

Calendar.before(async (context) => {
  context.app = await startInProcess();
  context.admin = (await context.app.signUp({ role: 'admin' })).caller;
  const today = Math.floor(context.app.clock.now().getTime() / DAY) * DAY;
  context.today = today;
  await context.admin.admin.war.upsertReference({
    seasons: [
      { id: 'y2s3', key: 'oathsOfWar', number: 6, startDate: '2025-07-15', endDate: '2025-10-20' },
      {
        id: 'y9s1',
        key: 'liveWaters',
        number: 90,
        startDate: isoDay(today - 3 * DAY),
        endDate: isoDay(today + 3 * DAY),
      },
    ],
  });
});
Calendar.after(({ app }) => {
  app.close();
});

const event = (id: string, startsAt: number, endsAt: number) => ({
  id,
  title: `Event ${id}`,
  category: 'world-event',
  startsAt: iso(startsAt),
  endsAt: iso(endsAt),
});
const eventCount = async (app: TInProcessApp) =>
  (await app.database.db.select({ n: count() }).from(calendarEvents).get())!.n;

Calendar(
  'events reaching past the season show on its days only; statuses follow the clock',
  async ({ app, admin, today }) => {
    const seasonStart = today - 3 * DAY;
    const seasonEnd = today + 4 * DAY;
    await admin.admin.calendar.replace({
      season: 'liveWaters',
      events: [
        event('before', seasonStart - 2 * DAY, seasonStart + 12 * HOUR),
        event('after', seasonEnd - HOUR, seasonEnd + 5 * DAY),
        event('now', today, today + DAY),
        event('later', today + DAY, today + DAY + HOUR),
      ],
    });
    const calendar = await app.anonymous.calendar.getData({ season: 90 });
    const events = Object.values(calendar.events);
    assert.equal(Object.keys(calendar.events), ['before', 'now', 'later', 'after'], 'keyed by id, in order of start');
    assert.equal(
      events.map((entry) => [entry.id, entry.status]),
      [
        ['before', 'ended'],
        ['now', 'active'],
        ['later', 'upcoming'],
        ['after', 'upcoming'],
      ],
    );
    assert.is(calendar.season.status, 'active');
    // Each event starts on its own UTC day, even before the season; duration counts the UTC days it runs on.
    const start = (ms: number) => ({
      year: new Date(ms).getUTCFullYear(),
      month: new Date(ms).getUTCMonth() + 1,
      day: new Date(ms).getUTCDate(),
    });
    assert.equal(calendar.events.before!.occurrences, [start(seasonStart - 2 * DAY)]);
    assert.is(calendar.events.before!.duration, 3);
    assert.equal(calendar.events.after!.occurrences, [start(seasonEnd - DAY)]);
    assert.is(calendar.events.after!.duration, 6);
    // The clock's whole day: starts at its first midnight and ends at the next one, so it runs on one day.
    assert.equal(calendar.events.now!.occurrences, [start(today)]);
    assert.is(calendar.events.now!.duration, 1);
    assert.is(calendar.events.later!.duration, 1);
    assert.equal(calendar.events.now!.droppeds, {});

    app.clock.advance(2 * DAY);
    try {
      const later = await app.anonymous.calendar.getData({ season: 'y9s1' });
      assert.equal(
        Object.values(later.events).map((entry) => entry.status),
        ['ended', 'ended', 'ended', 'upcoming'],
      );
    } finally {
      app.clock.advance(-2 * DAY);
    }
  },
);

Calendar(
  'events that miss the season are refused, every one of them listed, and nothing changes',
  async ({ app, admin, today }) => {
    const before = await eventCount(app);
    const seasonStart = today - 3 * DAY;
    try {
      await admin.admin.calendar.replace({
        season: 'y9s1',
        events: [
          event('ok', today, today + HOUR),
          event('early', seasonStart - DAY, seasonStart),
          event('late', today + 4 * DAY, today + 5 * DAY),
        ],
      });
      assert.unreachable('the replacement should fail');
    } catch (error) {
      const range = `${isoDay(seasonStart)} to ${isoDay(today + 3 * DAY)}`;
      assert.is(
        (error as Error).message,
        `Invalid input: events[1]: does not overlap season y9s1 (${range}) (and 1 more)`,
      );
      assert.equal((error as { issues?: unknown }).issues, [
        { path: 'events[1]', message: `does not overlap season y9s1 (${range})` },
        { path: 'events[2]', message: `does not overlap season y9s1 (${range})` },
      ]);
    }
    assert.is(await eventCount(app), before);
  },
);

Calendar(
  'an import file with one bad calendar writes none of them; problems are listed one per line',
  async ({ app, today }) => {
    const deps = { db: app.database.db };
    await importCalendarFile(deps, {
      data: {
        season: 'y2s3',
        events: [event('oath', Date.parse('2025-08-01T00:00:00Z'), Date.parse('2025-08-08T00:00:00Z'))],
      },
    });
    const before = await eventCount(app);
    const message = async (data: unknown) => {
      try {
        await importCalendarFile(deps, { data });
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('expected the import to fail');
    };
    assert.match(
      await message([
        { season: 'y2s3', events: [] },
        { season: 'y9s1', events: [event('far', today + 30 * DAY, today + 31 * DAY)] },
      ]),
      /^Invalid data \(1 problem\):\n {2}events\[0\]: does not overlap season y9s1/,
    );
    assert.is(await eventCount(app), before, 'y2s3 was not cleared');
    assert.is(await message([]), 'Invalid data (1 problem):\n  (root): must list at least one calendar');
    assert.is(
      await message({ season: 'y2s3', events: [], extra: 1 }),
      'Invalid data (1 problem):\n  (root): Unrecognized key: "extra"',
    );
    assert.is(
      await message({ season: 'y2s3', events: [event('dup', 0, 1), event('dup', 0, 1)] }),
      'Invalid data (1 problem):\n  events[1].id: duplicates events[0]',
    );
    const imported = await importCalendarFile(deps, { data: { season: 'y2s3', events: [] } });
    assert.equal(imported, [{ seasonId: 'y2s3', events: 0 }]);
    assert.is(await eventCount(app), before - 1);
  },
);

Calendar.run();
