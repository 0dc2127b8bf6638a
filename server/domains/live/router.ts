// tRPC subscriptions over SSE (httpSubscriptionLink): the live events, each with its id (tracked), so a
// client that reconnects resumes after the last one it got, within the bus's window, or is told of a gap.
import { tracked } from '@trpc/server';
import { isRefusal } from '../../infra/events/connections';
import { abortError, EventQueue } from '../../infra/events/queue';
import { publicProcedure, router } from '../../trpc';
import { liveRefusal } from './refusal';
import { LIVE_TOPICS, type TLiveEvent, ZLiveEventsInput } from './schemas';

export const liveRouter = router({
  events: publicProcedure.input(ZLiveEventsInput).subscription(async function* ({ input, ctx, signal }) {
    const { events, liveConnections, config } = ctx.deps;
    const queue = new EventQueue(config.LIVE_MAX_BUFFERED_BYTES);
    const slot = liveConnections.open(ctx.request.clientIp, {
      // tRPC sends the heartbeats (its ping events); a dead peer's socket is found by TCP keep-alive (trpc-http/handler.ts).
      heartbeat: () => undefined,
      // Ends the stream without an error event: the client reconnects, elsewhere, and resumes.
      close: () => queue.fail(abortError('the server is shutting down')),
      destroy: () => queue.fail(abortError('the server is shutting down')),
    });
    if (isRefusal(slot)) throw liveRefusal(slot);
    const subscription = events.subscribe(
      input?.topics ?? LIVE_TOPICS,
      (event) => queue.push(event),
      input?.lastEventId,
    );
    const stop = () => queue.finish();
    signal?.addEventListener('abort', stop);
    try {
      for (;;) {
        const event = await queue.next();
        if (!event) return;
        const { id, topic, type, at, data } = event;
        yield tracked(id, { id, topic, type, at, data } as TLiveEvent);
      }
    } finally {
      signal?.removeEventListener('abort', stop);
      subscription.unsubscribe();
      slot.release();
    }
  }),
});
