/**
 * What scripts/build-binary.ts puts in the single executable beside its code, as the SEA asset
 * `manifest.json`, and what the executable reads back at start-up (server/binary/main.ts).
 */
export const MANIFEST_ASSET = 'manifest.json';

export interface TBinaryManifest {
  /** package.json's version. */
  version: string;
  /** The git commit built, with `-dirty` when the working tree had changes; `unknown` outside a git checkout. */
  commit: string;
  /**
   * The name of the cache directory the files below are extracted to: the version and a digest of
   * every file's hash, so that two builds never share one.
   */
  cacheName: string;
  /**
   * Files that must be on disk to be used, by asset key (also their path in the cache directory), with
   * their SHA-256 in hex: the native addons (the system loads them from a file), the migrations
   * (drizzle's migrator reads a folder) and the replica's thread (a worker starts from a file).
   */
  files: Record<string, string>;
  /** The module ids the bundle requires a native addon by (better-sqlite3's is ours), to their asset key. */
  nativeAddons: Record<string, string>;
  /** The asset key prefix of the migrations folder (its meta/_journal.json and .sql files). */
  migrationsPrefix: string;
}

/**
 * The asset key (and path in the cache) of an embedded replica's thread: its own bundle of
 * server/binary/replica-sync-worker.ts, started from the file (db/replica-sync-thread.ts).
 */
export const REPLICA_WORKER_ASSET = 'code/replica-sync-worker.mjs';

/** The id the better-sqlite3 shim (server/binary/better-sqlite3.ts) requires its addon by. */
export const BETTER_SQLITE3_ADDON = 'better-sqlite3/better_sqlite3.node';
