import type { TReplicaReader } from './replica-reader';

/** What brings the local file up to the primary: the replica's own thread (db/replica-sync-thread.ts). */
export interface TSyncer {
  /** Resolves with the frame the copy reached. */
  sync(): Promise<number>;
  close(): void;
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
 * `onWrite`, which the server publishes on the Redis bus, server/server.ts) every other one that a
 * write exists that their copies may not hold. Until a sync that started after hearing of it has
 * finished, the copy is behind: reads go to the primary instead, and the copy catches up in the
 * background. So is it while this instance may have missed a message (`mustSync`, the bus down).
 *
 * Why not sync before the read, or after the write: a sync is a round trip to the primary and applying
 * what it brings (measured on loopback: 1.2 ms for one write's frames, 8 ms for ten, 46 ms for a
 * hundred); under a stream of writes every request would wait for one. A periodic sync keeps an idle
 * instance near the primary. The copy is not read before its first sync has finished.
 */
export class ReplicaSync {
  private localFrame = 0;
  /** Writes heard of (this instance's own, and others' on the bus) that the copy may not hold. */
  private heard = 0;
  /** `heard` as it stood when the last finished sync started: the writes that sync brought in. */
  private heardSynced = 0;
  private lastSyncEnded = 0;
  private catchUpTimer: NodeJS.Timeout | undefined;
  private lastSyncFailed = false;
  private stopped = false;
  private running: Promise<number> | undefined;
  private queued: Promise<number> | undefined;
  private writeListener: ((frame: number) => Promise<void>) | undefined;
  private mustSync: () => boolean = () => false;
  private timer: NodeJS.Timeout | undefined;
  private synced = false;
  private readerConnection: TReplicaReader | undefined;

  /** `openReader` opens the plain connection to the file, once the first sync has made it. */
  constructor(
    private readonly syncer: TSyncer,
    private readonly openReader: () => TReplicaReader,
  ) {}

  /** The frame this copy is known to have reached. */
  get frame(): number {
    return this.localFrame;
  }

  /** Whether a read may run on the copy: it holds every write heard of, and no message can have been missed. */
  get current(): boolean {
    return this.synced && this.heard <= this.heardSynced && !this.mustSync();
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
      .then((frame) => {
        if (frame > this.localFrame) this.localFrame = frame;
        if (heard > this.heardSynced) this.heardSynced = heard;
        this.synced = true;
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
   * Another instance wrote, up to `frame`: unless the copy is past it already, it is behind until a
   * sync that starts from now has finished. NaN: the writer did not know the frame.
   */
  require(frame: number): void {
    if (frame <= this.localFrame) return;
    this.heard++;
    this.catchUp();
  }

  /**
   * Called once a write (a statement that changed rows, or a transaction) is committed on the
   * primary, before it answers: this copy is behind, and the other instances are told.
   */
  async afterWrite(): Promise<void> {
    this.heard++;
    this.catchUp();
    await this.writeListener?.(Number.NaN);
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
  connect(options: { publish: (frame: number) => Promise<void>; mustSync: () => boolean }): void {
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

  /** Closes the reader and the replica's thread. */
  close(): void {
    this.stopPeriodicSync();
    if (this.readerConnection && !this.readerConnection.closed) this.readerConnection.close();
    this.syncer.close();
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
