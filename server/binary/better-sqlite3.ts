/**
 * better-sqlite3 inside the single executable: scripts/build-binary.ts sends every other module's import of
 * `better-sqlite3` here. Its own loader looks for the addon beside its code, where the executable has
 * none, so every database opens with the addon from the private cache (server/binary/native.ts) as its
 * `nativeBinding`.
 */
import BetterSqlite3 from 'better-sqlite3';
import { BETTER_SQLITE3_ADDON } from './manifest';
import { nativeAddon } from './native';

class Database extends BetterSqlite3 {
  constructor(filename?: string | Buffer, options: BetterSqlite3.Options = {}) {
    // better-sqlite3 13 takes the addon object itself; its typings know only the path form.
    super(filename, { ...options, nativeBinding: nativeAddon(BETTER_SQLITE3_ADDON) as string });
  }
}

export default Database;
