// The one event bus of the live streams: what happened (a team-up published, a war snapshot, a drop
// starting), in one order, to every subscriber of this instance, and through Redis to every instance
// (redis-transport.ts). The doors (the web client's WebSocket, GET /api/events, tRPC subscriptions)
// read it; each keeps its own connections and limits (connections.ts).
import type { TLogger } from '../../logger';
import type { TExpiringKeys } from '../expiring-keys';
import { EventWindow } from './window';

/** One event as every door sends it. `json` is the whole event as JSON text, built once for all readers. */
export interface TBusEvent {
  id: string;
  topic: string;
  type: string;
  /** When it was published (ISO-8601). */
  at: string;
  data: unknown;
  json: string;
}

/** The event a subscriber gets first when it resumes from an id the window no longer holds (or never held). */
export const GAP_TYPE = 'gap';
export const GAP_TOPIC = 'live';

export type TDeliver = (event: TBusEvent) => void;

export interface TSubscription {
  unsubscribe(): void;
}

/** How events leave this instance for the others (Redis), and come back in one order to all of them. */
export interface TEventTransport {
  /** False while this instance may miss others' events (Redis down): publishing stays in this instance. */
  readonly live: boolean;
  /** Sends `body` (the event's JSON without its id) to every instance, this one included; resolves with its id. */
  send(body: string): Promise<string>;
}

/** Subscribers served in one turn of the event loop (a delivery round). */
export const DELIVERY_SLICE = 128;

/** The id of a gap event when the window holds no event. */
export const EMPTY_WINDOW_ID = '0-0';

/** How long publishOnce remembers a key: far longer than any instance takes to notice the same thing. */
export const ONCE_HOLD_MS = 10 * 60 * 1000;

export { RESUME_WINDOW_MAX_BYTES } from './window';

interface TSubscriber {
  deliver: TDeliver;
  topics: ReadonlySet<string>;
  /** It has every event up to this position (replayed, or from before it subscribed). */
  upTo: number;
}

/** `{"topic":…}` with `"id":…` first: the JSON text of an event from its id and the body that travelled without it. */
function withId(id: string, body: string): string {
  return `{"id":${JSON.stringify(id)},${body.slice(1)}`;
}

/**
 * Events in one order (EventWindow): kept for resuming, and delivered in rounds. A subscriber that gives
 * the id of an event still in the window gets every later event of its topics first; one whose id the
 * window does not hold gets a `gap` event (then goes on live), so it knows to read the current state again.
 *
 * A round hands every event accepted since the last round to every subscriber, subscriber by subscriber,
 * DELIVERY_SLICE of them per turn of the event loop: requests are answered between slices, and a
 * subscriber's events of one round are written in one go (one system call where there would be one per
 * event). At a low rate a round holds one event; when events come faster than 10,000 writes take, rounds
 * hold more, so the cost per event falls as the rate rises (bench/live.ts). Nothing queues outside the
 * window: events it drops before their round are a gap.
 */
export class EventBus {
  private readonly window: EventWindow;
  private readonly subscribers = new Set<TSubscriber>();
  /** Position of the last event handed to the subscribers. */
  private delivered = -1;
  private gapPending = false;
  private delivering = false;
  private localSequence = 0;
  private lastLocalMs = 0;
  private transport: TEventTransport | undefined;
  /** When this bus was made (the service clock): what this instance notices by itself, it notices from then on. */
  readonly startedAtMs: number;

  constructor(
    private readonly options: {
      resumeEvents: number;
      logger: TLogger;
      now: () => Date;
      /** Appended to ids made in this instance when several instances share the bus, so that they cannot collide. */
      localIdSuffix?: string;
      /** Who has published what (publishOnce): in Redis when several instances share the bus. */
      once: TExpiringKeys;
    },
  ) {
    this.window = new EventWindow(options.resumeEvents);
    this.startedAtMs = options.now().getTime();
  }

  /** Connects the transport to the other instances (redis-transport.ts); without one, events stay in this instance. */
  connect(transport: TEventTransport): void {
    this.transport = transport;
  }

  /** Whether events published now reach the subscribers of every instance (false: this instance's only). */
  get reachesAllInstances(): boolean {
    return this.transport?.live ?? false;
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** The id of the newest event in the window, if any. */
  get newestId(): string | undefined {
    return this.window.newestId;
  }

  /**
   * Publishes an event. Through the transport when it is live (every instance, this one included, gets it
   * from there, in the same order); otherwise, or if sending fails, to this instance's subscribers only.
   * Never rejects: what is published after a committed write must not turn the write into an error.
   */
  async publish(topic: string, type: string, data: unknown): Promise<string> {
    const body = JSON.stringify({ topic, type, at: this.options.now().toISOString(), data });
    if (this.transport?.live) {
      try {
        return await this.transport.send(body);
      } catch (error) {
        this.options.logger.warn(
          { err: error, topic, type },
          'events: could not send through Redis; this instance only',
        );
      }
    }
    const id = this.nextLocalId();
    this.accept(id, body);
    return id;
  }

  /**
   * Publishes an event unless this instance or another already did under `key` in the last
   * ONCE_HOLD_MS: for what every instance notices by itself (a team-up expiring, a war snapshot
   * arriving, a drop starting), so that each such event goes out once. Resolves with whether it did.
   */
  async publishOnce(key: string, topic: string, type: string, data: unknown): Promise<boolean> {
    const nowMs = this.options.now().getTime();
    const claim = await this.options.once.claim(key, nowMs + ONCE_HOLD_MS, nowMs);
    if (!claim.claimed) return false;
    await this.publish(topic, type, data);
    return true;
  }

  /** Takes an event with its id (from the transport, or made here): into the window, then to its subscribers. */
  accept(id: string, body: string): void {
    if (this.window.has(id)) return;
    const parsed = JSON.parse(body) as Omit<TBusEvent, 'id' | 'json'>;
    this.window.add({
      id,
      topic: parsed.topic,
      type: parsed.type,
      at: parsed.at,
      data: parsed.data,
      json: withId(id, body),
    });
    if (!this.delivering) this.deliverRound();
  }

  /**
   * Subscribes to `topics`. With `lastEventId`, first the window's later events of those topics, or a
   * gap event when the window does not hold that id; all of it synchronously, before any live event.
   */
  subscribe(topics: Iterable<string>, deliver: TDeliver, lastEventId?: string): TSubscription {
    const subscriber: TSubscriber = { deliver, topics: new Set(topics), upTo: this.window.newestPosition };
    if (lastEventId !== undefined && lastEventId !== '') {
      const position = this.window.positionOf(lastEventId);
      if (position === undefined) this.deliverSafely(deliver, this.gapEvent(lastEventId));
      else {
        for (const event of this.window.between(position + 1, subscriber.upTo)) {
          if (subscriber.topics.has(event.topic)) this.deliverSafely(deliver, event);
        }
      }
    }
    this.subscribers.add(subscriber);
    return { unsubscribe: () => this.subscribers.delete(subscriber) };
  }

  /**
   * After this instance may have missed events (Redis came back after an outage): the window is
   * emptied, so no resume can skip what was missed, and every subscriber is told of the gap.
   */
  resync(): void {
    this.window.clear();
    this.delivered = this.window.newestPosition;
    this.gapPending = true;
    if (!this.delivering) this.deliverRound();
  }

  /** A round: every event since the last one, to every subscriber, DELIVERY_SLICE subscribers per turn. */
  private deliverRound(): void {
    const to = this.window.newestPosition;
    const from = this.delivered + 1;
    // Events the window dropped before their round (a backlog past LIVE_RESUME_EVENTS) are a gap.
    const gap = this.gapPending || from < this.window.firstPosition ? this.gapEvent(undefined) : undefined;
    this.gapPending = false;
    if (to < from && !gap) return;
    this.delivering = true;
    this.delivered = to;
    const events = this.window.between(from, to);
    const targets = [...this.subscribers];
    const slice = (start: number) => {
      for (let index = start; index < Math.min(start + DELIVERY_SLICE, targets.length); index++) {
        const subscriber = targets[index]!;
        // Gone since the round began (its connection closed): nothing more to it.
        if (!this.subscribers.has(subscriber)) continue;
        if (gap) this.deliverSafely(subscriber.deliver, gap);
        for (let offset = 0; offset < events.length; offset++) {
          const event = events[offset]!;
          if (from + offset > subscriber.upTo && subscriber.topics.has(event.topic)) {
            this.deliverSafely(subscriber.deliver, event);
          }
        }
        subscriber.upTo = Math.max(subscriber.upTo, to);
      }
      if (start + DELIVERY_SLICE < targets.length) setImmediate(() => slice(start + DELIVERY_SLICE));
      else {
        this.delivering = false;
        // Events accepted during this round: the next round.
        if (this.window.newestPosition > this.delivered || this.gapPending) setImmediate(() => this.deliverRound());
      }
    };
    slice(0);
  }

  private gapEvent(lastEventId: string | undefined): TBusEvent {
    // Its id is the newest event's: a client that keeps it resumes from there next time, without another
    // gap. With an empty window, EMPTY_WINDOW_ID (never an event's; tRPC refuses an empty id).
    const id = this.window.newestId ?? EMPTY_WINDOW_ID;
    const data = { lastEventId: lastEventId ?? null, reason: 'events were missed: read the current state again' };
    const body = JSON.stringify({ topic: GAP_TOPIC, type: GAP_TYPE, at: this.options.now().toISOString(), data });
    return { id, topic: GAP_TOPIC, type: GAP_TYPE, at: '', data, json: withId(id, body) };
  }

  private deliverSafely(deliver: TDeliver, event: TBusEvent): void {
    try {
      deliver(event);
    } catch (error) {
      this.options.logger.error({ err: error, type: event.type }, 'events: a subscriber failed to take an event');
    }
  }

  /** `ms-seq` as Redis stream ids read, increasing in this instance even if the clock steps back. */
  private nextLocalId(): string {
    const ms = Math.max(Date.now(), this.lastLocalMs);
    this.localSequence = ms === this.lastLocalMs ? this.localSequence + 1 : 0;
    this.lastLocalMs = ms;
    return `${ms}-${this.localSequence}${this.options.localIdSuffix ?? ''}`;
  }
}
