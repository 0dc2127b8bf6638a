/**
 * The import of the whole community data set (issue 34; `cli import-community-data <dir>`, POST
 * /admin/community-data/import, the demo seed): the catalog, seasons, zones, trading companies and
 * every codex kind, each kind in its own transaction, each writing only what differs (a second run of
 * the same set changes nothing and says so), with a report per kind of what was added, changed,
 * unchanged and skipped, and why. A kind with a bad entry is refused whole, its problems named by file
 * and entry (the catalog's rule), and the import stops there: the kinds before it stay written, and
 * running it again once the file is mended changes nothing more for them.
 */
import { transaction } from '../../../db/transaction';
import type { TDepsOf, TProgressListener } from '../../deps';
import { AppError, invalidFile } from '../../errors';
import { importCatalog } from '../catalog';
import {
  COMPANY_FILES,
  importCommunityCompaniesIn,
  importCommunitySeasonsIn,
  importCommunityZonesIn,
  type TWritten,
  ZONE_FILES,
} from '../war';
import { codexRowsOf, writeCodexKind } from './entries';
import { CODEX_FILES, UNWRITTEN_FILES } from './files';
import { kindReport, type TSkipped } from './report';
import { CODEX_KINDS, type TCommunityImport, type TImportKindReport } from './schemas';

type TFiles = Record<string, unknown>;

function entryCount(data: unknown): number {
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? Object.keys(data).length : 0;
}

/** A war write's AppError with issues, as an import file's 400 (its problems listed by file and entry). */
async function asFileProblems<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof AppError && error.issues) throw invalidFile(error.issues);
    throw error;
  }
}

function missing(files: TFiles, names: readonly string[]): TSkipped {
  return names
    .filter((name) => files[name] === undefined)
    .map((name) => ({ reason: 'the file is not in the data set given', entry: name }));
}

/** ships.json and items.json, through the catalog's own import (its rule, its transaction), rows that differ only. */
async function importCatalogKind(deps: TDepsOf<'db' | 'now'>, files: TFiles, onProgress?: TProgressListener) {
  const names = ['ships.json', 'items.json'];
  const read = entryCount(files['ships.json']) + entryCount(files['items.json']);
  const absent = missing(files, names);
  if (absent.length > 0) return kindReport('catalog', { files: names, read, skipped: absent });
  const report = await importCatalog(deps, {
    files: { ships: files['ships.json'], items: files['items.json'] },
    onlyChanged: true,
    onProgress,
  });
  const added = report.hulls.inserted + report.items.inserted;
  const changed = report.hulls.updated + report.items.updated;
  return kindReport('catalog', { files: names, read, written: { added, changed, unchanged: read - added - changed } });
}

/** One war kind in its own transaction. */
async function importWarKind(
  deps: TDepsOf<'db'>,
  kind: string,
  names: readonly string[],
  files: TFiles,
  write: (tx: TDepsOf<'db'>['db']) => Promise<TWritten>,
): Promise<TImportKindReport> {
  if (names.every((name) => files[name] === undefined))
    return kindReport(kind, { files: names, read: 0, skipped: missing(files, names) });
  const written = await asFileProblems(() => transaction(deps.db, write));
  return kindReport(kind, { files: names, read: written.read, written, skipped: written.skipped });
}

export async function importCommunityData(
  deps: TDepsOf<'db' | 'now'>,
  input: {
    /** The data set's files, parsed, by file name (COMMUNITY_DATA_FILES); an absent one is reported as skipped. */
    files: TFiles;
    /** False: the catalog is left as it is (the demo seed brings its own small catalog). */
    withCatalog?: boolean;
    onProgress?: TProgressListener;
  },
): Promise<TCommunityImport> {
  const { files, onProgress } = input;
  const kinds: TImportKindReport[] = [];
  const done = (report: TImportKindReport) => {
    kinds.push(report);
    onProgress?.(`importing ${report.kind}`, report.read, report.read);
  };
  if (input.withCatalog !== false) done(await importCatalogKind(deps, files, onProgress));
  done(
    await importWarKind(deps, 'seasons', ['seasons.json'], files, (tx) =>
      importCommunitySeasonsIn(tx, files['seasons.json']),
    ),
  );
  done(await importWarKind(deps, 'zones', ZONE_FILES, files, (tx) => importCommunityZonesIn(tx, files)));
  done(await importWarKind(deps, 'companies', COMPANY_FILES, files, (tx) => importCommunityCompaniesIn(tx, files)));
  for (const kind of CODEX_KINDS) {
    const { rows, read, skipped, issues } = codexRowsOf(kind, files);
    if (issues.length > 0) throw invalidFile(issues);
    const written = await transaction(deps.db, (tx) => writeCodexKind(tx, kind, rows));
    done(kindReport(`codex ${kind}`, { files: CODEX_FILES[kind], read, written, skipped }));
  }
  for (const [file, reason] of Object.entries(UNWRITTEN_FILES)) {
    const data = files[file];
    const keys = data !== null && typeof data === 'object' && !Array.isArray(data) ? Object.keys(data) : [];
    done(
      kindReport(file.replace(/\.json$/, ''), {
        files: [file],
        read: keys.length,
        skipped:
          data === undefined
            ? missing(files, [file])
            : keys.map((key) => ({ reason, entry: `${file} ${JSON.stringify(key)}` })),
      }),
    );
  }
  return { kinds, changed: kinds.some((kind) => kind.added + kind.changed > 0) };
}
