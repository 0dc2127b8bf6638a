// Shared set-up of the tRPC surface suites (trpc-surface*.test.ts): the real @trpc/client with a batch link,
// and the loadout they publish.
import { createTRPCClient, httpBatchLink, type httpBatchStreamLink } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../server/router';
import type { TTestServer } from '../support/helpers';
import { HULK } from '../support/community-sample';

type TLink = typeof httpBatchLink | typeof httpBatchStreamLink;

export const LOADOUT = HULK;

/** A client of `app` sending up to 10 calls per batch over `link`, with `token` when given. */
export function batchClient(app: TTestServer, token: string | undefined, link: TLink = httpBatchLink) {
  return createTRPCClient<AppRouter>({
    links: [
      link({
        url: `${app.url}/trpc`,
        transformer: superjson,
        maxItems: 10,
        headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
      }),
    ],
  });
}
