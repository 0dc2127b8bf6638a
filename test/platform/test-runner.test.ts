/**
 * test/run.ts (npm test) on suites whose hooks fail (issue 31, item 12): a failed `before` hook fails its
 * suite, whose tests count as not passed, and the run exits non-zero; a failed `after` hook too, without
 * ending the run. CI (.ci/run) reads the exit status and counts Total minus Passed as failed. The suites are
 * fixtures in test/fixtures/runner/, outside npm test's `\.test\.ts$`.
 */
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { runNode, TSX_ARGS } from '../support/process';

const Runner = suite('npm test (test/run.ts): failing hooks fail the run');

/** Runs the test runner on fixtures/runner/<name>.ts for each name, without colours (CI greps these lines). */
async function runFixtures(...names: string[]) {
  const result = await runNode([...TSX_ARGS, 'test/run.ts', `^fixtures/runner/(${names.join('|')})\\.ts$`], {
    env: { NO_COLOR: '1' },
    timeoutMs: 60_000,
  });
  const count = (label: string) => Number(new RegExp(`^\\s*${label}:\\s+(\\d+)`, 'm').exec(result.stdout)?.[1]);
  return { ...result, total: count('Total'), passed: count('Passed') };
}

Runner(
  'a before hook that throws: its error is printed, its 3 tests count as not passed, the run exits 1',
  async () => {
    const run = await runFixtures('before-hook-fails', 'passes');
    assert.is(run.status, 1, run.stdout);
    assert.equal([run.total, run.passed], [5, 2], 'Total minus Passed: the 3 tests that never ran');
    assert.match(
      run.stderr,
      /before hook of "a suite whose before hook throws" failed:\n.*the fixture server could not start/,
    );
    assert.match(
      run.stdout,
      /runner\/before-hook-fails\.ts: before hook of "a suite whose before hook throws" failed \(.*\): 3 of 3 tests did not pass/,
    );
  },
);

Runner('an after hook that throws: printed, the run goes on to the next suite and exits 1', async () => {
  const run = await runFixtures('after-hook-fails', 'passes');
  assert.is(run.status, 1, run.stdout);
  assert.equal([run.total, run.passed], [3, 3], 'the suite after it ran');
  assert.match(
    run.stderr,
    /after hook of "a suite whose after hook throws" failed:\n.*the fixture server would not close/,
  );
});

Runner('suites that pass: exit 0', async () => {
  const run = await runFixtures('passes');
  assert.is(run.status, 0, run.stdout + run.stderr);
  assert.equal([run.total, run.passed], [2, 2]);
});

Runner.run();
