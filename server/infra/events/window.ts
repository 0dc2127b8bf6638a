// The events an instance keeps, in the one order they were accepted: for resuming (a subscriber gives the
// id of the last event it got) and for delivering (everything after what was handed out last).
import type { TBusEvent } from './bus';

/** A window of at most this many bytes of events, whatever LIVE_RESUME_EVENTS says: a few war states are large. */
export const RESUME_WINDOW_MAX_BYTES = 8 * 1024 * 1024;

/** Each accepted event gets the next position; the window holds the last ones, up to its bounds. */
export class EventWindow {
  private readonly events: TBusEvent[] = [];
  private bytes = 0;
  private readonly positions = new Map<string, number>();
  /** Position of events[0]. */
  private first = 0;
  /** Position the next accepted event gets. */
  private next = 0;

  constructor(private readonly maxEvents: number) {}

  has(id: string): boolean {
    return this.positions.has(id);
  }

  /** Position of the newest event accepted (-1 before any). */
  get newestPosition(): number {
    return this.next - 1;
  }

  /** Position of the oldest event still held. */
  get firstPosition(): number {
    return this.first;
  }

  get newestId(): string | undefined {
    return this.events.at(-1)?.id;
  }

  /** Where `id` stands, or undefined when the window does not hold it. */
  positionOf(id: string): number | undefined {
    return this.positions.get(id);
  }

  /** Keeps `event`, dropping the oldest ones past the bounds; returns its position. */
  add(event: TBusEvent): number {
    const position = this.next++;
    this.positions.set(event.id, position);
    this.events.push(event);
    this.bytes += event.json.length;
    while (this.events.length > this.maxEvents || (this.bytes > RESUME_WINDOW_MAX_BYTES && this.events.length > 1)) {
      const dropped = this.events.shift()!;
      this.positions.delete(dropped.id);
      this.bytes -= dropped.json.length;
      this.first++;
    }
    return position;
  }

  /** The events held from position `from` to `to` (both included), in order. */
  between(from: number, to: number): TBusEvent[] {
    return this.events.slice(Math.max(0, from - this.first), Math.max(0, to - this.first + 1));
  }

  /** Forgets every event held (positions go on increasing). */
  clear(): void {
    this.events.length = 0;
    this.positions.clear();
    this.bytes = 0;
    this.first = this.next;
  }
}
