// Shared set-up of the limits-per-call suites: a test server taking big tRPC batches, and client
// addresses of their own.
import type { TTestServer } from '../support/helpers';
import { serverSuite, type TServerConfig } from '../support/server-suite';

export type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

const BIG_BATCHES = { TRPC_MAX_BATCH_SIZE: 100 } as const;

/**
 * A suite on a test server of its own that takes batches of 100 calls, with `overrides` for the limits
 * under test; `setUp` then completes the context (accounts, catalogs).
 */
export function limitsSuite<TExtra extends object = object>(
  name: string,
  overrides: TServerConfig = {},
  setUp?: (context: { app: TTestServer } & TExtra) => Promise<void>,
) {
  return serverSuite<TExtra>(name, { config: { ...BIG_BATCHES, ...overrides }, setUp });
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
