// GET /api/events: the live events as Server-Sent Events, for any client (curl, a bot, a browser's
// EventSource): the same events and ids as the tRPC subscription, resumed with Last-Event-ID.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { TRequestIdentity } from '../context';
import type { TAppDeps } from '../deps';
import { liveRefusal } from '../domains/live';
import { LIVE_TOPICS, ZLastEventId, ZTopicList } from '../domains/live/schemas';
import { AppError, issuesFromZod } from '../errors';
import { responseHeadOf } from '../http/response-head';
import type { TBusEvent } from '../infra/events/bus';
import { isRefusal } from '../infra/events/connections';
import { queryToObject } from '../rest/body';

const ZEventsQuery = z.strictObject({ topics: ZTopicList.optional(), lastEventId: ZLastEventId.optional() });

/** How long an EventSource waits before it reconnects (the `retry:` field), in ms. */
export const SSE_RETRY_MS = 3000;

/** The bytes of the last event, shared by every stream it goes to (an event is delivered to all in one loop). */
let lastEvent: TBusEvent | undefined;
let lastFrame: Buffer = Buffer.alloc(0);
function frameOf(event: TBusEvent): Buffer {
  if (event !== lastEvent) {
    lastEvent = event;
    lastFrame = Buffer.from(`id: ${event.id}\ndata: ${event.json}\n\n`);
  }
  return lastFrame;
}

const HEARTBEAT = Buffer.from(': heartbeat\n\n');

function readQuery(req: IncomingMessage, search: string) {
  const parsed = ZEventsQuery.safeParse(search === '' ? {} : queryToObject(new URLSearchParams(search)));
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error);
    throw new AppError('BAD_REQUEST', `Invalid input: ${issues[0]!.path || 'input'}: ${issues[0]!.message}`, {
      issues,
    });
  }
  const header = req.headers['last-event-id'];
  const fromHeader = typeof header === 'string' ? ZLastEventId.safeParse(header) : undefined;
  if (fromHeader && !fromHeader.success)
    throw new AppError('BAD_REQUEST', 'Invalid Last-Event-ID header: must be one line of at most 128 characters');
  return { topics: parsed.data.topics, lastEventId: fromHeader?.data ?? parsed.data.lastEventId };
}

/**
 * The handler of GET /api/events. A stream is bounded: a reader that lets LIVE_MAX_BUFFERED_BYTES pile
 * up is closed (slow consumer), one whose buffer did not drain between two heartbeats is closed (dead
 * peer), and shutdown ends every stream (the end of the chunked body) so clients reconnect elsewhere.
 */
export function createEventStream(deps: Pick<TAppDeps, 'events' | 'liveConnections' | 'config'>) {
  const { events, liveConnections, config } = deps;
  return (req: IncomingMessage, res: ServerResponse, search: string, identity: TRequestIdentity): void => {
    if (req.method !== 'GET') {
      responseHeadOf(res).set('allow', 'GET');
      throw new AppError('METHOD_NOT_SUPPORTED', `Method ${req.method} not allowed for /api/events; use GET`);
    }
    const { topics, lastEventId } = readQuery(req, search);
    let stalled = false;
    const end = () => {
      if (!res.writableEnded) res.end();
    };
    const slot = liveConnections.open(identity.clientIp, {
      heartbeat: () => {
        // Still holding bytes from the last heartbeat: the peer reads nothing (or is gone).
        if (res.writableLength > 0 && stalled) res.destroy();
        else {
          stalled = res.writableLength > 0;
          res.write(HEARTBEAT);
        }
      },
      close: end,
      destroy: () => res.destroy(),
    });
    if (isRefusal(slot)) throw liveRefusal(slot);
    req.socket.setKeepAlive(true, config.LIVE_HEARTBEAT_MS);
    req.socket.setNoDelay(true);
    const head = responseHeadOf(res);
    head.setAll({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    res.writeHead(200, head.fields as (string | number)[]);
    res.write(`retry: ${SSE_RETRY_MS}\n: connected\n\n`);
    const subscription = events.subscribe(
      topics ?? LIVE_TOPICS,
      (event) => {
        if (res.destroyed || res.writableEnded) return;
        if (res.writableLength > config.LIVE_MAX_BUFFERED_BYTES) {
          res.destroy();
          return;
        }
        res.write(frameOf(event));
      },
      lastEventId,
    );
    res.once('close', () => {
      subscription.unsubscribe();
      slot.release();
    });
  };
}
