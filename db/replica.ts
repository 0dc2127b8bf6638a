import type { Client } from '@libsql/client';

/**
 * Catching the copy up: at most one sync every CATCH_UP_GAP_MS while writes keep coming. A sync holds
 * the event loop (see below) for a round trip to the primary and for applying the frames it brings
 * (0.3 to 0.8 ms of CPU per write here, plus a quarter of one in sqld), so under a stream of writes
 * the copy is behind again at once: syncing more often would buy nothing, and waiting longer makes
 * each sync bring more frames and hold every request on the instance longer (measured: p99 of the
 * like toggle on two replicas 0.13 s at 25 ms, 0.2 s at 100 ms, 0.6 to 1 s when the gap grew with
 * the sync's length). Reads meanwhile go to the primary, a tenth of a sync's cost each.
 */
const CATCH_UP_GAP_MS = 25;
/** After a failed sync (the primary unreachable), the next catch-up waits this long. */
const CATCH_UP_RETRY_MS = 1000;

/**
 * An embedded replica (DATABASE_SYNC_URL): a local copy of a libSQL primary that @libsql/client keeps
 * in a file. Reads run on the copy at embedded speed; writes, and every transaction, run on the
 * primary (db/outside-transactions.ts, db/remote.ts).
 *
 * What this class adds is the cross-instance rule: once a write is acknowledged on any instance, no
 * instance answers older data. Each write, before it answers, tells this instance and (through
 * `onWrite`, which the server publishes on the Redis bus, server/server.ts) every other one that a
 * write exists that their copies may not hold. Until a sync that started after hearing of it has
 * finished, the copy is behind: reads go to the primary instead, and the copy catches up in the
 * background. So is it while this instance may have missed a message (`mustSync`, the bus down).
 *
 * Why not sync before the read, or after the write: @libsql/client's replica is synchronous
 * underneath, and a sync holds the event loop for a round trip to the primary and for applying what
 * it brings (measured on loopback: 1.2 ms for one write's frames, 8 ms for ten, 46 ms for a hundred).
 * Under a stream of writes every request would wait for one. A periodic sync keeps an idle instance near the primary.
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

  constructor(private readonly client: Client) {}

  /** The frame this copy is known to have reached. */
  get frame(): number {
    return this.localFrame;
  }

  /** Whether a read may run on the copy: it holds every write heard of, and no message can have been missed. */
  get current(): boolean {
    return this.heard <= this.heardSynced && !this.mustSync();
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
    const run: Promise<number> = this.client
      .sync()
      .then((replicated) => {
        const frame = Number(replicated?.frame_no ?? 0);
        if (frame > this.localFrame) this.localFrame = frame;
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

  /** Stops the periodic sync and the catching up (the server is closing). */
  stopPeriodicSync(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.catchUpTimer) clearTimeout(this.catchUpTimer);
    this.catchUpTimer = undefined;
  }
}
