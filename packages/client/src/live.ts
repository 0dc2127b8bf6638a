/**
 * The live events (`live.events`, over Server-Sent Events), typed by what each event carries. The
 * server's subscription yields `{id, topic, type, at, data}`; `LiveEvent` names `data` for each `type`
 * from the procedures' own outputs (the same shapes as the reads), and `subscribeLive` hands them over so.
 */
import type { TRPCClient, TRPCClientError } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/router';

type Outputs = inferRouterOutputs<AppRouter>;
type Event<Topic extends string, Type extends string, Data> = {
  id: string;
  topic: Topic;
  type: Type;
  /** When it was published (ISO-8601). */
  at: string;
  data: Data;
};

/** One live event: the new latest war state, a drop campaign started, ended or written, a team-up published, cancelled or expired, or a gap (events were missed: read the current state again). */
export type LiveEvent =
  | Event<'war', 'war.snapshot', Outputs['war']['getLatest']>
  | Event<'drops', 'drop.started' | 'drop.ended' | 'drop.changed', Outputs['drop']['getItem']>
  | Event<'teamups', 'teamup.published', Outputs['teamup']['publish']>
  | Event<'teamups', 'teamup.cancelled' | 'teamup.expired', { id: string }>
  | Event<'live', 'gap', { lastEventId: string | null; reason: string }>;

export interface LiveHandlers {
  onEvent: (event: LiveEvent) => void;
  onStarted?: () => void;
  onError?: (error: TRPCClientError<AppRouter>) => void;
}

/**
 * Subscribes to `live.events` (all topics when `input.topics` is left out). A dropped stream reconnects
 * by itself and resumes after the last event received; `unsubscribe()` ends it.
 */
export function subscribeLive(
  client: TRPCClient<AppRouter>,
  input: inferRouterInputs<AppRouter>['live']['events'],
  handlers: LiveHandlers,
): { unsubscribe: () => void } {
  return client.live.events.subscribe(input, {
    onStarted: handlers.onStarted,
    onError: handlers.onError,
    onData: ({ data }) => handlers.onEvent(data as LiveEvent),
  });
}
