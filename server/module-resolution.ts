/**
 * Start-up: two shortcuts in Node's module resolution, registered by the entry points (main.ts,
 * cli.ts, test/run.ts) before they import the rest, since a hook only sees the modules imported after it.
 *
 * Why: Node (22 to 26) looks up the format of every `.js` file it resolves in the package.json above it,
 * and every lookup parses that package.json's "exports" again (package_json_reader spreads the
 * lazily parsed fields). drizzle-orm's package.json has 447 exports (179 KB) and its ES build is
 * about 250 modules, so loading it cost ~450 ms and ~170 MB of garbage at every start of the server
 * and of each CLI command. With the shortcuts a server starts in 0.61 of the time with 0.58 of the
 * peak RSS, a CLI command in about half (bench/startup.ts; bench/README.md).
 *
 * 1. A relative `.js` import between drizzle-orm's own files resolves to that file, as an ES module
 *    (the package is "type": "module"), without the package.json lookup.
 * 2. A bare specifier (`zod`, `drizzle-orm/sqlite-core`) resolves once per importing directory: where
 *    it leads depends only on that directory (the node_modules above it) and the import conditions,
 *    while Node resolves it again for every importing file.
 *
 * In the production bundle (scripts/build.ts) neither applies: drizzle-orm is inlined. Before Node
 * 22.15 (no `module.registerHooks`) nothing is registered and Node resolves as usual.
 */
import nodeModule, { type ResolveFnOutput } from 'node:module';

let registered = false;

/** The directory URL of drizzle-orm's ES build (its real path, as the parent URLs of its files are), or undefined if it is not installed here. */
function drizzleDirectoryUrl(): string | undefined {
  try {
    return new URL('./', import.meta.resolve('drizzle-orm')).href;
  } catch {
    return undefined;
  }
}

function isBare(specifier: string): boolean {
  return (
    !specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('#') && !specifier.includes(':')
  );
}

export function registerResolutionShortcuts(): void {
  if (registered || typeof nodeModule.registerHooks !== 'function') return;
  registered = true;
  const drizzle = drizzleDirectoryUrl();
  const resolvedBare = new Map<string, ResolveFnOutput>();
  nodeModule.registerHooks({
    resolve(specifier, context, nextResolve) {
      const parent = context.parentURL;
      // Only plain file parents: tsx marks some with a query, and data: URLs have no directory.
      if (parent === undefined || !parent.startsWith('file://') || parent.includes('?'))
        return nextResolve(specifier, context);
      if (
        drizzle !== undefined &&
        parent.startsWith(drizzle) &&
        specifier.startsWith('.') &&
        specifier.endsWith('.js')
      ) {
        return { url: new URL(specifier, parent).href, format: 'module', shortCircuit: true };
      }
      if (!isBare(specifier)) return nextResolve(specifier, context);
      const key = `${parent.slice(0, parent.lastIndexOf('/'))}\0${specifier}\0${context.conditions.join(',')}`;
      let resolved = resolvedBare.get(key);
      if (resolved === undefined) {
        resolved = nextResolve(specifier, context);
        resolvedBare.set(key, resolved);
      }
      return { ...resolved, shortCircuit: true };
    },
  });
}
