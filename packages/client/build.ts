/**
 * Builds @tidewatch/client into packages/client/dist:
 *  - the REST types (src/generated/openapi.d.ts), generated from the app's own OpenAPI document;
 *  - index.js and rest.js (esbuild; dependencies stay imports);
 *  - index.d.ts and rest.d.ts (rollup-plugin-dts): AppRouter and the REST `paths` bundled, with no
 *    import of a server file. The build fails if a declaration imports any package but the ones the
 *    client depends on.
 *
 *   npm run client:build      npm run client:pack   (the tarball, in packages/client)
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { rollup, type Plugin } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { generateOpenApiTypes } from '../../scripts/openapi-types';

export const CLIENT_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(CLIENT_DIR, '../..');
export const DIST_DIR = join(CLIENT_DIR, 'dist');
/** Where the build writes the REST `paths` types; generated, never edited (gitignored). */
export const REST_TYPES_FILE = join(CLIENT_DIR, 'src/generated/openapi.d.ts');

const ENTRIES = { index: join(CLIENT_DIR, 'src/index.ts'), rest: join(CLIENT_DIR, 'src/rest.ts') };
/** The server modules whose types AppRouter names but a client never reads, and their stand-in. */
const SERVER_ONLY_TYPES = [join(ROOT, 'server/context'), join(ROOT, 'server/trpc')];
const STAND_INS = join(CLIENT_DIR, 'src/server-stand-ins.d.ts');
/** The only packages the published code and declarations may import. */
const ALLOWED_IMPORTS = new Set(['@trpc/client', '@trpc/server', 'superjson', 'openapi-fetch']);

/** Writes REST types (generateOpenApiTypes' output) where the package's source reads them. */
export function writeRestTypesFile(types: string): void {
  mkdirSync(dirname(REST_TYPES_FILE), { recursive: true });
  writeFileSync(REST_TYPES_FILE, types);
}

/** Generates the REST types from the OpenAPI document the app serves at /api/openapi.json, built in process. */
async function generateRestTypes(): Promise<void> {
  const [{ buildOpenApiDocument }, { appRouter }, { VERSION }] = await Promise.all([
    import('../../server/openapi'),
    import('../../server/router'),
    import('../../server/app'),
  ]);
  writeRestTypesFile(await generateOpenApiTypes(buildOpenApiDocument(appRouter, VERSION)));
}

/** Resolves imports of server/context and server/trpc to the stand-ins. */
function serverStandIns(): Plugin {
  return {
    name: 'tidewatch-server-stand-ins',
    resolveId(source, importer) {
      if (!importer || !source.startsWith('.')) return null;
      const target = resolve(dirname(importer), source).replace(/\.(d\.)?[cm]?[jt]s$/, '');
      return SERVER_ONLY_TYPES.includes(target) ? STAND_INS : null;
    },
  };
}

/** The specifiers a built file imports or re-exports: statements at the start of a line and `import('…')` types. */
export function importedSpecifiers(code: string): string[] {
  const statements = [...code.matchAll(/^(?:import|export)\b[^;'"]*?(?:\bfrom\s*)?['"]([^'"]+)['"]/gm)];
  const typeImports = [...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)];
  return [...new Set([...statements, ...typeImports].map((match) => match[1]!))];
}

function checkImports(): void {
  for (const file of readdirSync(DIST_DIR)) {
    const stray = importedSpecifiers(readFileSync(join(DIST_DIR, file), 'utf8')).filter(
      // A subpath of an allowed package is that package's (tracked subscriptions name @trpc/server/unstable-core-do-not-import).
      (specifier) =>
        !ALLOWED_IMPORTS.has(specifier.replace(/^((?:@[^/]+\/)?[^/]+).*$/, '$1')) && !specifier.startsWith('./'),
    );
    if (stray.length > 0)
      throw new Error(
        `dist/${file} imports ${stray.join(', ')}: only ${[...ALLOWED_IMPORTS].join(', ')} may be imported`,
      );
  }
}

export async function buildClient(): Promise<void> {
  rmSync(DIST_DIR, { recursive: true, force: true });
  await generateRestTypes();
  await build({
    entryPoints: ENTRIES,
    outdir: DIST_DIR,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    logLevel: 'warning',
  });
  const declarations = await rollup({
    input: ENTRIES,
    plugins: [serverStandIns(), dts({ tsconfig: join(CLIENT_DIR, 'tsconfig.json') })],
  });
  await declarations.write({
    dir: DIST_DIR,
    format: 'es',
    entryFileNames: '[name].d.ts',
    chunkFileNames: '[name].d.ts',
  });
  await declarations.close();
  checkImports();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  buildClient().then(
    () => console.log(`built ${DIST_DIR} in ${((Date.now() - started) / 1000).toFixed(1)} s`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
