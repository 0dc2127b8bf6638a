// Shared set-up of the limits-per-call suites: a test server taking big tRPC batches, counting the
// answers by status, and client addresses of their own.
import { startTestServer, type TTestServer } from '../support/helpers';
import { suite } from '../support/suite';

export type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

const BIG_BATCHES = { TRPC_MAX_BATCH_SIZE: 100 } as const;

/**
 * A suite on a test server of its own that takes batches of 100 calls, with `overrides` for the limits
 * under test; `setUp` then completes the context (accounts, catalogs).
 */
export function limitsSuite<TExtra extends object = object>(
  name: string,
  overrides: Parameters<typeof startTestServer>[0] = {},
  setUp?: (context: { app: TTestServer } & TExtra) => Promise<void>,
) {
  const tests = suite<{ app: TTestServer } & TExtra>(name);
  tests.before(async (context) => {
    context.app = await startTestServer({ ...BIG_BATCHES, ...overrides });
    await setUp?.(context);
  });
  tests.after(async (context) => {
    await context.app.stop();
  });
  return tests;
}

/** How many answers had each status. */
export function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

export function repeat<T>(n: number, make: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => make(i));
}

/** A client address of its own (the servers that use it trust one proxy hop), so tests do not share limits. */
let clientCounter = 0;
export function newClient(): string {
  clientCounter++;
  return `198.51.${Math.floor(clientCounter / 250)}.${(clientCounter % 250) + 1}`;
}
