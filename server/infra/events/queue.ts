// The events waiting for one pull-based reader (a tRPC subscription, which takes the next event only once
// the previous one is written): bounded in bytes, so a reader that cannot keep up is ended, never
// given an unbounded queue.
import type { TBusEvent } from './bus';

/** An error tRPC treats as an abort: its stream ends without an error event, and the client reconnects and resumes. */
export function abortError(message: string): Error {
  return new DOMException(message, 'AbortError');
}

export class EventQueue {
  private readonly items: TBusEvent[] = [];
  private bytes = 0;
  private waiting: ((event: TBusEvent | undefined) => void) | undefined;
  private failWaiting: ((error: Error) => void) | undefined;
  private failure: Error | undefined;
  private finished = false;

  constructor(private readonly maxBytes: number) {}

  /** Queues an event; past `maxBytes` waiting, the queue fails instead (the reader is too slow). */
  push(event: TBusEvent): void {
    if (this.finished || this.failure) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      this.failWaiting = undefined;
      resolve(event);
      return;
    }
    if (this.bytes + event.json.length > this.maxBytes && this.items.length > 0) {
      this.fail(abortError('slow consumer: events waited past LIVE_MAX_BUFFERED_BYTES'));
      return;
    }
    this.items.push(event);
    this.bytes += event.json.length;
  }

  /** Ends the reader with `error` (after nothing more: queued events are dropped). */
  fail(error: Error): void {
    if (this.finished || this.failure) return;
    this.failure = error;
    this.items.length = 0;
    this.bytes = 0;
    this.failWaiting?.(error);
    this.waiting = undefined;
    this.failWaiting = undefined;
  }

  /** Ends the reader normally. */
  finish(): void {
    this.finished = true;
    this.waiting?.(undefined);
    this.waiting = undefined;
    this.failWaiting = undefined;
  }

  /** The next event; undefined once finished; throws once failed. */
  next(): Promise<TBusEvent | undefined> {
    if (this.failure) return Promise.reject(this.failure);
    const event = this.items.shift();
    if (event) {
      this.bytes -= event.json.length;
      return Promise.resolve(event);
    }
    if (this.finished) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failWaiting = reject;
    });
  }
}
