import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { prepared } from '../../db/prepared';
import { assemblies, assemblyViews } from '../../db/schema';

/** How often each instance writes the views it counted (server/jobs.ts), and once more when it stops. */
export const VIEW_FLUSH_INTERVAL_MS = 1_000;

/**
 * Most assemblies one flush statement writes, so that a flush of every assembly read in a second
 * holds the event loop a few milliseconds at a time, never all at once (bench/README.md).
 */
export const VIEW_FLUSH_CHUNK = 250;

interface TCount {
  /** The assembly's row id: the flush writes by it (assembly_views' key). */
  id: number;
  /** The stored count when last read or written by this process. */
  stored: number;
  /** Views counted here and not yet written. */
  pending: number;
  /** Views being written by a flush that has not committed yet. */
  flushing: number;
}

/**
 * The stored view count of the `assemblies` row a select reads, from its own table (migration 0017):
 * a scalar subquery, so each select stays on one table (bench/README.md, issue 22). Written out:
 * drizzle leaves the columns of a one-table select unqualified, and the outer row must be named here.
 */
export const storedViewsOfRow = sql<number>`coalesce((select ${assemblyViews.views} from ${assemblyViews} where ${assemblyViews.assemblyId} = "assemblies"."id"), 0)`;

/** The stored count of a live assembly by uuid, with its id. */
function storedViewsQuery(db: TDb) {
  return prepared(db, 'assembly.views', (d) =>
    d
      .select({ id: assemblies.id, views: storedViewsOfRow })
      .from(assemblies)
      .where(and(eq(assemblies.uuid, sql.placeholder('uuid')), isNull(assemblies.deletedAt)))
      .prepare(),
  );
}

/**
 * Adds every delta of `batch` (a JSON array of [id, delta]) to `assembly_views` in one statement, so
 * a flush is one round trip to a libSQL server however many assemblies it covers; returns the new
 * stored counts of the live ones (a trashed or purged assembly is not updated and not returned).
 * Each id is a primary-key lookup in both tables; the `+` keeps the `deleted_at` index out of the
 * plan, where SQLite would otherwise walk the live rows and scan the batch for each (a test checks
 * the plan). A trigger (migration 0017) moves the sort=hottest key of `assemblies` only when the
 * views change its rounded interaction term, so a flush rewrites the narrow rows alone.
 */
export function viewFlushStatement(batch: string): SQL {
  return sql`
    update ${assemblyViews} set views = ${assemblyViews}.views + counted.delta
    from (select value ->> 0 as id, value ->> 1 as delta from json_each(${batch})) as counted
    join ${assemblies} on ${assemblies}.id = counted.id and +${assemblies}.deleted_at is null
    where ${assemblyViews}.assembly_id = counted.id
    returning assembly_id as id, views`;
}

/**
 * Assembly views, counted in memory and written in one statement per second, so that reading an
 * assembly is not a database write. A count this process knows (`stored` + what it counted since)
 * answers without a query; the first read after a flush asks the database once, which also brings in
 * the views other instances have written. Whatever is not yet written when the process dies is lost
 * (at most VIEW_FLUSH_INTERVAL_MS of views); a graceful stop writes it.
 */
export class ViewCounter {
  private readonly counts = new Map<string, TCount>();

  /** The count this process knows, or undefined (then the caller reads the stored one and passes it to `learn`). */
  current(uuid: string): number | undefined {
    const count = this.counts.get(uuid);
    return count && count.stored + count.flushing + count.pending;
  }

  /** Records the stored count just read from the database (assembly `id`); returns the count with what is not yet written. */
  learn(uuid: string, id: number, stored: number): number {
    const count = this.counts.get(uuid);
    if (!count) {
      this.counts.set(uuid, { id, stored, pending: 0, flushing: 0 });
      return stored;
    }
    count.stored = stored;
    return stored + count.flushing + count.pending;
  }

  /** Counts one view of an assembly whose count is known (`current` or `learn` first); returns the new count. */
  record(uuid: string): number {
    const count = this.counts.get(uuid);
    if (!count) throw new Error(`ViewCounter.record(${uuid}) before its count was known`);
    count.pending++;
    return count.stored + count.flushing + count.pending;
  }

  /**
   * Counts one view of an assembly whose count this process knows, returning the new count; undefined
   * (nothing counted) when it does not: a replayed answer (stored-answers.ts) then runs the read instead.
   */
  recordKnown(uuid: string): number | undefined {
    return this.counts.has(uuid) ? this.record(uuid) : undefined;
  }

  /** The id and stored count of a live (not trashed) assembly, or undefined. */
  async readStored(db: TDb, uuid: string): Promise<{ id: number; views: number } | undefined> {
    const [row] = await storedViewsQuery(db).all({ uuid });
    return row && { id: row.id, views: Number(row.views) };
  }

  /** The flush under way, if any: flushes run one after the other, never interleaved (see flush). */
  private lastFlush: Promise<unknown> = Promise.resolve();

  /**
   * Writes every pending count, VIEW_FLUSH_CHUNK assemblies per statement with a turn of the event
   * loop between statements, and forgets the counts with nothing pending, so their next read fetches
   * what other instances wrote. On failure the views not yet written stay pending for the next flush.
   * A flush asked for while one runs starts when it ends (the job runner never overlaps them, but the
   * stop and tests may call it directly).
   */
  flush(db: TDb): Promise<number> {
    const run = this.lastFlush.then(() => this.flushNow(db));
    this.lastFlush = run.catch(() => undefined);
    return run;
  }

  private async flushNow(db: TDb): Promise<number> {
    // In id order: consecutive rows share the pages of both tables' b-trees.
    const batch = [...this.counts].filter(([, count]) => count.pending > 0).sort(([, a], [, b]) => a.id - b.id);
    for (const [uuid, count] of this.counts) if (count.pending === 0 && count.flushing === 0) this.counts.delete(uuid);
    if (batch.length === 0) return 0;
    for (const [, count] of batch) {
      count.flushing = count.pending;
      count.pending = 0;
    }
    let done = 0;
    try {
      while (done < batch.length) {
        // Between statements the requests waiting behind this one are answered (better-sqlite3 runs it synchronously).
        if (done > 0) await new Promise((resolve) => setImmediate(resolve));
        const chunk = batch.slice(done, done + VIEW_FLUSH_CHUNK);
        const rows = await db.all<{ id: number; views: number }>(
          viewFlushStatement(JSON.stringify(chunk.map(([, count]) => [count.id, count.flushing]))),
        );
        const written = new Map(rows.map((row) => [Number(row.id), Number(row.views)]));
        for (const [uuid, count] of chunk) {
          const views = written.get(count.id);
          count.flushing = 0;
          // Trashed or purged meanwhile: its views go with it.
          if (views === undefined) this.counts.delete(uuid);
          else count.stored = views;
        }
        done += chunk.length;
      }
      return batch.length;
    } catch (error) {
      for (const [, count] of batch.slice(done)) {
        count.pending += count.flushing;
        count.flushing = 0;
      }
      throw error;
    }
  }
}
