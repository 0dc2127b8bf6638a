/**
 * How the operator ran the CLI, as its usage lines show it: `npm run cli --` in a checkout (the entry is
 * TypeScript), `node <path to cli.js>` for a build, and the executable's own path otherwise (the single
 * executable). A path is shown relative to where the operator stands, unless it lies above it.
 */
import { isAbsolute, relative } from 'node:path';

export function cliInvocation(entry: string = process.argv[1] ?? '', cwd: string = process.cwd()): string {
  if (entry.endsWith('.ts')) return 'npm run cli --';
  const fromHere = relative(cwd, entry);
  const shown = fromHere === '' || fromHere.startsWith('..') || isAbsolute(fromHere) ? entry : fromHere;
  if (entry.endsWith('.js')) return `node ${shown}`;
  return shown.includes('/') ? shown : `./${shown}`;
}
