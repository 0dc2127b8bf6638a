// A suite with a temporary directory of its own (for its database files, a CLI's input), removed after its tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from './suite';

/** A suite whose context holds `dir`, a fresh directory named `tidewatch-<prefix>-…`, removed after its tests. */
export function directorySuite(name: string, prefix: string) {
  const tests = suite<{ dir: string }>(name);
  tests.before((context) => {
    context.dir = mkdtempSync(join(tmpdir(), `tidewatch-${prefix}-`));
  });
  tests.after((context) => rmSync(context.dir, { recursive: true, force: true }));
  return tests;
}
