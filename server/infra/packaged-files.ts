/**
 * Files the server reads at run time besides its code: some of its dependencies' files, and the
 * community data set it carries (server/seed/community-data/). Inside the single executable they are
 * its SEA assets, each under `<package>/<file>` or `community-data/<file>` (scripts/build-binary.ts
 * stores every one listed here); elsewhere, the file in the installed package or in the folder. A file
 * not listed is refused everywhere, so that a file added to the server without being listed fails its
 * tests, not only the executable.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getAsset, isSea } from 'node:sea';

export const PACKAGED_FILES: Record<string, readonly string[]> = {
  /** The API reference's page (server/docs.ts). */
  'swagger-ui-dist': ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png'],
  /** The captcha picture's font, which svg-captcha reads beside its code when it loads (scripts/build-binary.ts). */
  'svg-captcha': ['fonts/Comismsh.ttf'],
};

export function packagedFile(packageName: string, file: string): Buffer {
  if (!PACKAGED_FILES[packageName]?.includes(file))
    throw new Error(`${packageName}/${file} is not in PACKAGED_FILES (server/infra/packaged-files.ts)`);
  if (isSea()) return Buffer.from(getAsset(`${packageName}/${file}`));
  const dir = dirname(createRequire(import.meta.url).resolve(`${packageName}/package.json`));
  return readFileSync(join(dir, file));
}

/**
 * The data files of the community data set the server carries (glow-prow-data at bfdfc02; its
 * README.md and LICENSE are beside them). Read only when the demo is seeded or the set is imported,
 * never at start-up: a start on an existing database pays nothing for them.
 */
export const COMMUNITY_DATA_FILES = [
  'commodities.json',
  'contracts.json',
  'cosmetics.json',
  'empireSkills.json',
  'events.json',
  'factions.json',
  'items.json',
  'items_ammunition.json',
  'mapLocations.json',
  'materials.json',
  'modifications.json',
  'npcs.json',
  'regions.json',
  'seasons.json',
  'sets.json',
  'ships.json',
  'territories.json',
  'treasureMaps.json',
  'ultimates.json',
  'worldEvents.json',
] as const;

/** The SEA asset key of a community data file, and its folder's name beside the bundle (scripts/build.ts). */
export const COMMUNITY_DATA_DIR = 'community-data';

/**
 * Where the carried data set is on disk: beside the running code in dist/ (scripts/build.ts copies it
 * there), else in a checkout, server/seed/community-data/ (this file is server/infra/packaged-files.ts).
 */
function communityDataFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const beside = join(here, COMMUNITY_DATA_DIR);
  return existsSync(beside) ? beside : join(here, '..', 'seed', COMMUNITY_DATA_DIR);
}

/** One file of the carried data set, parsed: in a checkout, in dist/ and in the single executable alike. */
export function communityDataFile(file: (typeof COMMUNITY_DATA_FILES)[number]): unknown {
  if (!COMMUNITY_DATA_FILES.includes(file))
    throw new Error(`${file} is not in COMMUNITY_DATA_FILES (server/infra/packaged-files.ts)`);
  const bytes = isSea()
    ? Buffer.from(getAsset(`${COMMUNITY_DATA_DIR}/${file}`))
    : readFileSync(join(communityDataFolder(), file));
  return JSON.parse(bytes.toString('utf8')) as unknown;
}

/** The whole carried data set, each file parsed, keyed by file name. */
export function readCommunityData(): Record<string, unknown> {
  return Object.fromEntries(COMMUNITY_DATA_FILES.map((file) => [file, communityDataFile(file)]));
}
