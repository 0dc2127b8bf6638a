// The live streams' topics and events: one shape on every door (tRPC subscriptions, GET /api/events;
// the web client's WebSocket speaks its own protocol for team-ups, server/live/websocket.ts).
import { z } from 'zod';

export const LIVE_TOPICS = ['war', 'drops', 'teamups'] as const;
export type TLiveTopic = (typeof LIVE_TOPICS)[number];

export const ZLiveTopic = z.enum(LIVE_TOPICS, { error: `must be one of ${LIVE_TOPICS.join(', ')}` });

export const ZLastEventId = z
  .string()
  .max(128, 'must be at most 128 characters')
  .regex(/^[^\0\n\r]*$/, 'must be one line')
  .meta({ description: 'The id of the last event received, to resume after it (what Last-Event-ID carries)' });

export const ZLiveEventsInput = z
  .strictObject({
    topics: z
      .array(ZLiveTopic)
      .min(1, 'must name at least one topic')
      .max(LIVE_TOPICS.length)
      .optional()
      .meta({ description: `Topics to receive (${LIVE_TOPICS.join(', ')}); all of them when absent` }),
    lastEventId: ZLastEventId.optional(),
  })
  .optional();

/** `war,drops` as GET /api/events reads its `topics` parameter: all of them when absent or empty. */
export const ZTopicList = z
  .string()
  .max(64, 'must be at most 64 characters')
  .transform((text) =>
    text
      .split(',')
      .map((topic) => topic.trim())
      .filter(Boolean),
  )
  .pipe(z.array(ZLiveTopic))
  .transform((topics) => (topics.length === 0 ? [...LIVE_TOPICS] : [...new Set(topics)]));

/** Every type of event a live stream carries. */
export const LIVE_EVENT_TYPES = [
  'war.snapshot',
  'drop.started',
  'drop.ended',
  'drop.changed',
  'teamup.published',
  'teamup.cancelled',
  'teamup.expired',
  'gap',
] as const;

/**
 * An event as the tRPC subscription yields it. `data` is by `type`: the new latest war state
 * (war.snapshot), the campaign (drop.*), the team-up (teamup.published), `{id}` (teamup.cancelled,
 * teamup.expired), `{lastEventId, reason}` (gap). The typed client package names each case
 * (`LiveEvent` of @tidewatch/client, from the procedures' own outputs); this type stays free of the
 * other domains' zod schemas, which a client's declarations must not import.
 */
export interface TLiveEvent {
  id: string;
  topic: TLiveTopic | 'live';
  type: (typeof LIVE_EVENT_TYPES)[number];
  /** When it was published (ISO-8601). */
  at: string;
  data: unknown;
}
