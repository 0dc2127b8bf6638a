import type { TReplicaReader } from './replica-reader';
import { TableMap, type TSchemaRow } from './replica-tables';

/** What brings the local file up to the primary: the replica's own thread (db/replica-sync-thread.ts). */
export interface TSyncer {
  /** Resolves with the frame the copy reached. */
  sync(): Promise<number>;
  /** Resolves once the syncer has stopped (after a sync under way). */
  close(): Promise<void>;
}

/**
 * Catching the copy up: at most one sync every CATCH_UP_GAP_MS while writes keep coming. Each sync
 * is a round trip to the primary and applying the frames it brings, on the replica's thread; under a
 * stream of writes the copy is behind again at once, so syncing back to back would spend that
 * thread's CPU for little, and reads meanwhile go to the primary.
 */
const CATCH_UP_GAP_MS = 25;
/** After a failed sync (the primary unreachable), the next catch-up waits this long. */
const CATCH_UP_RETRY_MS = 1000;

/**
 * An embedded replica (DATABASE_SYNC_URL): a local copy of a libSQL primary that @libsql/client keeps
 * in a file, synced on a thread of its own (db/replica-sync-worker.ts). Reads run on the copy, through
 * `reader`, a plain SQLite connection to the same file (db/replica-reader.ts), at embedded speed; writes, and every transaction, run
 * on the primary (db/outside-transactions.ts, db/remote.ts).
 *
 * What this class adds is the cross-instance rule: once a write is acknowledged on any instance, no
 * instance answers older data. Each write, before it answers, tells this instance and (through
 * `publish`, which the server sends on the Redis bus, server/server.ts) every other one which tables
 * it may have changed (db/replica-tables.ts), or that it may have changed any. Until a sync that
 * started after hearing of it has finished, the copy is behind for those tables: a read of any of
 * them goes to the primary instead, and the copy catches up in the background; reads of other tables
 * stay on the copy. The copy is behind for every table while this instance may have missed a message
 * (`mustSync`, the bus down), after a transaction (its statements are not followed one by one), and
 * until it knows the schema (read from the copy after each sync that changed it).
 *
 * Why not sync before the read, or after the write: a sync is a round trip to the primary and applying
 * what it brings (measured on loopback: 1.2 ms for one write's frames, 8 ms for ten, 46 ms for a
 * hundred); under a stream of writes every request would wait for one. A periodic sync keeps an idle
 * instance near the primary. The copy is not read before its first sync has finished.
 */
export class ReplicaSync {
  private localFrame = 0;
  /** Counts the writes heard of (this instance's own, and others' on the bus). */
  private heard = 0;
  /** `heard` at the last write that may have changed any table. */
  private heardForAll = 0;
  /** Per table, `heard` at the last write that may have changed it. */
  private readonly heardByTable = new Map<string, number>();
  /** `heard` as it stood when the last finished sync started: the writes that sync brought in. */
  private heardSynced = 0;
  private tables: TableMap | undefined;
  private schemaVersion: number | undefined;
  private lastSyncEnded = 0;
  private catchUpTimer: NodeJS.Timeout | undefined;
  private lastSyncFailed = false;
  private stopped = false;
  private running: Promise<number> | undefined;
  private queued: Promise<number> | undefined;
  private writeListener: ((tables: readonly string[] | 'all') => Promise<void>) | undefined;
  private mustSync: () => boolean = () => false;
  private timer: NodeJS.Timeout | undefined;
  private synced = false;
  private readerConnection: TReplicaReader | undefined;
  private closing: Promise<void> | undefined;

  /** `openReader` opens the plain connection to the file, once the first sync has made it. */
  constructor(
    private readonly syncer: TSyncer,
    private readonly openReader: () => TReplicaReader,
  ) {}

  /** Whether the copy holds every write heard of, and no message can have been missed. */
  get current(): boolean {
    return this.synced && this.heard <= this.heardSynced && !this.mustSync();
  }

  /** Whether `sql`, a read, may run on the copy: it holds every write heard of to the tables it reads. */
  currentFor(sql: string): boolean {
    if (!this.synced || !this.tables || this.heardForAll > this.heardSynced || this.mustSync()) return false;
    if (this.heard <= this.heardSynced) return true;
    // A read naming no table (a pragma, a function) may depend on any: only a copy holding every write answers it.
    const tables = this.tables.readBy(sql);
    if (tables.length === 0) return false;
    for (const table of tables) if ((this.heardByTable.get(table) ?? 0) > this.heardSynced) return false;
    return true;
  }

  /** The connection that reads the copy (only once a sync has finished: see `current`, `readable`). */
  get reader(): TReplicaReader {
    if (!this.synced) throw new Error('the database replica is read before its first sync');
    this.readerConnection ??= this.openReader();
    return this.readerConnection;
  }

  /** The reader, after a sync (for a check or a copy of the whole file: the backup, the integrity check). */
  async readable(): Promise<TReplicaReader> {
    await this.sync();
    return this.reader;
  }

  /**
   * Brings the copy up to the primary. A sync under way may have asked the primary before the
   * caller's reason to sync arose, so a caller arriving meanwhile gets the next one, which every
   * caller arriving meanwhile shares: at most one sync runs and one waits, however many ask.
   */
  sync(): Promise<number> {
    if (!this.running) {
      this.running = this.runSync();
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        this.running = this.runSync();
        return this.running;
      });
    return this.queued;
  }

  private runSync(): Promise<number> {
    const heard = this.heard;
    const run: Promise<number> = this.syncer
      .sync()
      .then(async (frame) => {
        if (frame > this.localFrame) this.localFrame = frame;
        this.synced = true;
        await this.learnSchema();
        if (heard > this.heardSynced) this.heardSynced = heard;
        return this.localFrame;
      })
      .then(
        (frame) => {
          this.lastSyncFailed = false;
          return frame;
        },
        (error: unknown) => {
          this.lastSyncFailed = true;
          throw error;
        },
      )
      .finally(() => {
        this.lastSyncEnded = Date.now();
        if (this.running === run) this.running = undefined;
      });
    return run;
  }

  /**
   * Reads the copy's schema when it changed (at the first sync, and after a migration): which tables
   * a write may change. Until it is known, a read of any table goes to the primary; when it changed,
   * the writes heard of meanwhile were weighed against the old one, so the copy is behind for all.
   */
  private async learnSchema(): Promise<void> {
    const reader = this.reader;
    const [version] = (await reader.execute('PRAGMA schema_version')).rows;
    const schemaVersion = Number(version?.[0]);
    if (schemaVersion === this.schemaVersion) return;
    const schema = await reader.execute('SELECT type, name, tbl_name, sql FROM sqlite_master');
    const changed = this.schemaVersion !== undefined;
    this.schemaVersion = schemaVersion;
    this.tables = new TableMap(schema.rows as unknown as TSchemaRow[]);
    if (changed) this.markBehind('all');
  }

  /** Marks the copy behind for `tables`, or for every table: until a sync that starts from now has finished. */
  private markBehind(tables: Iterable<string> | 'all'): void {
    const heard = ++this.heard;
    if (tables === 'all') this.heardForAll = heard;
    else for (const table of tables) this.heardByTable.set(table, heard);
    this.catchUp();
  }

  /**
   * Another instance wrote to `tables` (or to any): the copy is behind for them, and for what a change
   * of them changes in turn here, or for all when one of them is unknown here (a newer schema's, a
   * message of an older version).
   */
  require(tables: readonly string[] | 'all'): void {
    this.markBehind(tables === 'all' ? 'all' : (this.closedOver(tables) ?? 'all'));
  }

  /** `tables` and every table a change of them changes in turn; undefined when one of them is unknown here. */
  private closedOver(tables: readonly string[]): Set<string> | undefined {
    if (!this.tables) return undefined;
    const changed = new Set<string>();
    for (const table of tables) {
      const reached = this.tables.changedWith(table);
      if (!reached) return undefined;
      for (const each of reached) changed.add(each);
    }
    return changed;
  }

  /**
   * Called once a write is committed on the primary, before it answers: this copy is behind for the
   * tables `statements` may have changed (all of them when unknown: a transaction, a schema change),
   * and the other instances are told.
   */
  async afterWrite(statements?: readonly string[]): Promise<void> {
    // The tables a statement may change are already closed over triggers and foreign keys.
    const tables = statements && this.tables ? this.changedBy(this.tables, statements) : 'all';
    this.markBehind(tables);
    await this.writeListener?.(tables);
  }

  private changedBy(map: TableMap, statements: readonly string[]): readonly string[] | 'all' {
    const tables = new Set<string>();
    for (const sql of statements) {
      const changed = map.changedBy(sql);
      if (changed.length === 0 || /^\s*(create|drop|alter)\b/i.test(sql)) return 'all';
      for (const table of changed) tables.add(table);
    }
    return [...tables];
  }

  /**
   * Starts a sync soon, unless one is due already (CATCH_UP_GAP_MS), so a stream of writes costs at
   * most one sync per gap, not one each. Failures leave the copy behind (reads keep going to the
   * primary) and are retried a second later, or on the periodic tick.
   */
  private catchUp(): void {
    if (this.catchUpTimer || this.stopped) return;
    const gap = this.lastSyncFailed ? CATCH_UP_RETRY_MS : CATCH_UP_GAP_MS;
    const wait = Math.max(0, this.lastSyncEnded + gap - Date.now());
    this.catchUpTimer = setTimeout(() => {
      void this.sync()
        .catch(() => undefined)
        .finally(() => {
          this.catchUpTimer = undefined;
          if (this.heard > this.heardSynced) this.catchUp();
        });
    }, wait);
    this.catchUpTimer.unref();
  }

  /**
   * Wires the copy to the other instances: `publish` tells them of a write (resolves once it is
   * sent), `mustSync` says when this instance may have missed their messages.
   */
  connect(options: { publish: (tables: readonly string[] | 'all') => Promise<void>; mustSync: () => boolean }): void {
    this.writeListener = options.publish;
    this.mustSync = options.mustSync;
  }

  /** Syncs every `intervalMs` in the background (failures are retried on the next tick). */
  startPeriodicSync(intervalMs: number, onError: (error: unknown) => void): void {
    this.stopPeriodicSync();
    this.stopped = false;
    this.timer = setInterval(() => void this.sync().catch(onError), intervalMs);
    this.timer.unref();
  }

  /** Closes the reader and the replica's thread: resolves once the thread has ended. */
  close(): Promise<void> {
    this.stopPeriodicSync();
    if (this.readerConnection && !this.readerConnection.closed) this.readerConnection.close();
    this.closing ??= this.syncer.close();
    return this.closing;
  }

  /** Stops the periodic sync and the catching up (the server is closing). */
  stopPeriodicSync(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
    this.catchUpTimer = undefined;
  }
}
