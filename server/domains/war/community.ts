/**
 * The war's reference data from the community data set (issue 34): seasons (seasons.json), zones
 * (regions.json and territories.json: each region and each territory is a zone) and trading companies
 * (factions.json). Each runs in the caller's transaction and writes only what differs, so a second run
 * of the same files changes nothing. They follow the catalog's rule: a bad entry (a season's date, an
 * id the slug rule refuses) refuses the kind, each problem named by file and entry; an id met twice
 * (a territory named as a region) is one row, the later entry skipped with its reason.
 */
import { inArray } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { seasons, warCompanies, warZones } from '../../../db/schema';
import { dataSetEntries, type TDataSetTally } from '../../infra/data-set';
import { AppError, type TIssue } from '../../errors';
import { checkSeasons, nameFromKey, seasonsFromCommunityFormat, writeSeasons } from './seasons';
import { ZCompanyInput, ZSeasonInput, ZZoneInput, type TSeasonInput } from './schemas';

export interface TWritten {
  read: number;
  added: number;
  changed: number;
  unchanged: number;
  /** Entries not written, each with its reason. */
  skipped: { reason: string; entry: string }[];
}

function refuse(issues: TIssue[]): never {
  throw new AppError('BAD_REQUEST', `Invalid data: ${issues[0]!.path}: ${issues[0]!.message}`, { issues });
}

/** seasons.json: every season, keyed by the data set's id (`shatteredSeas`), its `alternativeName` (`y3s2`) the season's id. */
export async function importCommunitySeasonsIn(tx: TDb, data: unknown, file = 'seasons.json'): Promise<TWritten> {
  let given: TSeasonInput[];
  try {
    given = seasonsFromCommunityFormat(data);
  } catch {
    refuse([
      {
        path: file,
        message:
          'must be the community seasons.json: seasons keyed by id, each with alternativeName, startDate, endDate',
      },
    ]);
  }
  const keys = Object.keys(data as object);
  const issues: TIssue[] = [];
  const inputs: TSeasonInput[] = [];
  given.forEach((season, index) => {
    const parsed = ZSeasonInput.safeParse(season);
    if (parsed.success) inputs.push(parsed.data);
    else
      for (const issue of parsed.error.issues)
        issues.push({
          path: `${file} ${JSON.stringify(keys[index])}.${issue.path.join('.') === 'id' ? 'alternativeName' : issue.path.join('.')}`,
          message: issue.message,
        });
  });
  if (issues.length > 0) refuse(issues);
  const clashes = await checkSeasons(tx, inputs, file);
  if (clashes.length > 0)
    refuse(
      clashes.map((issue) => ({
        ...issue,
        path: issue.path.replace(
          /^[^[]*\[(\d+)\]/,
          (_, index: string) => `${file} ${JSON.stringify(keys[Number(index)])}`,
        ),
      })),
    );
  const stored = new Map(
    (
      await tx
        .select()
        .from(seasons)
        .where(
          inArray(
            seasons.id,
            inputs.map((season) => season.id),
          ),
        )
        .all()
    ).map((row) => [row.id, row]),
  );
  const differing = inputs.filter((season) => {
    const row = stored.get(season.id);
    const key = season.key ?? season.id;
    return (
      !row ||
      row.key !== key ||
      row.name !== (season.name ?? nameFromKey(key)) ||
      row.number !== season.number ||
      row.startDate !== season.startDate ||
      row.endDate !== season.endDate
    );
  });
  await writeSeasons(tx, differing);
  const added = differing.filter((season) => !stored.has(season.id)).length;
  return {
    read: inputs.length,
    added,
    changed: differing.length - added,
    unchanged: inputs.length - differing.length,
    skipped: [],
  };
}

/** The ids of the entries of reference files (an entry's `id`, else its key), each with where it is; an id met twice is skipped. */
function referenceEntries(files: Record<string, unknown>, names: string[]) {
  const entries: { id: string; where: string }[] = [];
  const tally: TDataSetTally = { read: 0, skipped: [], issues: [] };
  const seen = new Set<string>();
  for (const { key, entry, where } of dataSetEntries(files, names, tally)) {
    const id = typeof entry.id === 'string' ? entry.id : key;
    if (seen.has(id))
      tally.skipped.push({ reason: 'its id is already a zone or company read before it', entry: where });
    else {
      seen.add(id);
      entries.push({ id, where });
    }
  }
  return { entries, ...tally };
}

/** A colour for a trading company's charts, the same for an id every time (the data set has none). */
export function colorOf(id: string): string {
  let hash = 2166136261;
  for (const char of id) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  const hue = hash % 360;
  // HSL(hue, 55%, 45%) in RGB.
  const chroma = (1 - Math.abs(2 * 0.45 - 1)) * 0.55;
  const x = chroma * (1 - Math.abs(((hue / 60) % 2) - 1));
  const m = 0.45 - chroma / 2;
  const [r, g, b] = [
    [chroma, x, 0],
    [x, chroma, 0],
    [0, chroma, x],
    [0, x, chroma],
    [x, 0, chroma],
    [chroma, 0, x],
  ][Math.floor(hue / 60)]!;
  return `#${[r, g, b]
    .map((channel) =>
      Math.round((channel! + m) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** Which of these ids a table of reference data already has. */
async function storedIds(ids: string[], read: (ids: string[]) => Promise<{ id: string }[]>): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let start = 0; start < ids.length; start += CHUNK)
    for (const row of await read(ids.slice(start, start + CHUNK))) stored.add(row.id);
  return stored;
}

const CHUNK = 200;

/**
 * The rows of zones or companies from the data set: a name made from the id (and a colour, for
 * companies), checked as POST /admin/war/reference checks them.
 */
function referenceRows<T extends { id: string }>(
  files: Record<string, unknown>,
  names: string[],
  toRow: (id: string) => T,
  schema: typeof ZZoneInput | typeof ZCompanyInput,
) {
  const { entries, skipped, issues, read } = referenceEntries(files, names);
  const rows = entries.map(({ id, where }) => {
    const row = toRow(id);
    const parsed = schema.safeParse(row);
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        issues.push({ path: `${where}${issue.path.length ? `.${issue.path.join('.')}` : ''}`, message: issue.message });
    return row;
  });
  if (issues.length > 0) refuse(issues);
  return { rows, skipped, read };
}

export const ZONE_FILES = ['regions.json', 'territories.json'];
export const COMPANY_FILES = ['factions.json'];

/*
 * New ids are added; an id already stored is left as it is, since the data set says nothing more than
 * the id and an administrator may have named or coloured it (POST /admin/war/reference).
 */

export async function importCommunityZonesIn(tx: TDb, files: Record<string, unknown>): Promise<TWritten> {
  const { rows, skipped, read } = referenceRows(files, ZONE_FILES, (id) => ({ id, name: nameFromKey(id) }), ZZoneInput);
  const stored = await storedIds(
    rows.map((row) => row.id),
    async (ids) => await tx.select({ id: warZones.id }).from(warZones).where(inArray(warZones.id, ids)).all(),
  );
  const added = rows.filter((row) => !stored.has(row.id));
  for (let start = 0; start < added.length; start += CHUNK)
    await tx
      .insert(warZones)
      .values(added.slice(start, start + CHUNK))
      .run();
  return { read, added: added.length, changed: 0, unchanged: rows.length - added.length, skipped };
}

export async function importCommunityCompaniesIn(tx: TDb, files: Record<string, unknown>): Promise<TWritten> {
  const { rows, skipped, read } = referenceRows(
    files,
    COMPANY_FILES,
    (id) => ({ id, name: nameFromKey(id), color: colorOf(id) }),
    ZCompanyInput,
  );
  const stored = await storedIds(
    rows.map((row) => row.id),
    async (ids) =>
      await tx.select({ id: warCompanies.id }).from(warCompanies).where(inArray(warCompanies.id, ids)).all(),
  );
  const added = rows.filter((row) => !stored.has(row.id));
  for (let start = 0; start < added.length; start += CHUNK)
    await tx
      .insert(warCompanies)
      .values(added.slice(start, start + CHUNK))
      .run();
  return { read, added: added.length, changed: 0, unchanged: rows.length - added.length, skipped };
}
