import { suite as uvuSuite, type Callback, type Test } from 'uvu';

/** How long each test took, by "suite > test": test/run.ts prints the slowest, to watch CI's time budget. */
export const testDurationsMs = new Map<string, number>();

/** The hooks that failed in the suite running now ('before hook of "suite"'); test/run.ts takes them after each suite. */
let failedHooks: string[] = [];

/** The hooks that failed since the last call; suites run one at a time, so these are the last suite's. */
export function takeFailedHooks(): string[] {
  const taken = failedHooks;
  failedHooks = [];
  return taken;
}

function reportHookError(hook: string, error: unknown): void {
  failedHooks.push(hook);
  console.error(`\n  ${hook} failed:\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
}

/**
 * uvu's `suite`, with two additions:
 * - A `before` or `after` hook that throws is reported and counted. uvu runs the hooks inside a try whose
 *   finally returns, so a `before` hook's error was dropped: the suite showed "(0 / N)" with no reason, and
 *   the run still exited 0. An `after` hook's error escaped that finally and ended the whole run. Here the
 *   error is printed, with the suite's name and its stack, and recorded for test/run.ts, which marks the
 *   suite failed (uvu then counts the tests a `before` hook kept from running as not passed).
 * - Each test is timed (testDurationsMs).
 */
export function suite<T = Record<string, unknown>>(name: string, context?: T): Test<T> {
  const test = uvuSuite<T>(name, context);
  const timed =
    (handler: Callback<T>, testName: string): Callback<T> =>
    async (state) => {
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
        reportHookError(`before hook of "${name}"`, error);
        // uvu stops the suite: none of its tests runs on a half-made state.
        throw error;
      }
    })) as Test<T>['before'];
  before.each = test.before.each;
  const after = ((hook) =>
    test.after(async (state) => {
      try {
        await hook(state);
      } catch (error) {
        // Not thrown on: uvu would end the run there, with no totals.
        reportHookError(`after hook of "${name}"`, error);
      }
    })) as Test<T>['after'];
  after.each = test.after.each;
  return Object.assign((testName: string, handler: Callback<T>) => test(testName, timed(handler, testName)), {
    only: (testName: string, handler: Callback<T>) => test.only(testName, timed(handler, testName)),
    skip: test.skip,
    before,
    after,
    run: test.run,
  });
}
