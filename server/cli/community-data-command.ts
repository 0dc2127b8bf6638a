// `import-community-data [<dir>]` (issue 34): the whole community data set, from a folder of its files or
// the copy this version carries.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatCommunityImport, importCommunityData } from '../domains/codex';
import { COMMUNITY_DATA_FILES, readCommunityData } from '../infra/packaged-files';
import { readJsonFile, UsageError, type TCommand } from './command';

export const importCommunityDataCommand: TCommand = {
  name: 'import-community-data',
  usage: 'import-community-data [<dir>]',
  description:
    "Imports the community data set (glow-prow-data) from <dir>, the folder of its files, or without <dir> the copy this version carries (glow-prow-data at bfdfc02): the catalog (ships.json, items.json), seasons, the war's zones (regions, territories) and companies (factions), and every codex kind the web client comments on and likes. " +
    'Each kind in its own transaction, writing only what differs: a second run changes nothing and says so. Ends with a line per kind (read, added, changed, unchanged, skipped, with the reasons). ' +
    'A kind with a bad entry is refused whole, each problem named by file and entry, and the kinds after it are not imported.',
  async run({ positionals, database, print, progress }) {
    const [dir, extra] = positionals;
    if (extra !== undefined) throw new UsageError('expected at most one <dir>: the folder of the data set');
    const files = dir === undefined ? readCommunityData() : await readFolder(dir);
    const report = await importCommunityData(
      { db: (await database()).db, now: () => new Date() },
      { files, onProgress: progress },
    );
    for (const line of formatCommunityImport(report)) print(line);
  },
};

/** The data set's files in a folder, parsed; the ones it lacks are left out (the import reports them skipped). */
async function readFolder(dir: string): Promise<Record<string, unknown>> {
  const present = COMMUNITY_DATA_FILES.filter((file) => existsSync(join(dir, file)));
  if (present.length === 0)
    throw new UsageError(`${dir} holds none of the data set's files (${COMMUNITY_DATA_FILES.join(', ')})`);
  const files: Record<string, unknown> = {};
  for (const file of present) files[file] = await readJsonFile(join(dir, file));
  return files;
}
