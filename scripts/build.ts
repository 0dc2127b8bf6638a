/**
 * Production build: one esbuild bundle per entry (dist/main.js, dist/cli.js, and
 * dist/replica-sync-worker.js, an embedded replica's thread) with everything pure-JS
 * inlined, plus what cannot be bundled copied beside it: the native modules (better-sqlite3,
 * @node-rs/argon2 with its platform binary), the Swagger UI assets, the migrations and the community
 * data set (community-data/, with its LICENSE). The result runs
 * with `node dist/main.js` and needs no node_modules of the project; it must be built on the platform
 * and Node major it runs on (the native binaries are).
 *
 * The bundles are split at the entries' dynamic imports: main.js and cli.js hold the Node.js version
 * check (server/node-version.ts) and the resolution shortcuts, and import the rest (chunks beside them)
 * once the check has passed. In one file, the imports of the native modules, hoisted as ES imports
 * are, would load them before the check could run.
 *
 *   npm run build [-- --outdir <dir>]
 */
import { NODE_MEMORY_FLAGS } from '../server/node-flags';
import { COMMUNITY_DATA_DIR } from '../server/infra/packaged-files';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const requireFromRoot = createRequire(join(ROOT, 'package.json'));

/** Packages loaded at run time from dist/node_modules, with the files each needs (relative to the package). */
const RUNTIME_PACKAGES: Record<string, string[]> = {
  'better-sqlite3': ['package.json', 'LICENSE', 'lib', ...betterSqlite3Binaries()],
  '@node-rs/argon2': ['package.json', 'LICENSE', 'index.js'],
  'swagger-ui-dist': [
    'package.json',
    'LICENSE',
    'swagger-ui.css',
    'swagger-ui-bundle.js',
    'swagger-ui-standalone-preset.js',
    'favicon-32x32.png',
  ],
};
/**
 * Packages shipped whole, with every installed dependency, because they load platform binaries or
 * their own files at run time (svg-captcha reads its font beside its code).
 */
const RUNTIME_TREES = ['@libsql/client', 'svg-captcha'];
const EXTERNAL = ['better-sqlite3', '@node-rs/argon2', 'swagger-ui-dist', ...RUNTIME_TREES];

/**
 * better-sqlite3's binaries for this platform: one compiled on purpose (build/Release, when npm had to
 * build it), else its prebuilt Node-API binaries for this OS and architecture (glibc and musl).
 */
function betterSqlite3Binaries(): string[] {
  const dir = packageDir('better-sqlite3');
  if (existsSync(join(dir, 'build/Release/better_sqlite3.node'))) return ['build/Release/better_sqlite3.node'];
  const systems = process.platform === 'linux' ? ['linux', 'linuxmusl'] : [process.platform];
  return systems
    .map((system) => `prebuilds/${system}-${process.arch}.node`)
    .filter((file) => existsSync(join(dir, file)));
}

function packageDir(name: string): string {
  return dirname(requireFromRoot.resolve(`${name}/package.json`));
}

function copyPackage(name: string, files: string[], outdir: string): void {
  const from = packageDir(name);
  const to = join(outdir, 'node_modules', name);
  for (const file of files) {
    if (!existsSync(join(from, file))) {
      if (file.startsWith('LICENSE')) continue;
      throw new Error(`${name} has no ${file}: is it installed and built?`);
    }
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(from, file), join(to, file), { recursive: true });
  }
}

/** @node-rs/argon2 loads its binary from a per-platform package: copy whichever are installed. */
function argon2PlatformPackages(): string[] {
  const scope = dirname(packageDir('@node-rs/argon2'));
  return readdirSync(scope)
    .filter((name) => name.startsWith('argon2-'))
    .map((name) => `@node-rs/${name}`);
}

/** Copies a package and, recursively, its installed dependencies and optional dependencies (platform binaries). */
function copyPackageTree(name: string, outdir: string, fromDir: string = ROOT, seen = new Set<string>()): void {
  if (seen.has(name)) return;
  // Node's lookup: <dir>/node_modules/<name>, walking up (not require.resolve: "exports" may hide package.json).
  let dir: string | undefined;
  for (let base = fromDir; ; base = dirname(base)) {
    if (existsSync(join(base, 'node_modules', name, 'package.json'))) {
      dir = join(base, 'node_modules', name);
      break;
    }
    if (dirname(base) === base) break;
  }
  if (!dir) return; // an optional dependency for another platform
  seen.add(name);
  const packageRoot = dir;
  cpSync(packageRoot, join(outdir, 'node_modules', name), {
    recursive: true,
    filter: (source) => !source.slice(packageRoot.length).includes('/node_modules/'),
  });
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
    copyPackageTree(dependency, outdir, dir, seen);
  }
}

function sizeOf(path: string): number {
  const stat = statSync(path);
  return stat.isDirectory() ? readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0) : stat.size;
}

export async function buildDist(
  outdir: string = join(ROOT, 'dist'),
): Promise<{ outdir: string; bytes: Record<string, number> }> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

  await build({
    entryPoints: {
      main: join(ROOT, 'server/main.ts'),
      cli: join(ROOT, 'server/cli.ts'),
      // An embedded replica's sync thread, started from its own file (db/replica-sync-thread.ts).
      'replica-sync-worker': join(ROOT, 'db/replica-sync-worker.ts'),
    },
    outdir,
    bundle: true,
    platform: 'node',
    // Syntax an unsupported Node.js still parses, so that the version check gets to say what to run.
    target: 'node20',
    format: 'esm',
    splitting: true,
    external: EXTERNAL,
    sourcemap: 'linked',
    legalComments: 'linked',
    logLevel: 'warning',
    // Bundled CommonJS packages call require(); an ES module has none, so give the bundle one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });

  // db/client.ts resolves migrations beside the running file: in the bundle that is dist/.
  cpSync(join(ROOT, 'db/migrations'), join(outdir, 'migrations'), { recursive: true });
  // The community data set, read when the demo is seeded or the set imported (server/infra/packaged-files.ts).
  cpSync(join(ROOT, 'server/seed', COMMUNITY_DATA_DIR), join(outdir, COMMUNITY_DATA_DIR), { recursive: true });
  for (const [name, files] of Object.entries(RUNTIME_PACKAGES)) copyPackage(name, files, outdir);
  for (const name of RUNTIME_TREES) copyPackageTree(name, outdir);
  for (const name of argon2PlatformPackages()) {
    const dir = packageDir(name);
    copyPackage(name, readdirSync(dir), outdir);
  }
  writeFileSync(
    join(outdir, 'package.json'),
    `${JSON.stringify({ name: pkg.name, version: pkg.version, private: true, license: pkg.license, type: 'module', engines: pkg.engines }, null, 2)}\n`,
  );
  return {
    outdir,
    bytes: {
      javascript: readdirSync(outdir)
        .filter((file) => file.endsWith('.js'))
        .reduce((sum, file) => sum + sizeOf(join(outdir, file)), 0),
      node_modules: sizeOf(join(outdir, 'node_modules')),
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
  buildDist(values.outdir ? resolve(values.outdir) : undefined).then(
    ({ outdir, bytes }) => {
      const kb = (n: number) => `${Math.round(n / 1024)} KB`;
      console.log(
        `built ${relative(process.cwd(), outdir) || '.'}: main.js, cli.js and their chunks ${kb(bytes.javascript!)}, native and static modules ${kb(bytes.node_modules!)}`,
      );
      console.log(
        `run: node ${NODE_MEMORY_FLAGS.join(' ')} ${join(relative(process.cwd(), outdir) || '.', 'main.js')}`,
      );
    },
    (error: unknown) => {
      console.error(String((error as Error).message ?? error));
      process.exit(1);
    },
  );
}
