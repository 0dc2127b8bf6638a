// The set-up of the single executable's suites (binary.test.ts, binary-cache.test.ts): the executable, built once
// for both into a temporary directory (removed after the last of them), a suite that runs its tests on it or says
// why it could not be built, and the helpers their tests share.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { suite } from '../support/suite';
import { TEST_DRIVER } from '../support/helpers';
import { skippedUnderSqld } from '../support/sqld';
import { bareEnvironment, buildTestBinary, runBinary, type TBuiltBinary } from '../support/binary';

/** Where the executable is built (0o700, as mkdtemp makes it). */
export const outdir = mkdtempSync(join(tmpdir(), 'tidewatch-binary-'));
let building: Promise<TBuiltBinary | string> | undefined;
/** The suites not yet done with the executable: the last one removes `outdir`. */
let users = 0;

/** Runs the executable under test to its end. */
export type TRun = (args: string[], options: Parameters<typeof runBinary>[2]) => ReturnType<typeof runBinary>;

/**
 * A suite of the single executable's tests: `tests` adds them once the executable is built (once for every
 * suite). Left out under TEST_DATABASE=sqld (it serves a local file); where it cannot be built (outside CI),
 * one skipped test says why.
 */
export async function binarySuite(
  name: string,
  tests: (suite: Test, binary: TBuiltBinary, run: TRun) => void,
): Promise<Test> {
  const Binary = suite(name);
  users++;
  Binary.after(() => {
    users--;
    if (users === 0) rmSync(outdir, { recursive: true, force: true });
  });
  if (skippedUnderSqld(name, 'it serves a local file')) return Binary;
  building ??= buildTestBinary(outdir);
  const built = await building;
  if (typeof built === 'object') tests(Binary, built, (args, options) => runBinary(built.file, args, options));
  else {
    console.log(`  skipped: ${name}: ${built}`);
    Binary.skip('the single executable', () => {});
  }
  return Binary;
}

/** A fresh empty directory to run in, and the variables of `env -i` (the driver under test added). */
export function place(extra: Record<string, string> = {}): { cwd: string; env: Record<string, string> } {
  const cwd = mkdtempSync(join(tmpdir(), 'tidewatch-run-'));
  return { cwd, env: bareEnvironment({ ...(TEST_DRIVER && { DATABASE_DRIVER: TEST_DRIVER }), ...extra }) };
}

export const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
export const mode = (path: string) => statSync(path).mode & 0o777;

export function oneLine(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '');
  assert.is(lines.length, 1, `one line, got:\n${stderr}`);
  return lines[0]!;
}
