// Every open live stream of this instance (WebSocket, GET /api/events, tRPC subscriptions): the limits on
// how many a client address and the instance may hold, one timer for all their heartbeats, and their
// proper end when the server stops.

/** What a door gives for each stream it opens. */
export interface TLiveStream {
  /** Sends a heartbeat, and closes the stream if its peer has not shown life since the last one. */
  heartbeat(): void;
  /** Ends the stream properly (a close frame, the end of the response); it then releases its slot. */
  close(): void;
  /** Ends it at once, for a peer that did not finish closing in time. */
  destroy(): void;
}

export type TSlot = { release(): void };
export type TRefusal = { refused: 'per-client' | 'total' | 'closing'; message: string };

/** Whether `open` refused the stream. */
export function isRefusal(result: TSlot | TRefusal): result is TRefusal {
  return 'refused' in result;
}

/** How long closeAll waits for destroyed streams to give their slots back. */
const DESTROY_GRACE_MS = 1000;

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return settled;
}

export class LiveConnections {
  private readonly perClient = new Map<string, number>();
  private readonly streams = new Set<TLiveStream>();
  private timer: NodeJS.Timeout | undefined;
  private closing = false;
  private emptied: (() => void) | undefined;

  constructor(private readonly options: { maxPerClient: number; maxTotal: number; heartbeatMs: number }) {}

  get count(): number {
    return this.streams.size;
  }

  /** Takes a slot for a stream of `clientIp`; its release (once, whatever calls it) gives it back. */
  open(clientIp: string, stream: TLiveStream): TSlot | TRefusal {
    if (this.closing) return { refused: 'closing', message: 'The server is shutting down; reconnect' };
    const held = this.perClient.get(clientIp) ?? 0;
    if (held >= this.options.maxPerClient) {
      return {
        refused: 'per-client',
        message: `At most ${this.options.maxPerClient} live streams per client address (LIVE_MAX_CONNECTIONS_PER_CLIENT)`,
      };
    }
    if (this.streams.size >= this.options.maxTotal) {
      return { refused: 'total', message: 'This instance holds as many live streams as it may; retry later' };
    }
    this.perClient.set(clientIp, held + 1);
    this.streams.add(stream);
    this.timer ??= setInterval(() => this.beat(), this.options.heartbeatMs).unref();
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.streams.delete(stream);
        const left = (this.perClient.get(clientIp) ?? 1) - 1;
        if (left <= 0) this.perClient.delete(clientIp);
        else this.perClient.set(clientIp, left);
        if (this.streams.size === 0) {
          clearInterval(this.timer);
          this.timer = undefined;
          this.emptied?.();
        }
      },
    };
  }

  /**
   * Refuses new streams and ends every open one properly; those whose peer has not finished closing
   * after `timeoutMs` are destroyed. Resolves once all are gone.
   */
  async closeAll(timeoutMs: number): Promise<void> {
    this.closing = true;
    if (this.streams.size === 0) return;
    const gone = new Promise<void>((resolve) => {
      this.emptied = resolve;
    });
    for (const stream of [...this.streams]) stream.close();
    if (await settlesWithin(gone, timeoutMs)) return;
    for (const stream of [...this.streams]) stream.destroy();
    // A stream's slot comes back when its socket has closed: a moment, unless the socket is stuck elsewhere.
    await settlesWithin(gone, DESTROY_GRACE_MS);
  }

  private beat(): void {
    for (const stream of [...this.streams]) stream.heartbeat();
  }
}
