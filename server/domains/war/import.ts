/** Import files of war data (the CLI): reference data and snapshots in one file, written all or nothing. */
import { transaction } from '../../../db/transaction';
import type { TDepsOf, TProgressListener } from '../../deps';
import { AppError, invalidFile, issuesFromZod } from '../../errors';
import { upsertWarReferenceIn } from './reference';
import { recordSnapshotsIn } from './snapshots';
import { ZWarImportFile, ZWarReferenceInput, type TWarReferenceResult } from './schemas';

/** Used by the CLI when a file mixes reference data and snapshots; snapshots come second so they can use the new zones. */
export async function importWarFile(
  deps: TDepsOf<'db' | 'now'>,
  input: { data: unknown; onProgress?: TProgressListener },
): Promise<TWarReferenceResult & { snapshots: number }> {
  const now = deps.now();
  const parsed = ZWarImportFile.safeParse(input.data);
  if (!parsed.success) throw invalidFile(issuesFromZod(parsed.error));
  const file = parsed.data;
  const hasReference = file.seasons.length + file.zones.length + file.companies.length > 0;
  const checked = ZWarReferenceInput.safeParse({ seasons: file.seasons, zones: file.zones, companies: file.companies });
  if (hasReference && !checked.success) throw invalidFile(issuesFromZod(checked.error));
  try {
    // One transaction: snapshots may use the zones and companies of the same file, and a bad
    // snapshot leaves the reference data unwritten too.
    return await transaction(deps.db, async (tx) => {
      const reference =
        hasReference && checked.success
          ? await upsertWarReferenceIn(tx, checked.data)
          : { seasons: 0, zones: 0, companies: 0 };
      const snapshots =
        file.snapshots.length > 0
          ? (await recordSnapshotsIn(tx, file.snapshots, now, (index) => `snapshots[${index}]`, input.onProgress)).ids
              .length
          : 0;
      return { ...reference, snapshots };
    });
  } catch (error) {
    if (error instanceof AppError && error.issues) throw invalidFile(error.issues);
    throw error;
  }
}
