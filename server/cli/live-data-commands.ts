import { importCalendarFile } from '../domains/calendar/season-calendar';
import { parseDropImport, upsertCampaigns } from '../domains/drop/ingestion';
import { isCommunitySeasons, seasonsFromCommunityFormat } from '../domains/war/seasons';
import { importWarFile } from '../domains/war/import';
import { thinWarSnapshots } from '../domains/war/retention';
import { readJsonFile, UsageError, type TCommand } from './command';

/** The one <file.json> argument, read and parsed. */
async function readJsonArgument(positionals: string[]): Promise<unknown> {
  const [file, extra] = positionals;
  if (!file || extra !== undefined) throw new UsageError('expected exactly one <file.json>');
  return readJsonFile(file);
}

export const importDropsCommand: TCommand = {
  name: 'import-drops',
  usage: 'import-drops <file.json>',
  description:
    'Creates or updates drop campaigns by campaignId from { "campaigns": [...] } or a bare array (same fields as POST /api/admin/drop/campaigns). All or nothing.',
  async run({ positionals, database, print, progress }) {
    const data = await readJsonArgument(positionals);
    const campaigns = parseDropImport(data);
    const result = await upsertCampaigns(
      { db: (await database()).db, now: () => new Date() },
      { campaigns, onProgress: progress },
    );
    print(`drop campaigns: ${result.created} created, ${result.updated} updated`);
  },
};

export const importWarCommand: TCommand = {
  name: 'import-war',
  usage: 'import-war <file.json>',
  description:
    'Imports war data: { "seasons", "zones", "companies", "snapshots" } (each optional; fields as the /api/admin/war endpoints), or a community seasons.json (seasons keyed by name with alternativeName, startDate, endDate). Snapshots are checked like POST /api/admin/war/snapshots; any problem writes no snapshot.',
  async run({ positionals, database, print, progress }) {
    const data = await readJsonArgument(positionals);
    const file = isCommunitySeasons(data) ? { seasons: seasonsFromCommunityFormat(data) } : data;
    const result = await importWarFile(
      { db: (await database()).db, now: () => new Date() },
      { data: file, onProgress: progress },
    );
    print(
      `war data: ${result.seasons} seasons, ${result.zones} zones, ${result.companies} companies, ${result.snapshots} snapshots imported`,
    );
  },
};

export const importCalendarCommand: TCommand = {
  name: 'import-calendar',
  usage: 'import-calendar <file.json>',
  description:
    'Replaces season calendars from { "season": "y2s4", "events": [...] } or a list of those (events as PUT /api/admin/calendar/{season}). All or nothing.',
  async run({ positionals, database, print, progress }) {
    const data = await readJsonArgument(positionals);
    const results = await importCalendarFile({ db: (await database()).db }, { data, onProgress: progress });
    for (const result of results) print(`calendar of ${result.seasonId}: ${result.events} events`);
  },
};

export const thinWarCommand: TCommand = {
  name: 'thin-war',
  usage: 'thin-war [--older-than-days <n>]',
  description:
    'Thins war snapshots older than n days (default WAR_THIN_AFTER_DAYS) to the first one of each hour; the server also does this hourly.',
  options: { 'older-than-days': { type: 'string' } },
  async run({ positionals, values, config, database, print }) {
    if (positionals.length > 0) throw new UsageError('takes no positional arguments');
    const given = values['older-than-days'];
    let days = config.WAR_THIN_AFTER_DAYS;
    if (given !== undefined) {
      if (typeof given !== 'string' || !/^\d{1,4}$/.test(given) || Number(given) < 1)
        throw new UsageError('--older-than-days must be a whole number of days, at least 1');
      days = Number(given);
    }
    const result = await thinWarSnapshots(
      { db: (await database()).db, now: () => new Date() },
      { olderThanDays: days },
    );
    print(`thinned war snapshots before ${result.cutoff}: ${result.deleted} deleted`);
  },
};

export const LIVE_DATA_COMMANDS: TCommand[] = [
  importDropsCommand,
  importWarCommand,
  importCalendarCommand,
  thinWarCommand,
];
