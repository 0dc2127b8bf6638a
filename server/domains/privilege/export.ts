// GET /privilege/export (issue 35): the grants, or the log of changes, as CSV (csv-stringify) or a
// JSON array, streamed: rows are read and written a batch at a time, so the answer is never held
// whole, and bounded: a selection of more than MAX_EXPORT_ROWS is a 400 before anything is sent.
import { and, asc, count, eq, gt, type SQL, sql } from 'drizzle-orm';
import { stringify } from 'csv-stringify/sync';
import { privilegeAudit, privilegeGrants, users } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import type { TStreamedAnswer } from '../../schemas';
import { auditFilters, grantFilters, selectAudit, selectGrants, toAuditEntry, toGrant } from './queries';
import { type TExportInput, MAX_EXPORT_ROWS } from './schemas';

/** Rows read and written at a time. */
const BATCH = 500;

const GRANT_COLUMNS = [
  'userId',
  'username',
  'privilegeType',
  'status',
  'grantedBy',
  'grantedTime',
  'expiryTime',
  'suspendedTime',
];
const LOG_COLUMNS = [
  'id',
  'userId',
  'username',
  'privilegeType',
  'action',
  'actorId',
  'actorName',
  'time',
  'expiryTime',
];

/**
 * A cell a spreadsheet would read as a formula (=, +, -, @, tab, CR first: a username may start with
 * `-`) is written with a leading apostrophe, which spreadsheets show as text.
 */
function textCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

type TRecord = Record<string, unknown>;

/** The batches of the selection, in a stable order, read one after another (keyset: nothing is skipped or repeated). */
async function* grantBatches(deps: TDepsOf<'db' | 'now'>, input: TExportInput, now: Date) {
  const where = grantFilters(input, now);
  let after: { userId: string; type: string } | undefined;
  for (let sent = 0; sent < MAX_EXPORT_ROWS; ) {
    const next = after && sql`(${privilegeGrants.userId}, ${privilegeGrants.type}) > (${after.userId}, ${after.type})`;
    const rows = await selectGrants(deps.db)
      .where(and(where, next))
      .orderBy(asc(privilegeGrants.userId), asc(privilegeGrants.type))
      .limit(Math.min(BATCH, MAX_EXPORT_ROWS - sent))
      .all();
    if (rows.length === 0) return;
    yield rows.map((row): TRecord => toGrant(row, now));
    sent += rows.length;
    const last = rows.at(-1)!;
    after = { userId: last.userId, type: last.type };
  }
}

async function* auditBatches(deps: TDepsOf<'db'>, input: TExportInput) {
  const where = auditFilters(input);
  let after = 0;
  for (let sent = 0; sent < MAX_EXPORT_ROWS; ) {
    const rows = await selectAudit(deps.db)
      .where(and(where, gt(privilegeAudit.id, after)))
      .orderBy(asc(privilegeAudit.id))
      .limit(Math.min(BATCH, MAX_EXPORT_ROWS - sent))
      .all();
    if (rows.length === 0) return;
    yield rows.map((row): TRecord => toAuditEntry(row));
    sent += rows.length;
    after = rows.at(-1)!.id;
  }
}

async function* asCsv(batches: AsyncIterable<TRecord[]>, columns: string[]): AsyncIterable<string> {
  yield stringify([], { header: true, columns });
  for await (const records of batches)
    yield stringify(records, { columns, cast: { string: textCell, boolean: String } });
}

async function* asJson(batches: AsyncIterable<TRecord[]>): AsyncIterable<string> {
  yield '[';
  let first = true;
  for await (const records of batches) {
    yield `${first ? '' : ','}${records.map((record) => JSON.stringify(record)).join(',')}`;
    first = false;
  }
  yield ']';
}

async function selectionSize(deps: TDepsOf<'db'>, input: TExportInput, now: Date): Promise<number> {
  const row =
    input.view === 'log'
      ? await deps.db.select({ n: count() }).from(privilegeAudit).where(auditFilters(input)).get()
      : await deps.db
          .select({ n: count() })
          .from(privilegeGrants)
          .innerJoin(users, eq(users.id, privilegeGrants.userId))
          .where(grantFilters(input, now) as SQL | undefined)
          .get();
  return row?.n ?? 0;
}

/** The export's answer: its type and file name, and its text as chunks that read the rows as they are sent. */
export async function exportPrivileges(deps: TDepsOf<'db' | 'now'>, input: TExportInput): Promise<TStreamedAnswer> {
  const now = deps.now();
  const size = await selectionSize(deps, input, now);
  if (size > MAX_EXPORT_ROWS) {
    throw new AppError(
      'BAD_REQUEST',
      `Invalid input: the export would hold ${size} rows, more than ${MAX_EXPORT_ROWS}: narrow it with userId, privilegeType or status`,
      { issues: [{ path: 'view', message: `selects ${size} rows, more than ${MAX_EXPORT_ROWS}` }] },
    );
  }
  const batches = input.view === 'log' ? auditBatches(deps, input) : grantBatches(deps, input, now);
  const name = input.view === 'log' ? 'privilege-log' : 'privileges';
  return input.format === 'json'
    ? { contentType: 'application/json; charset=utf-8', filename: `${name}.json`, chunks: asJson(batches) }
    : {
        contentType: 'text/csv; charset=utf-8',
        filename: `${name}.csv`,
        chunks: asCsv(batches, input.view === 'log' ? LOG_COLUMNS : GRANT_COLUMNS),
      };
}
