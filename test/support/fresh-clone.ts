/**
 * The working tree as a fresh clone and `npm install` leave it, for tests that run what a new user runs
 * (the docs' shell blocks, the README's self-hoster block).
 */
import { copyFileSync, existsSync, lstatSync, mkdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as assert from 'uvu/assert';
import { ROOT, runCommand } from './process';

/**
 * The working tree as a fresh clone and `npm install` leave it, in `dir`: every file git tracks or would
 * track (untracked files that are not ignored), as it is now, and the installed node_modules linked.
 * Nothing git ignores (generated types, dist/, databases) comes along.
 */
export async function freshClone(dir: string, options: { tools?: boolean } = {}): Promise<string> {
  const listed = await runCommand('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  assert.is(listed.status, 0, listed.stderr);
  for (const file of listed.stdout.split('\0')) {
    // Listed by the index but deleted in the working tree: a fresh clone of this tree has no such file.
    if (file === '' || !existsSync(join(ROOT, file))) continue;
    // A checkout whose node_modules or .tools is a link lists it as a file: both are linked below.
    if (file === 'node_modules' || file === '.tools') continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    const source = join(ROOT, file);
    if (lstatSync(source).isSymbolicLink()) symlinkSync(readlinkSync(source), join(dir, file));
    else copyFileSync(source, join(dir, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  // The Node.js builds scripts/fetch-node.sh keeps (a build of the single executable needs Node 26's): fetched once.
  if (options.tools && existsSync(join(ROOT, '.tools'))) symlinkSync(join(ROOT, '.tools'), join(dir, '.tools'));
  return dir;
}
