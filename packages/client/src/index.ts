/**
 * @tidewatch/client: a typed tRPC client of Tidewatch. Only types come from the server (bundled into
 * dist/index.d.ts at build time); the published code needs @trpc/client and superjson alone.
 *
 *   const client = createTidewatchClient('http://127.0.0.1:3000', { token: () => session?.token });
 *   const page = await client.assembly.list.query({ page: 1, pageSize: 20 });
 *   subscribeLive(client, { topics: ['drops'] }, { onEvent: (event) => console.log(event.type, event.data) });
 */
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink, type TRPCClient } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import superjson from 'superjson';
import type { TLiveTopic } from '../../../server/domains/live/schemas';
import type { AppRouter } from '../../../server/router';
import { authorizationHeader, serverBase, type TidewatchClientOptions } from './token';

export { type LiveEvent, type LiveHandlers, subscribeLive } from './live';

export { TRPCClientError } from '@trpc/client';
export type { TidewatchClientOptions, TokenSource } from './token';
export type { AppRouter };
export type { TLiveTopic as LiveTopic };
/** Input of every procedure, e.g. `RouterInputs['assembly']['list']`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** Output of every procedure, e.g. `RouterOutputs['user']['me']`. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type TidewatchClient = TRPCClient<AppRouter>;

/** The server's default TRPC_MAX_BATCH_SIZE: a batch of more calls is refused with a 400. */
const MAX_BATCH_ITEMS = 10;

/**
 * A tRPC client of the server at `url` (its base address, e.g. http://127.0.0.1:3000). Calls made in
 * the same tick go out as one batched request (at most 10 calls each), with superjson on the wire.
 * Subscriptions (`live.events`) go over Server-Sent Events (httpSubscriptionLink): each event comes with
 * its id, and a dropped stream reconnects by itself and resumes after the last event it got.
 */
export function createTidewatchClient(url: string, options: TidewatchClientOptions = {}): TidewatchClient {
  const base = `${serverBase(url)}/trpc`;
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (operation) => operation.type === 'subscription',
        true: httpSubscriptionLink({
          url: base,
          transformer: superjson,
          ...(options.EventSource ? { EventSource: options.EventSource } : {}),
        }),
        false: httpBatchLink({
          url: base,
          maxItems: MAX_BATCH_ITEMS,
          transformer: superjson,
          headers: () => authorizationHeader(options.token),
        }),
      }),
    ],
  });
}
