// `npm test`: runs every test/**/*.test.ts suite with uvu, as `uvu -r tsx test "\.test\.ts$"` would, then ends
// the process. uvu only sets process.exitCode and waits for the event loop to drain, so a child process or
// socket left open by a failed suite kept the run alive until CI's limit. Here the run ends once uvu has
// printed its totals, and names what was still open so the leak can be fixed.
//
// Usage: node --import tsx test/run.ts [pattern]   (pattern: a regular expression on the suite's path)
import { parse } from 'uvu/parse';
import { run } from 'uvu/run';

const GRACE_MS = 2_000;

const pattern = process.argv[2] ?? '\\.test\\.ts$';
const { suites } = await parse('test', pattern, { cwd: process.cwd() });
if (suites.length === 0) {
  console.error(`no test suite matches ${pattern}`);
  process.exit(1);
}
await run(suites, { bail: false });

const exitCode = Number(process.exitCode ?? 0);
// Let handles that are about to close (sockets in their last turn, timers a suite clears) close first.
setTimeout(() => {
  // Timers, and this process's own stdout and stderr (a TTY or a pipe), are not leaks; a child process shows as ProcessWrap.
  const open = process.getActiveResourcesInfo().filter((kind) => !['Timeout', 'TTYWrap', 'PipeWrap'].includes(kind));
  if (open.length > 0) console.error(`test run: still open after the last suite, ended anyway: ${open.join(', ')}`);
  process.exit(exitCode);
}, GRACE_MS).unref();
