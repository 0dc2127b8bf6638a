/**
 * The first import of every entry point (server/main.ts, server/cli.ts, test/run.ts, and so of the built
 * dist/main.js and dist/cli.js): on a Node.js older than package.json's "engines" it prints one line that
 * says what to run, and exits 1.
 *
 * Why: in a shell where `scripts/fetch-node.sh` was not eval'd, `node` is the machine's own, Debian's Node 20
 * for instance, and there better-sqlite3 13 ended the process with a bare "Segmentation fault" (and
 * `module.registerHooks` is missing). ES modules are evaluated in import order, so this runs before anything
 * imported after it loads a native module; in the bundle, scripts/build.ts keeps it ahead of them too. It
 * imports nothing but package.json, and uses nothing Node 20 lacks.
 */
import packageJson from '../package.json' with { type: 'json' };

/** The release lines that scripts/fetch-node.sh fetches and CI tests (README "Node.js versions"). */
export const SUPPORTED_LINES = [22, 24, 26];
const FETCH_NODE_COMMAND = 'eval "$(bash scripts/fetch-node.sh 24 --env)"';

/** [22, 12] from package.json's "engines": ">=22.12", the one form of a range this reads. */
export function minimumNodeVersion(range: string = packageJson.engines.node): number[] {
  const version = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(range.trim())?.[1];
  if (version === undefined) throw new Error(`package.json "engines.node" must read ">=MAJOR.MINOR", not "${range}"`);
  return version.split('.').map(Number);
}

export function isSupportedNode(version: string, minimum: number[] = minimumNodeVersion()): boolean {
  const parts = version.replace(/^v/, '').split('.').map(Number);
  for (const [index, wanted] of minimum.entries()) {
    const part = parts[index] ?? 0;
    if (part !== wanted) return part > wanted;
  }
  return true;
}

/** One line: what is needed, what runs, and the command that fixes it. */
export function unsupportedNodeMessage(
  version: string,
  execPath: string,
  minimum: number[] = minimumNodeVersion(),
): string {
  const lines = `${SUPPORTED_LINES.slice(0, -1).join(', ')} or ${SUPPORTED_LINES.at(-1)}`;
  return `tidewatch needs Node.js ${minimum.join('.')} or later (an LTS line: ${lines}), but this is Node.js ${version} at ${execPath}. Run ${FETCH_NODE_COMMAND} in this shell at the repository's root, then the command again.`;
}

if (!isSupportedNode(process.versions.node)) {
  console.error(unsupportedNodeMessage(process.versions.node, process.execPath));
  process.exit(1);
}
