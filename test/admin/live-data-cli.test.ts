import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { count } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../db/client';
import { calendarEvents, dropCampaigns, seasons, warSnapshots } from '../../db/schema';
import { runCommand, UsageError, type TCommand } from '../../server/cli/command';
import {
  importCalendarCommand,
  importDropsCommand,
  importWarCommand,
  thinWarCommand,
} from '../../server/cli/live-data-commands';
import { AppError } from '../../server/errors';
import { TEST_DRIVER } from '../support/helpers';

interface TCtx {
  dir: string;
  url: string;
  previousUrl: string | undefined;
}

const Cli = suite<TCtx>('live data CLI imports');

Cli.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-cli-'));
  context.url = `file:${join(context.dir, 'cli.db')}`;
  context.previousUrl = process.env.DATABASE_URL;
  process.env.DATABASE_URL = context.url;
});
Cli.after((context) => {
  if (context.previousUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = context.previousUrl;
  rmSync(context.dir, { recursive: true, force: true });
});

async function run(command: TCommand, argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runCommand(command, argv, (line) => lines.push(line));
  return lines;
}

async function failure(command: TCommand, argv: string[]): Promise<Error> {
  try {
    await run(command, argv);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the command to fail');
}

function file(dir: string, name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

async function countOf(
  url: string,
  table: typeof seasons | typeof warSnapshots | typeof dropCampaigns | typeof calendarEvents,
): Promise<number> {
  const database = openDatabase(url, { driver: TEST_DRIVER });
  try {
    return (await database.db.select({ n: count() }).from(table).get())!.n;
  } finally {
    database.close();
  }
}

Cli('import-war reads the community seasons.json', async ({ url }) => {
  const lines = await run(importWarCommand, [fileURLToPath(new URL('../fixtures/seasons.json', import.meta.url))]);
  assert.equal(lines, ['war data: 10 seasons, 0 zones, 0 companies, 0 snapshots imported']);
  assert.is(await countOf(url, seasons), 10);
});

Cli('import-war loads reference data and snapshots; a bad file writes nothing', async ({ dir, url }) => {
  const snapshot = (capturedAt: string) => ({
    season: 'y2s4',
    capturedAt,
    companies: [{ companyId: 'crimson', score: 10 }],
    zones: [{ zoneId: 'red-isle', controlledBy: 'crimson' }],
  });
  const bad = file(dir, 'bad-war.json', {
    zones: [{ id: 'red-isle', name: 'Red Isle' }],
    companies: [{ id: 'crimson', name: 'Crimson', color: '#ff0000' }],
    snapshots: [
      snapshot('2025-11-01T00:00:00Z'),
      { ...snapshot('2025-11-01T00:05:00Z'), companies: [{ companyId: 'ghost', score: 1 }] },
    ],
  });
  const error = await failure(importWarCommand, [bad]);
  assert.instance(error, AppError);
  assert.match(error.message, /snapshots\[1\]\.companies\[0\]\.companyId: unknown company "ghost"/);
  assert.is(await countOf(url, warSnapshots), 0);

  const good = file(dir, 'war.json', {
    zones: [{ id: 'red-isle', name: 'Red Isle' }],
    companies: [{ id: 'crimson', name: 'Crimson', color: '#ff0000' }],
    snapshots: [snapshot('2025-11-01T00:00:00Z'), snapshot('2025-11-01T00:05:00Z')],
  });
  assert.equal(await run(importWarCommand, [good]), [
    'war data: 0 seasons, 1 zones, 1 companies, 2 snapshots imported',
  ]);
  assert.is(await countOf(url, warSnapshots), 2);
  const misspelt = await failure(importWarCommand, [file(dir, 'typo.json', { snapshot: [] })]);
  assert.match(misspelt.message, /snapshot/);
});

Cli('import-drops creates then updates by campaignId', async ({ dir, url }) => {
  const campaigns = [
    {
      campaignId: 'c-1',
      name: 'One',
      startsAt: '2025-11-01T00:00:00Z',
      endsAt: '2025-11-08T00:00:00Z',
      rewards: [{ name: 'Sail', requiredMinutes: 60 }],
    },
    { campaignId: 'c-2', name: 'Two', startsAt: '2025-12-01T00:00:00Z', endsAt: '2025-12-08T00:00:00Z' },
  ];
  const path = file(dir, 'drops.json', campaigns);
  assert.equal(await run(importDropsCommand, [path]), ['drop campaigns: 2 created, 0 updated']);
  assert.equal(await run(importDropsCommand, [file(dir, 'drops2.json', { campaigns })]), [
    'drop campaigns: 0 created, 2 updated',
  ]);
  const bad = await failure(importDropsCommand, [
    file(dir, 'bad-drops.json', [{ ...campaigns[0], endsAt: '2025-10-01T00:00:00Z' }]),
  ]);
  assert.match(bad.message, /campaigns\[0\]\.endsAt: must be after startsAt/);
  assert.is(await countOf(url, dropCampaigns), 2);
});

Cli('import-calendar replaces calendars and names bad fields', async ({ dir, url }) => {
  const events = [
    { id: 'e1', title: 'Event', category: 'event', startsAt: '2025-11-01T00:00:00Z', endsAt: '2025-11-02T00:00:00Z' },
  ];
  assert.equal(await run(importCalendarCommand, [file(dir, 'cal.json', { season: 'y2s4', events })]), [
    'calendar of y2s4: 1 events',
  ]);
  const bad = await failure(importCalendarCommand, [
    file(dir, 'bad-cal.json', [{ season: 'y2s4', events: [{ ...events[0], title: '' }] }]),
  ]);
  assert.match(bad.message, /\[0\]\.events\[0\]\.title/);
  assert.is(await countOf(url, calendarEvents), 1);
});

Cli('usage errors: missing, unreadable or non-JSON files and bad options', async ({ dir }) => {
  assert.instance(await failure(importWarCommand, []), UsageError);
  assert.instance(await failure(importWarCommand, ['a.json', 'b.json']), UsageError);
  const missing = await failure(importDropsCommand, [join(dir, 'nope.json')]);
  assert.instance(missing, UsageError);
  assert.match(missing.message, /ENOENT/);
  const notJson = await failure(importCalendarCommand, [file(dir, 'text.json', 'not json')]);
  assert.instance(notJson, UsageError);
  assert.match(notJson.message, /not valid JSON/);
  assert.instance(await failure(thinWarCommand, ['--older-than-days', 'soon']), UsageError);
  assert.instance(await failure(thinWarCommand, ['--older-than-days', '0']), UsageError);
  const help = await run(importWarCommand, ['--help']);
  assert.match(help[0]!, /^Usage: npm run cli -- import-war <file.json>/);
});

Cli('thin-war thins old snapshots to one per hour', async ({ url }) => {
  // The two imported snapshots (00:00 and 00:05 of 2025-11-01) share an hour.
  const lines = await run(thinWarCommand, ['--older-than-days', '1']);
  assert.is(lines.length, 1);
  assert.match(lines[0]!, /^thinned war snapshots before \d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z: 1 deleted$/);
  assert.is(await countOf(url, warSnapshots), 1);
});

Cli.run();
