import { suite as uvuSuite, type Callback, type Test } from 'uvu';

/** How long each test took, by "suite > test": test/run.ts prints the slowest, to watch CI's time budget. */
export const testDurationsMs = new Map<string, number>();

/**
 * uvu's `suite`, with two additions:
 * - A `before` hook that throws is reported. uvu runs the hooks inside a try whose finally returns, so
 *   the error was dropped and the suite only showed "(0 / N)" with no reason. Here the hook's error is
 *   printed, with the suite's name and its stack, before uvu counts the suite's tests as failed.
 * - Each test is timed (testDurationsMs).
 */
export function suite<T = Record<string, unknown>>(name: string, context?: T): Test<T> {
  const test = uvuSuite<T>(name, context);
  const timed = (handler: Callback<T>, testName: string): Callback<T> => async (state) => {
    const started = performance.now();
    try {
      await handler(state);
    } finally {
      testDurationsMs.set(`${name} > ${testName}`, performance.now() - started);
    }
  };
  const before = ((hook) =>
    test.before(async (state) => {
      try {
        await hook(state);
      } catch (error) {
        console.error(`\n  before hook of "${name}" failed:\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        throw error;
      }
    })) as Test<T>['before'];
  before.each = test.before.each;
  return Object.assign((testName: string, handler: Callback<T>) => test(testName, timed(handler, testName)), {
    only: (testName: string, handler: Callback<T>) => test.only(testName, timed(handler, testName)),
    skip: test.skip,
    before,
    after: test.after,
    run: test.run,
  });
}
