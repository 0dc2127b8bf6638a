// The import's report: one per kind, and its lines for the CLI and logs.
import type { TCommunityImport, TImportKindReport } from './schemas';

/** Entries not written, each with its reason. */
export type TSkipped = { reason: string; entry: string }[];

/** How many entries a reason lists by name; the count says how many there were. */
const NAMED = 5;

export function kindReport(
  kind: string,
  input: {
    files: readonly string[];
    read: number;
    written?: { added: number; changed: number; unchanged: number };
    skipped?: TSkipped;
  },
): TImportKindReport {
  const byReason = new Map<string, string[]>();
  for (const { reason, entry } of input.skipped ?? []) byReason.set(reason, [...(byReason.get(reason) ?? []), entry]);
  const written = input.written ?? { added: 0, changed: 0, unchanged: 0 };
  return {
    kind,
    files: [...input.files],
    read: input.read,
    ...written,
    skipped: input.skipped?.length ?? 0,
    reasons: [...byReason].map(([reason, entries]) => ({
      reason,
      count: entries.length,
      entries: entries.slice(0, NAMED),
    })),
  };
}

/** One line per kind, the reasons of its skipped entries under it, and a last line that says whether anything changed. */
export function formatCommunityImport(report: TCommunityImport): string[] {
  const lines: string[] = [];
  for (const kind of report.kinds) {
    lines.push(
      `${kind.kind}: ${kind.read} read, ${kind.added} added, ${kind.changed} changed, ${kind.unchanged} unchanged, ${kind.skipped} skipped`,
    );
    for (const reason of kind.reasons) {
      const more = reason.count > reason.entries.length ? ` and ${reason.count - reason.entries.length} more` : '';
      lines.push(`  skipped ${reason.count}: ${reason.reason} (${reason.entries.join(', ')}${more})`);
    }
  }
  const written = report.kinds.reduce((sum, kind) => sum + kind.added + kind.changed, 0);
  lines.push(
    report.changed ? `${written} rows added or changed` : 'nothing changed: the database already holds this data set',
  );
  return lines;
}
