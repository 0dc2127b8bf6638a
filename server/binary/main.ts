/**
 * The single executable's entry point (scripts/build-binary.ts bundles it alone; docs/binary.md). It reads
 * its command line, then readies the files that must be on disk (server/binary/private-cache.ts) before
 * anything that needs them is loaded: the server and the CLI are imported only afterwards, dynamically.
 * No Node.js version check: the executable carries its own Node.js.
 */
import { getAsset, getRawAsset, isSea } from 'node:sea';
import { join } from 'node:path';
import { ConfigError } from '../config';
import {
  applySettings,
  CommandLineError,
  parseCommandLine,
  readConfigFile,
  usage,
  type TInvocation,
} from './command-line';
import { MANIFEST_ASSET, REPLICA_WORKER_ASSET, type TBinaryManifest } from './manifest';
import { registerNativeAddons } from './native';
import { CacheDirectoryError, cacheRoot, extractFiles } from './private-cache';

const NAME = 'tidewatch';

function readManifest(): TBinaryManifest {
  return JSON.parse(getAsset(MANIFEST_ASSET, 'utf8')) as TBinaryManifest;
}

/** Writes (or checks) the native addons and the migrations in the cache, and points their users at them. */
async function prepareFiles(manifest: TBinaryManifest): Promise<void> {
  const dir = join(cacheRoot(process.env, process.env.DATABASE_URL), manifest.cacheName);
  const paths = extractFiles(
    dir,
    Object.entries(manifest.files).map(([key, sha256]) => ({
      key,
      sha256,
      bytes: () => new Uint8Array(getRawAsset(key)),
    })),
  );
  const addons = Object.entries(manifest.nativeAddons).map(([id, key]): [string, string] => [id, paths.get(key)!]);
  registerNativeAddons(new Map(addons));
  // db/client.ts imports libSQL, whose addon the hook above just made loadable.
  const { useMigrationsFolder } = await import('../../db/client');
  useMigrationsFolder(join(dir, ...manifest.migrationsPrefix.split('/')));
  // An embedded replica's thread registers the same addons for itself (server/binary/replica-sync-worker.ts).
  const { useReplicaWorker } = await import('../../db/replica-sync-thread');
  useReplicaWorker({ file: paths.get(REPLICA_WORKER_ASSET)!, workerData: { nativeAddons: addons } });
}

async function run(invocation: TInvocation, manifest: TBinaryManifest): Promise<void> {
  if (invocation.kind === 'version') {
    console.log(
      `${NAME} ${manifest.version} (commit ${manifest.commit}, Node.js ${process.versions.node}, ${process.platform}-${process.arch})`,
    );
    return;
  }
  if (invocation.kind === 'help') {
    console.log(usage(NAME));
    return;
  }
  applySettings(process.env, invocation.configFile ? readConfigFile(invocation.configFile) : {});
  await prepareFiles(manifest);
  if (invocation.kind === 'serve') {
    await import('../serve');
    return;
  }
  // server/cli/main.ts reads its arguments from process.argv, after the executable's path and name.
  process.argv = [process.argv[0]!, process.argv[1]!, ...invocation.argv];
  await import('../cli/main');
}

async function main(): Promise<void> {
  if (!isSea()) {
    console.error(
      `${NAME}: server/binary/main.ts is the single executable's entry: build it with npm run build:binary`,
    );
    process.exit(1);
  }
  let invocation: TInvocation;
  try {
    invocation = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    console.error(`${NAME}: ${error.message}\n${usage(NAME)}`);
    process.exit(2);
  }
  try {
    await run(invocation, readManifest());
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof CacheDirectoryError)) throw error;
    // One line, as the server's own start-up errors are (server/serve.ts).
    const what = invocation.kind === 'serve' ? `${NAME} failed to start` : NAME;
    console.error(`${what}: ${error.message}`);
    process.exit(1);
  }
}

await main();
