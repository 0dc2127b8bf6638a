/**
 * Which tables a statement may read or change, for an embedded replica's staleness (db/replica.ts): a
 * write heard of makes the copy behind for the tables it may have changed only, so that a stream of
 * like toggles does not send every session check to the primary.
 *
 * Every answer errs on the side of more tables, never fewer:
 * - a statement names a table when any identifier in it (outside string literals and comments) is a
 *   table's or a view's name, whatever its role (a column called like a table counts);
 * - a write to a table may change every table named in the body of a trigger on it, and every table
 *   whose foreign keys reference it (a cascade), and so on, to the end;
 * - a read of a view reads every table named in its definition.
 */

/** One row of `sqlite_master`. */
export interface TSchemaRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** Statements whose tables are kept, by SQL text; the oldest is dropped past this. */
const STATEMENTS_KEPT = 2000;

const LITERALS_AND_COMMENTS = /'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?\*\//g;
const IDENTIFIER = /"((?:[^"]|"")+)"|`([^`]+)`|\[([^\]]+)\]|([A-Za-z_][A-Za-z0-9_$]*)/g;

/** Every identifier of `sql`, lower-cased (SQLite's names are case-insensitive), outside literals and comments. */
function identifiers(sql: string): Set<string> {
  const found = new Set<string>();
  for (const match of sql.replace(LITERALS_AND_COMMENTS, ' ').matchAll(IDENTIFIER)) {
    const name = match[1]?.replace(/""/g, '"') ?? match[2] ?? match[3] ?? match[4]!;
    found.add(name.toLowerCase());
  }
  return found;
}

export class TableMap {
  /** A table to every table a write to it may change (itself included). */
  private readonly changes = new Map<string, Set<string>>();
  /** A table or view name to the tables a read of it reads. */
  private readonly reads = new Map<string, string[]>();
  private readonly byStatement = new Map<string, { reads: string[]; changes: string[] }>();

  constructor(schema: readonly TSchemaRow[]) {
    const tables = new Set(schema.filter((row) => row.type === 'table').map((row) => row.name.toLowerCase()));
    const named = (sql: string | null) => [...identifiers(sql ?? '')].filter((name) => tables.has(name));
    const direct = new Map<string, Set<string>>([...tables].map((table) => [table, new Set([table])]));
    for (const row of schema) {
      const name = row.name.toLowerCase();
      if (row.type === 'trigger')
        for (const table of named(row.sql)) direct.get(row.tbl_name.toLowerCase())?.add(table);
      // A table whose foreign keys reference another changes when that one does (ON DELETE CASCADE, SET NULL).
      if (row.type === 'table')
        for (const match of (row.sql ?? '').matchAll(/\breferences\s+["`[]?([A-Za-z_][A-Za-z0-9_$]*)/gi))
          direct.get(match[1]!.toLowerCase())?.add(name);
      if (row.type === 'table') this.reads.set(name, [name]);
      if (row.type === 'view') this.reads.set(name, named(row.sql));
    }
    for (const table of tables) {
      const reached = new Set<string>();
      const next = [table];
      while (next.length > 0) {
        const current = next.pop()!;
        if (reached.has(current)) continue;
        reached.add(current);
        next.push(...(direct.get(current) ?? []));
      }
      this.changes.set(table, reached);
    }
  }

  /** The tables a read of `sql` may read. */
  readBy(sql: string): readonly string[] {
    return this.statement(sql).reads;
  }

  /** The tables `sql` may change, through its triggers and foreign keys too. */
  changedBy(sql: string): readonly string[] {
    return this.statement(sql).changes;
  }

  /** The tables a change of `table` may change in turn; undefined for a table unknown here. */
  changedWith(table: string): ReadonlySet<string> | undefined {
    return this.changes.get(table.toLowerCase());
  }

  private statement(sql: string): { reads: string[]; changes: string[] } {
    let known = this.byStatement.get(sql);
    if (known) return known;
    const names = identifiers(sql);
    const reads = new Set<string>();
    const changes = new Set<string>();
    for (const name of names) {
      for (const table of this.reads.get(name) ?? []) reads.add(table);
      for (const table of this.changes.get(name) ?? []) changes.add(table);
    }
    known = { reads: [...reads], changes: [...changes] };
    if (this.byStatement.size >= STATEMENTS_KEPT) this.byStatement.delete(this.byStatement.keys().next().value!);
    this.byStatement.set(sql, known);
    return known;
  }
}
