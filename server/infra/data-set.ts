// Reading the community data set's files (glow-prow-data): each is a JSON object of entries keyed by
// id. The codex import and the war import walk them alike; what they make of an entry is their own.
import { isRecord } from './is-record';

/** What a walk of the files found besides their entries: how many it read, the files missing, the malformed. */
export interface TDataSetTally {
  read: number;
  skipped: { reason: string; entry: string }[];
  /** Where (a file, or `<file> "<key>"`) and what is wrong: the API's issue shape (server/errors.ts TIssue). */
  issues: { path: string; message: string }[];
}

/**
 * The entries of the files `names` of the data set `files`, each an object with its key and where it
 * is (`<file> "<key>"`, for messages). A file not given is skipped, a file or an entry that is not an
 * object is an issue; each is counted in `tally`, and every entry found counts as read.
 */
export function* dataSetEntries(
  files: Record<string, unknown>,
  names: readonly string[],
  tally: TDataSetTally,
): Generator<{ key: string; entry: Record<string, unknown>; where: string }> {
  for (const file of names) {
    const data = files[file];
    if (data === undefined) {
      tally.skipped.push({ reason: 'the file is not in the data set given', entry: file });
      continue;
    }
    if (!isRecord(data)) {
      tally.issues.push({ path: file, message: 'must be a JSON object of entries keyed by id' });
      continue;
    }
    for (const [key, entry] of Object.entries(data)) {
      tally.read++;
      const where = `${file} ${JSON.stringify(key)}`;
      if (isRecord(entry)) yield { key, entry, where };
      else tally.issues.push({ path: where, message: 'must be an object' });
    }
  }
}
