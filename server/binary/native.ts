/**
 * The native addons inside the single executable. The bundle requires each by a module id at run time
 * (scripts/build-binary.ts leaves those ids out of the bundle): libSQL's and the Argon2 binding's loaders
 * require their platform package, and server/binary/better-sqlite3.ts requires better-sqlite3's. A
 * resolve hook sends each of those ids to its file in the private cache (server/binary/private-cache.ts),
 * checked before the hook was registered; Node's loader then opens that file (process.dlopen).
 */
import nodeModule, { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

interface TResolveContext {
  conditions: string[];
  parentURL?: string;
}
interface TResolved {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
type TResolveHook = (
  specifier: string,
  context: TResolveContext,
  nextResolve: (specifier: string, context: TResolveContext) => TResolved,
) => TResolved;
/** `module.registerHooks` (Node 22.15+; the executable embeds Node 26), which this project's @types/node does not declare yet. */
const { registerHooks } = nodeModule as unknown as { registerHooks: (hooks: { resolve: TResolveHook }) => unknown };

/** Every addon's module id, to the checked file it loads from. */
export function registerNativeAddons(files: Map<string, string>): void {
  const urls = new Map([...files].map(([id, path]) => [id, pathToFileURL(path).href]));
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const url = urls.get(specifier);
      return url === undefined ? nextResolve(specifier, context) : { url, shortCircuit: true };
    },
  });
}

/** The addon registered under `id`. */
export function nativeAddon(id: string): unknown {
  return createRequire(import.meta.url)(id);
}
