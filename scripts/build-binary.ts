/**
 * The single executable for self-hosters (docs/binary.md): `dist/tidewatch-<os>-<arch>`, a Node.js single
 * executable application (SEA) of one esbuild bundle of server/binary/main.ts, and beside it
 * `dist/tidewatch-<os>-<arch>.sha256` (`sha256sum -c` reads it).
 *
 * Inside it, as SEA assets: the native addons (better-sqlite3, the Argon2 binding, libSQL), the migrations,
 * the files the server reads from its dependencies and the community data set (both listed in
 * server/infra/packaged-files.ts) and a manifest with
 * every file's SHA-256, the version and the git commit (server/binary/manifest.ts). The code runs from
 * V8's code cache. The Node.js inside is the line-26 build scripts/fetch-node.sh pins (`--build-sea` and
 * ES module entries are new in 25.5), stripped of its symbols first: stripping the finished executable
 * would break it. Whichever supported Node.js runs this script, the executable carries Node 26.
 *
 * Where the bundle departs from the code that `npm start` runs, each departure is in the plugin below:
 * - `better-sqlite3` is server/binary/better-sqlite3.ts, which opens every database with the addon as
 *   its `nativeBinding`;
 * - the native addons' module ids are left to run time, where server/binary/native.ts resolves them to
 *   their checked files in the private cache;
 * - FILES_BESIDE_CODE: a dependency that reads a file beside its own code when it loads reads the asset.
 *
 *   npm run build:binary [-- --outdir <dir>]
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { NODE_MEMORY_FLAGS } from '../server/node-flags';
import {
  BETTER_SQLITE3_ADDON,
  MANIFEST_ASSET,
  REPLICA_WORKER_ASSET,
  type TBinaryManifest,
} from '../server/binary/manifest';
import { COMMUNITY_DATA_DIR, COMMUNITY_DATA_FILES, PACKAGED_FILES } from '../server/infra/packaged-files';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
const SHIM = join(ROOT, 'server/binary/better-sqlite3.ts');
/** The Node.js line inside the executable (scripts/fetch-node.sh pins its version). */
const NODE_LINE = '26';

/**
 * Dependencies that read a file beside their own code when they load: in the executable, the call that
 * reads it reads the SEA asset instead (stored by PACKAGED_FILES). The build fails if the call is gone.
 */
const FILES_BESIDE_CODE = [
  {
    packageName: 'svg-captcha',
    module: 'lib/option-manager.js',
    reads: 'opentype.loadSync(fontPath)',
    asset: 'svg-captcha/fonts/Comismsh.ttf',
    instead: (asset: string) => `opentype.parse(require('node:sea').getAsset(${JSON.stringify(asset)}))`,
  },
];

function packageDir(name: string): string {
  return dirname(requireFromRoot.resolve(`${name}/package.json`));
}

/** The native addons for this platform, by the module id the bundle requires each by, with the file and asset key. */
function nativeAddons(): { id: string; file: string; key: string }[] {
  if (process.platform !== 'linux')
    throw new Error(`the single executable is built on Linux only, not ${process.platform}`);
  // The official Node.js builds inside the executable are glibc builds: the addons for glibc.
  const target = `linux-${process.arch}-gnu`;
  const sqlite = packageDir('better-sqlite3');
  const compiled = join(sqlite, 'build/Release/better_sqlite3.node');
  const sqliteFile = statSync(compiled, { throwIfNoEntry: false })
    ? compiled
    : join(sqlite, `prebuilds/linux-${process.arch}.node`);
  const argon2 = `@node-rs/argon2-${target}`;
  const libsql = `@libsql/${target}`;
  return [
    { id: BETTER_SQLITE3_ADDON, file: sqliteFile, key: 'native/better_sqlite3.node' },
    { id: argon2, file: requireFromRoot.resolve(argon2), key: `native/argon2.${target}.node` },
    { id: libsql, file: requireFromRoot.resolve(libsql), key: `native/libsql.${target}.node` },
  ];
}

/** A regular expression that matches exactly one of `texts`. */
function exactly(texts: string[]): RegExp {
  return new RegExp(`^(${texts.map((text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`);
}

function binaryModules(addonIds: string[]): Plugin {
  return {
    name: 'tidewatch-binary',
    setup(plugin) {
      plugin.onResolve({ filter: /^better-sqlite3$/ }, (args) => (args.importer === SHIM ? undefined : { path: SHIM }));
      plugin.onResolve({ filter: exactly(addonIds) }, (args) => ({ path: args.path, external: true }));
      for (const patch of FILES_BESIDE_CODE) {
        const file = join(packageDir(patch.packageName), patch.module);
        plugin.onLoad({ filter: exactly([file]) }, () => {
          const source = readFileSync(file, 'utf8');
          if (!source.includes(patch.reads))
            throw new Error(
              `${patch.packageName}/${patch.module} no longer calls ${patch.reads}: update FILES_BESIDE_CODE`,
            );
          return { contents: source.replace(patch.reads, patch.instead(patch.asset)), loader: 'js' };
        });
      }
    },
  };
}

function gitCommit(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = git('rev-parse', '--short=12', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') === '' ? commit : `${commit}-dirty`;
  } catch {
    return 'unknown';
  }
}

function sha256Of(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** The SEA's assets: key to file. */
function assetFiles(addons: ReturnType<typeof nativeAddons>): Record<string, string> {
  const assets: Record<string, string> = {};
  for (const addon of addons) assets[addon.key] = addon.file;
  const migrations = join(ROOT, 'db/migrations');
  assets['migrations/meta/_journal.json'] = join(migrations, 'meta/_journal.json');
  for (const name of readdirSync(migrations).filter((file) => file.endsWith('.sql')))
    assets[`migrations/${name}`] = join(migrations, name);
  for (const [name, files] of Object.entries(PACKAGED_FILES))
    for (const file of files) assets[`${name}/${file}`] = join(packageDir(name), file);
  for (const file of COMMUNITY_DATA_FILES)
    assets[`${COMMUNITY_DATA_DIR}/${file}`] = join(ROOT, 'server/seed', COMMUNITY_DATA_DIR, file);
  for (const patch of FILES_BESIDE_CODE)
    if (!(patch.asset in assets))
      throw new Error(`${patch.asset} is not in PACKAGED_FILES (server/infra/packaged-files.ts)`);
  return assets;
}

/** The Node.js binary of NODE_LINE, its symbols stripped, as the executable's base. */
function strippedNode(work: string): { node: string; base: string } {
  const bin = execFileSync('bash', [join(ROOT, 'scripts/fetch-node.sh'), NODE_LINE], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim();
  const node = join(bin, 'node');
  const base = join(work, 'node');
  copyFileSync(node, base);
  try {
    execFileSync('strip', [base]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error('npm run build:binary needs strip (binutils: apt-get install binutils)');
    throw error;
  }
  return { node, base };
}

export async function buildBinary(
  outdir: string = join(ROOT, 'dist'),
): Promise<{ file: string; bytes: number; sha256: string }> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const name = `tidewatch-${process.platform}-${process.arch}`;
  const work = join(outdir, `.${name}-build`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const addons = nativeAddons();
    const bundle = join(work, 'main.mjs');
    const replicaWorker = join(work, 'replica-sync-worker.mjs');
    const bundleOptions: BuildOptions = {
      bundle: true,
      platform: 'node',
      target: `node${NODE_LINE}`,
      format: 'esm',
      legalComments: 'none',
      logLevel: 'warning',
      plugins: [binaryModules(addons.map((addon) => addon.id))],
      // Bundled CommonJS packages call require() and read __dirname: an ES module has neither. As in a
      // CommonJS SEA entry, they are the executable's; require loads only built-in modules and the addons.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; import { dirname as __dirnameOf } from 'node:path'; const require = __createRequire(import.meta.url); const __filename = process.execPath; const __dirname = __dirnameOf(__filename);",
      },
    };
    await build({ ...bundleOptions, entryPoints: [join(ROOT, 'server/binary/main.ts')], outfile: bundle });
    // An embedded replica's thread, started from its file in the cache (db/replica-sync-thread.ts).
    await build({
      ...bundleOptions,
      entryPoints: [join(ROOT, 'server/binary/replica-sync-worker.ts')],
      outfile: replicaWorker,
    });
    const assets: Record<string, string> = { ...assetFiles(addons), [REPLICA_WORKER_ASSET]: replicaWorker };
    const files: Record<string, string> = {};
    for (const key of Object.keys(assets).filter(
      (key) => key.startsWith('native/') || key.startsWith('migrations/') || key === REPLICA_WORKER_ASSET,
    ))
      files[key] = sha256Of(assets[key]!);
    const manifest: TBinaryManifest = {
      version: pkg.version,
      commit: gitCommit(),
      cacheName: `${pkg.version}-${createHash('sha256').update(JSON.stringify(files)).digest('hex').slice(0, 12)}`,
      files,
      nativeAddons: Object.fromEntries(addons.map((addon) => [addon.id, addon.key])),
      migrationsPrefix: 'migrations',
    };
    writeFileSync(join(work, MANIFEST_ASSET), JSON.stringify(manifest));
    const { node, base } = strippedNode(work);
    const output = join(outdir, name);
    const config = {
      main: bundle,
      mainFormat: 'module',
      executable: base,
      output,
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      execArgv: [...NODE_MEMORY_FLAGS],
      assets: { ...assets, [MANIFEST_ASSET]: join(work, MANIFEST_ASSET) },
    };
    writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
    execFileSync(node, [...NODE_MEMORY_FLAGS, '--build-sea', join(work, 'sea-config.json')], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const sha256 = sha256Of(output);
    writeFileSync(`${output}.sha256`, `${sha256}  ${name}\n`);
    return { file: output, bytes: statSync(output).size, sha256 };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
  buildBinary(values.outdir ? resolve(values.outdir) : undefined).then(
    ({ file, bytes, sha256 }) => {
      const shown = relative(process.cwd(), file);
      console.log(`built ${shown} (${(bytes / 1024 / 1024).toFixed(1)} MB), SHA-256 ${sha256} in ${shown}.sha256`);
      console.log(`run: ./${shown} --version`);
    },
    (error: unknown) => {
      console.error(String((error as Error).message ?? error));
      process.exit(1);
    },
  );
}
