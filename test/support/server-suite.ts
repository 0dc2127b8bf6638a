// A suite on a test server of its own: started (with `config` over the tests' defaults) and set up
// before its tests, stopped after them. The folders' suites (ordersSuite, commentsSuite, warSuite, ...)
// build on it; `tally` counts the statuses of the calls they make at once.
import { startTestServer, type TTestServer } from './helpers';
import { suite } from './suite';

export type TServerConfig = Parameters<typeof startTestServer>[0];

export function serverSuite<T extends object = object>(
  name: string,
  options: { config?: TServerConfig; setUp?: (context: { app: TTestServer } & T) => Promise<void> } = {},
) {
  const tests = suite<{ app: TTestServer } & T>(name);
  tests.before(async (context) => {
    context.app = await startTestServer(options.config);
    await options.setUp?.(context);
  });
  tests.after(async ({ app }) => app.stop());
  return tests;
}

/** How many answers had each status: { 200: 1, 400: 2 }. */
export function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
