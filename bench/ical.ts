/**
 * The iCalendar feed with 1,000 events in a season (issue 31 item 6): events.ics answered 200 and
 * answered 304 to its ETag, event.ics, and the first request after an import, before and after the
 * feeds were remembered per data version (server/infra/cache/calendar-memo.ts).
 *
 * "Before" is the previous builder, copied below (`previousCalendarFeed`): it loaded the season's
 * events and built the feed on every request, the 304 included, since the ETag came from the body.
 * It is timed in process and behind a bare node:http server that answers as the REST surface did
 * (build, ETag, 304 on a match); "after" is the app itself, in process and over HTTP. Rounds
 * alternate between the two, so both see the same load. Run: npx tsx bench/ical.ts [rounds]
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import ical from 'ical-generator';
import type { TDepsOf } from '../server/deps';
import { AppError } from '../server/errors';
import { calendarFeed, feedEtag, feedEventUid, FEED_REFRESH_SECONDS } from '../server/domains/calendar/ical-feed';
import { getCalendar, replaceCalendar } from '../server/domains/calendar/season-calendar';
import type { TCalendarEventInput } from '../server/domains/calendar/schemas';
import { upsertWarReference } from '../server/domains/war/reference';
import { startTestServer } from '../test/support/helpers';

const EVENTS = 1000;
const SEASON = {
  id: 'y2s4',
  key: 'gutsAndGlory',
  number: 7,
  name: 'Guts and Glory',
  startDate: '2025-10-21',
  endDate: '2026-02-10',
};

/** The feed as it was built before issue 31: on every call, from every event of the season. */
async function previousCalendarFeed(
  deps: TDepsOf<'db' | 'now'>,
  input: { season: string; eventId?: string },
): Promise<string> {
  const stamp = deps.now();
  const { season, events } = await getCalendar(deps, { season: input.season });
  if (input.eventId && !Object.hasOwn(events, input.eventId)) {
    throw new AppError('NOT_FOUND', `Season ${season.id} has no event "${input.eventId}"`);
  }
  const chosen = input.eventId ? [events[input.eventId]!] : Object.values(events);
  const name = input.eventId ? `${season.name}: ${chosen[0]!.name}` : season.name;
  const feed = ical({
    name,
    description: `Skull and Bones, season ${season.number} (${season.startDate} to ${season.endDate}), from Tidewatch`,
    prodId: { company: 'tidewatch', product: 'calendar', language: 'EN' },
    ttl: FEED_REFRESH_SECONDS,
  });
  for (const event of chosen) {
    feed.createEvent({
      id: feedEventUid(season.id, event.id),
      stamp,
      start: new Date(event.startsAt),
      end: new Date(event.endsAt),
      summary: event.name,
      description: event.description === '' ? null : event.description,
      url: event.url,
      categories: [{ name: event.category }],
    });
  }
  return feed.toString();
}

function seasonEvents(variant: number): TCalendarEventInput[] {
  const start = Date.parse('2025-10-21T00:00:00Z');
  return Array.from({ length: EVENTS }, (_, index) => ({
    id: `event-${index}`,
    title: `World event ${index}: Kraken Hunt${variant ? ` (${variant})` : ''}`,
    category: index % 7 === 0 ? 'maintenance' : 'world-event',
    description: `Sail to the Red Isle and hunt the kraken; rewards change every week (${index}).`,
    url: `https://example.test/events/${index}`,
    startsAt: new Date(start + index * 2 * 3_600_000).toISOString(),
    endsAt: new Date(start + index * 2 * 3_600_000 + 5_400_000).toISOString(),
  }));
}

/** Answers as the REST surface did before: the previous builder on every request, its ETag, a 304 on a match. */
function startPreviousServer(deps: TDepsOf<'db' | 'now'>): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    previousCalendarFeed(deps, {
      season: url.searchParams.get('season') ?? '',
      eventId: url.searchParams.get('eventId') || undefined,
    }).then(
      (feed) => {
        const etag = feedEtag(feed);
        if (req.headers['if-none-match'] === etag) res.writeHead(304, { etag }).end();
        else res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8', etag }).end(feed);
      },
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function get(url: string, etag?: string): Promise<{ status: number; etag: string }> {
  const response = await fetch(url, { headers: etag ? { 'if-none-match': etag } : {} });
  await response.arrayBuffer();
  return { status: response.status, etag: response.headers.get('etag') ?? '' };
}

function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const rounds = Number(process.argv[2] ?? 30);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model}, node ${process.version}, load average at the start ${load()}`,
);

const app = await startTestServer();
const deps = { db: app.database.db, now: app.clock.now };
const previous = await startPreviousServer(deps);
try {
  await upsertWarReference(deps, { seasons: [SEASON], zones: [], companies: [] });
  await replaceCalendar(deps, { season: SEASON.id, events: seasonEvents(0) });
  const feedPath = '/api/calendar/events.ics?season=y2s4&language=zh_CN&eventId=';
  const eventPath = '/api/calendar/event.ics?season=y2s4&language=zh_CN&eventId=event-500';
  const ours = `${app.url}${feedPath}`;
  const theirs = `http://127.0.0.1:${(previous.address() as AddressInfo).port}/?season=y2s4`;
  const feedBytes = Buffer.byteLength(await calendarFeed(deps, { season: 'y2s4' }));
  const { etag } = await get(ours);
  const { etag: previousEtag } = await get(theirs);
  if (etag !== previousEtag) throw new Error(`the ETag changed: ${etag} against ${previousEtag}`);

  const samples: Record<string, { before: number[]; after: number[] }> = {};
  const hashing: number[] = [];
  const remembered = await calendarFeed(deps, { season: 'y2s4' });
  const record = (cell: string, side: 'before' | 'after', ms: number) => {
    samples[cell] ??= { before: [], after: [] };
    samples[cell][side].push(ms);
  };
  for (let round = 0; round < rounds; round++) {
    record(
      'events.ics in process (builder + ETag)',
      'before',
      await timed(async () => feedEtag(await previousCalendarFeed(deps, { season: 'y2s4' }))),
    );
    record(
      'events.ics in process (builder + ETag)',
      'after',
      await timed(async () => feedEtag(await calendarFeed(deps, { season: 'y2s4' }))),
    );
    hashing.push(await timed(async () => feedEtag(remembered)));
    record('GET events.ics: 200', 'before', await timed(() => get(theirs)));
    record('GET events.ics: 200', 'after', await timed(() => get(ours)));
    record('GET events.ics, If-None-Match: 304', 'before', await timed(() => get(theirs, etag)));
    record('GET events.ics, If-None-Match: 304', 'after', await timed(() => get(ours, etag)));
    record('GET event.ics (one of the 1,000): 200', 'before', await timed(() => get(`${theirs}&eventId=event-500`)));
    record('GET event.ics (one of the 1,000): 200', 'after', await timed(() => get(`${app.url}${eventPath}`)));
    // A new import: the next request builds the feed again (the write itself is not timed).
    await replaceCalendar(deps, { season: SEASON.id, events: seasonEvents(round + 1) });
    record('GET events.ics, first after an import: 200', 'before', await timed(() => get(theirs)));
    record('GET events.ics, first after an import: 200', 'after', await timed(() => get(ours)));
  }
  const fixed = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(0));
  console.log(`\n${EVENTS} events, a feed of ${(feedBytes / 1024).toFixed(0)} KB, ${rounds} rounds; ms, p50 / p95`);
  console.log('| | before | after | p50 ratio |\n|---|---:|---:|---:|');
  for (const [cell, { before, after }] of Object.entries(samples)) {
    const ratio = quantile(before, 0.5) / quantile(after, 0.5);
    console.log(
      `| ${cell} | ${fixed(quantile(before, 0.5))} / ${fixed(quantile(before, 0.95))} | ${fixed(quantile(after, 0.5))} / ${fixed(quantile(after, 0.95))} | ${ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(1)}x |`,
    );
  }
  console.log(
    `\nof which the ETag of the feed (feedEtag, on every answer of either): p50 ${fixed(quantile(hashing, 0.5))} / p95 ${fixed(quantile(hashing, 0.95))} ms`,
  );
  console.log(`load average at the end ${load()}`);
} finally {
  previous.close();
  await app.stop();
}
