// The codex table (issue 34): finding an entry (the targets of comments and likes), and writing one
// kind of it from the community data set's files, idempotently.
import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { codexEntries } from '../../../db/schema';
import { dataSetEntries, type TDataSetTally } from '../../infra/data-set';
import type { TIssue } from '../../errors';
import { jsonProblem } from '../../schemas';
import { textProblem } from '../../text';
import { nameFromKey } from '../war';
import { CODEX_FILES } from './files';
import { CODEX_ID_PATTERN, type TCodexEntry, type TCodexKind } from './schemas';
import type { TSkipped } from './report';

type TCodexRow = typeof codexEntries.$inferSelect;

/** The entry of the first of `kinds` that has this id (kinds are tried in order: two lookups of the key at most). */
export async function findCodexEntry(
  db: TDb,
  kinds: readonly TCodexKind[],
  id: string,
): Promise<TCodexEntry | undefined> {
  for (const kind of kinds) {
    const row = await db
      .select()
      .from(codexEntries)
      .where(and(eq(codexEntries.kind, kind), eq(codexEntries.id, id)))
      .get();
    if (row) return { ...row, kind };
  }
  return undefined;
}

/** The longest text a codex field may hold (the data set's longest type, rarity or season key has 27 characters). */
const MAX_FIELD = 100;

/**
 * A text field of an entry: a string under the one text rule (server/text.ts), or null when absent
 * or of another shape (the data set's fields come and go from entry to entry: npcs.json's
 * `category` is a list, most entries have no `rarity`).
 */
function textField(entry: Record<string, unknown>, names: string[], where: string, issues: TIssue[]): string | null {
  for (const name of names) {
    const value = entry[name];
    if (typeof value !== 'string' || value === '') continue;
    const problem = textProblem(value, { max: MAX_FIELD });
    if (problem === undefined) return value;
    issues.push({ path: `${where}.${name}`, message: problem });
    return null;
  }
  return null;
}

/**
 * The rows of one codex kind from its files (CODEX_FILES), the entries skipped with their reason, and
 * the problems that refuse the kind (the catalog's rule: all or nothing, each problem named by file
 * and entry). A file that is absent is skipped whole; several entries with one id (npcs.json) are one
 * codex entry, the later ones skipped.
 */
export function codexRowsOf(
  kind: TCodexKind,
  files: Record<string, unknown>,
): { rows: TCodexRow[]; read: number; skipped: TSkipped; issues: TIssue[] } {
  const rows: TCodexRow[] = [];
  const tally: TDataSetTally = { read: 0, skipped: [], issues: [] };
  const { skipped, issues } = tally;
  const seen = new Map<string, string>();
  for (const { key, entry, where } of dataSetEntries(files, CODEX_FILES[kind], tally)) {
    const problem = jsonProblem(entry);
    if (problem !== undefined) {
      issues.push({ path: where, message: problem });
      continue;
    }
    const id = entry.id === undefined ? key : entry.id;
    if (typeof id !== 'string' || !CODEX_ID_PATTERN.test(id)) {
      issues.push({
        path: `${where}.id`,
        message: 'must be an id of 1-100 letters, digits, _ . - starting with a letter or digit',
      });
      continue;
    }
    const first = seen.get(id);
    if (first !== undefined) {
      skipped.push({
        reason: `shares its id with an earlier entry: one codex entry per id (the client sends the id)`,
        entry: where,
      });
      continue;
    }
    seen.set(id, where);
    rows.push({
      kind,
      id,
      name: nameFromKey(id),
      type: textField(entry, ['type', 'category'], where, issues),
      rarity: textField(entry, ['rarity'], where, issues),
      season: textField(entry, ['season'], where, issues),
    });
  }
  return { rows, read: tally.read, skipped, issues };
}

const CHUNK = 200;

function sameRow(a: TCodexRow, b: TCodexRow): boolean {
  return a.name === b.name && a.type === b.type && a.rarity === b.rarity && a.season === b.season;
}

/**
 * Writes one kind's rows inside the caller's transaction: new ids inserted, differing ones updated,
 * equal ones left alone. Entries no longer in the data set stay (comments and likes may name them).
 */
export async function writeCodexKind(
  tx: TDb,
  kind: TCodexKind,
  rows: TCodexRow[],
): Promise<{ added: number; changed: number; unchanged: number }> {
  const stored = new Map(
    (await tx.select().from(codexEntries).where(eq(codexEntries.kind, kind)).all()).map((row) => [row.id, row]),
  );
  const added = rows.filter((row) => !stored.has(row.id));
  const changed = rows.filter((row) => {
    const before = stored.get(row.id);
    return before !== undefined && !sameRow(before, row);
  });
  for (let start = 0; start < added.length; start += CHUNK)
    await tx
      .insert(codexEntries)
      .values(added.slice(start, start + CHUNK))
      .run();
  for (const row of changed)
    await tx
      .update(codexEntries)
      .set({ name: row.name, type: row.type, rarity: row.rarity, season: row.season })
      .where(and(eq(codexEntries.kind, kind), eq(codexEntries.id, row.id)))
      .run();
  return { added: added.length, changed: changed.length, unchanged: rows.length - added.length - changed.length };
}
