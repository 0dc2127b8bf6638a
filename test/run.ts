// `npm test`: runs every test/**/*.test.ts suite with uvu, as `uvu -r tsx test "\.test\.ts$"` would, then ends
// the process. uvu only sets process.exitCode and waits for the event loop to drain, so a child process or
// socket left open by a failed suite kept the run alive until CI's limit. Here the run ends once uvu has
// printed its totals, and names what was still open so the leak can be fixed. It also times each file
// and prints the slowest, so CI's time budget can be watched.
//
// Usage: node --import tsx test/run.ts [pattern]   (pattern: a regular expression on the suite's path)
// The Node.js version check comes first: on an unsupported Node.js it exits with one line saying what to run.
import '../server/node-version';
import { parse } from 'uvu/parse';
import { registerResolutionShortcuts } from '../server/module-resolution';

registerResolutionShortcuts();

const GRACE_MS = 2_000;
const SLOWEST_SHOWN = 12;

type TSuiteRun = () => Promise<[string | true, number, number, number]>;
declare global {
  var UVU_DEFER: number;
  var UVU_INDEX: number;
  var UVU_QUEUE: [string, ...TSuiteRun[]][];
}

/**
 * Left out under TEST_DATABASE=sqld (CI's pass on Node 24): the suites that never reach a libSQL server.
 * They work on a local SQLite file whatever the pass (the docs' shell blocks, the process lifecycle, crash
 * safety, backups, the recorded OpenAPI examples) or on no database (the client package, the docs page in
 * Chromium), so the passes on Node 22 and 26 (better-sqlite3 and libSQL on a file) run them, and here they
 * would only repeat those, for two minutes of CI's budget.
 */
const LOCAL_FILE_SUITES =
  /^(platform\/(docs-shell|lifecycle|backup-rotation|client-package|ecosystem-docs|openapi-examples)|cross-cutting\/crash-safety)\.test\.ts$/;

const pattern = process.argv[2] ?? '\\.test\\.ts$';
const parsed = await parse('test', pattern, { cwd: process.cwd() });
const leftOut =
  process.env.TEST_DATABASE === 'sqld' ? parsed.suites.filter((file) => LOCAL_FILE_SUITES.test(file.name)) : [];
const suites = parsed.suites.filter((file) => !leftOut.includes(file));
if (leftOut.length > 0)
  console.log(
    `TEST_DATABASE=sqld: left out ${leftOut.map((file) => file.name).join(', ')} (local files only: run by the other passes)\n`,
  );
if (suites.length === 0) {
  console.error(`no test suite matches ${pattern}`);
  process.exit(1);
}

// What uvu/run does (defer, queue one group per file, import), with each file's suites timed.
// Set before uvu is first imported: uvu reads it once, and without it every suite's run() starts a run of its own.
globalThis.UVU_DEFER = 1;
const uvu = await import('uvu');
const { takeFailedHooks, testDurationsMs } = await import('./support/suite');
const fileMs = new Map<string, number>();
for (const [index, file] of suites.entries()) {
  globalThis.UVU_INDEX = index;
  globalThis.UVU_QUEUE.push([file.name]);
  await import(`file:///${file.file}`);
}

/**
 * A suite whose `before` or `after` hook failed (test/support/suite.ts records it) is a failed suite: uvu
 * reported "(0 / N)" as a success and the run exited 0. Its failure text makes uvu set the exit status; the
 * tests that never ran stay out of "Passed", so Total minus Passed (what CI's .ci/run counts as failed)
 * includes them.
 */
function failedIfAHookFailed(
  file: string,
  [errors, passed, skipped, total]: Awaited<ReturnType<TSuiteRun>>,
): Awaited<ReturnType<TSuiteRun>> {
  const hooks = takeFailedHooks();
  if (hooks.length === 0) return [errors, passed, skipped, total];
  const notPassed = total > passed ? `: ${total - passed} of ${total} tests did not pass` : '';
  const report = `  FAIL  ${file}: ${hooks.join(' and ')} failed (the error and its stack are on stderr)${notPassed}\n`;
  return [(errors === true ? '' : `${errors}\n`) + report, passed, skipped, total];
}

for (const group of globalThis.UVU_QUEUE) {
  const name = group[0];
  for (let at = 1; at < group.length; at++) {
    const runSuite = group[at] as TSuiteRun;
    group[at] = async () => {
      const started = performance.now();
      try {
        return failedIfAHookFailed(name, await runSuite());
      } finally {
        fileMs.set(name, (fileMs.get(name) ?? 0) + performance.now() - started);
      }
    };
  }
}
await uvu.exec(false);

function printSlowest(title: string, durationsMs: Map<string, number>): void {
  const slowest = [...durationsMs].sort((a, b) => b[1] - a[1]).slice(0, SLOWEST_SHOWN);
  if (slowest.length < 2) return;
  console.log(
    `  ${title}:\n${slowest.map(([name, ms]) => `    ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}`).join('\n')}\n`,
  );
}
printSlowest('slowest files', fileMs);
printSlowest('slowest tests', testDurationsMs);

const exitCode = Number(process.exitCode ?? 0);
// Let handles that are about to close (sockets in their last turn, timers a suite clears) close first.
setTimeout(() => {
  // Timers, and this process's own stdout and stderr (a TTY or a pipe), are not leaks; a child process shows as ProcessWrap.
  const open = process.getActiveResourcesInfo().filter((kind) => !['Timeout', 'TTYWrap', 'PipeWrap'].includes(kind));
  if (open.length > 0) console.error(`test run: still open after the last suite, ended anyway: ${open.join(', ')}`);
  process.exit(exitCode);
}, GRACE_MS).unref();
