import type { Client } from '@libsql/client';

/**
 * An embedded replica (DATABASE_SYNC_URL): a local copy of a libSQL primary that @libsql/client keeps
 * in a file. Reads run on the copy at embedded speed; writes, and every transaction, run on the
 * primary (the client delegates them), and read-your-writes brings this copy up to each of them.
 *
 * What this class adds is the cross-instance rule: once a write is acknowledged on any instance, no
 * instance answers older data. Each write ends by syncing the copy and handing the primary's frame
 * number (its replication index) to `onWrite`, which the server publishes on the Redis bus before the
 * write's answer leaves (server/server.ts). Every instance raises `required` on that message, and a
 * read first syncs whenever its copy is behind what it has been told, or whenever it may have missed
 * a message (`mustSync`, the bus down). A periodic sync keeps an idle instance near the primary.
 */
export class ReplicaSync {
  private localFrame = 0;
  private required = 0;
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

  /**
   * Brings the copy up to the primary. A sync under way may have asked the primary before the
   * caller's reason to sync arose, so a caller arriving meanwhile gets the next one, which every
   * caller arriving meanwhile shares: at most one sync runs and one waits, however many reads ask.
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
    const run: Promise<number> = this.client
      .sync()
      .then((replicated) => {
        const frame = Number(replicated?.frame_no ?? 0);
        if (frame > this.localFrame) this.localFrame = frame;
        return this.localFrame;
      })
      .finally(() => {
        if (this.running === run) this.running = undefined;
      });
    return run;
  }

  /** Another instance wrote up to `frame`: the next read here syncs first if the copy is behind it. */
  require(frame: number): void {
    if (Number.isFinite(frame) && frame > this.required) this.required = frame;
  }

  /** Called before a statement runs on the copy. */
  async beforeRead(): Promise<void> {
    if (this.required > this.localFrame || this.mustSync()) await this.sync();
  }

  /** Called once a write (a statement that changed rows, or a transaction) is committed on the primary. */
  async afterWrite(): Promise<void> {
    const frame = await this.sync();
    await this.writeListener?.(frame);
  }

  /**
   * Wires the copy to the other instances: `publish` tells them a write's frame (resolves once it is
   * sent), `mustSync` says when this instance may have missed their messages.
   */
  connect(options: { publish: (frame: number) => Promise<void>; mustSync: () => boolean }): void {
    this.writeListener = options.publish;
    this.mustSync = options.mustSync;
  }

  /** Syncs every `intervalMs` in the background (failures are retried on the next tick). */
  startPeriodicSync(intervalMs: number, onError: (error: unknown) => void): void {
    this.stopPeriodicSync();
    this.timer = setInterval(() => void this.sync().catch(onError), intervalMs);
    this.timer.unref();
  }

  stopPeriodicSync(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
