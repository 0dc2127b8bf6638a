/**
 * The single executable's files on disk: what must be a file to be used (the native addons, which the
 * system loads from a file, and the migrations, which drizzle's migrator reads from a folder) is written
 * from the executable's SEA assets to a versioned cache directory, and checked before every use.
 *
 * - Where: under $XDG_CACHE_HOME, else next to the database file, else the system's temporary directory;
 *   in each, one directory per build (manifest.cacheName), so an upgrade never reads an older build's files.
 * - Who can write there: only this user. The directories are made 0700 and the files 0600; before a file
 *   is used, its directory, the directories above it (up to /) and the file itself are checked: a symbolic
 *   link, an owner other than this user (or root above it), or a directory others can write to (without
 *   the sticky bit, as /tmp has) stops the start with one line that says which and what to do.
 * - What: every file is compared with its SHA-256 from the manifest, at every start; a missing or
 *   different file is written again (to a temporary name, then renamed, so that two processes starting
 *   together never read a half-written file).
 */
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** The cache directory cannot be used: one line for the operator, saying which directory and what to do. */
export class CacheDirectoryError extends Error {
  override name = 'CacheDirectoryError';
}

export interface TPackedFile {
  /** Its path under the cache directory, `/`-separated (also its asset key). */
  key: string;
  sha256: string;
  bytes(): Uint8Array;
}

const uid = process.getuid?.() ?? 0;
const STICKY = 0o1000;
const HINT = 'set XDG_CACHE_HOME to a directory that only this user can write';

/**
 * The directory the build's files go under, before its per-build subdirectory. `databaseUrl` is read
 * as db/client.ts's fileFromUrl reads it: that module cannot be loaded before the native addons it imports.
 */
export function cacheRoot(env: NodeJS.ProcessEnv, databaseUrl: string | undefined): string {
  // The XDG base directory specification: a relative path is invalid and ignored.
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, 'tidewatch');
  const file = databaseUrl?.startsWith('file:') ? databaseUrl.slice('file:'.length).replace(/^\/\/(?=\/)/, '') : '';
  if (file !== '' && file !== ':memory:') return join(dirname(resolve(file)), '.tidewatch-cache');
  return join(tmpdir(), `tidewatch-cache-${uid}`);
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

function makeDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new CacheDirectoryError(`cannot create the cache directory ${dir} (${errorCode(error)}): ${HINT}`);
  }
}

/** A directory of ours: not a link, this user's, and closed to others (0700 when `closed`, else at least not writable by them). */
function checkOwnDirectory(dir: string, closed: boolean): void {
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw new CacheDirectoryError(`the cache directory ${dir} is not a directory: ${HINT}`);
  if (stat.uid !== uid)
    throw new CacheDirectoryError(`the cache directory ${dir} belongs to uid ${stat.uid}, not to this user: ${HINT}`);
  if ((stat.mode & (closed ? 0o077 : 0o022)) !== 0) {
    const mode = (stat.mode & 0o777).toString(8);
    throw new CacheDirectoryError(`the cache directory ${dir} is open to other users (mode ${mode}): ${HINT}`);
  }
}

/** Nobody but this user and root can replace anything on the way to `dir`: each directory above it is theirs, and others cannot write to it unless it is sticky. */
function checkAncestors(dir: string): void {
  for (let current = dirname(realpathSync(dir)); ; current = dirname(current)) {
    const stat = statSync(current);
    const othersWrite = (stat.mode & 0o022) !== 0 && (stat.mode & STICKY) === 0;
    if ((stat.uid !== uid && stat.uid !== 0) || othersWrite) {
      throw new CacheDirectoryError(
        `the cache directory ${dir} is inside ${current}, which ${othersWrite ? 'other users can write to' : `belongs to uid ${stat.uid}`}: ${HINT}`,
      );
    }
    if (dirname(current) === current) return;
  }
}

function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The file is ours, closed to others, and holds exactly what the manifest says. */
function isIntact(path: string, sha256: string): boolean {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(path);
  } catch {
    return false;
  }
  return stat.isFile() && stat.uid === uid && (stat.mode & 0o077) === 0 && sha256Of(readFileSync(path)) === sha256;
}

function writePrivateFile(path: string, bytes: Uint8Array): void {
  const partial = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.partial`;
  try {
    writeFileSync(partial, bytes, { mode: 0o600, flag: 'wx' });
    renameSync(partial, path);
  } catch (error) {
    throw new CacheDirectoryError(`cannot write ${path} (${errorCode(error)}): ${HINT}`);
  }
}

/** Makes `path` and the directories between it and `checked`'s first entry, each private (0700, ours). */
function privateDirectory(path: string, checked: Set<string>): void {
  if (checked.has(path)) return;
  privateDirectory(dirname(path), checked);
  makeDirectory(path);
  checkOwnDirectory(path, true);
  checked.add(path);
}

/**
 * Makes `dir` (the build's cache directory) hold every file, intact and private, and returns the path of each by key.
 * Throws a CacheDirectoryError when that cannot be done safely.
 */
export function extractFiles(dir: string, files: TPackedFile[]): Map<string, string> {
  try {
    return extractChecked(dir, files);
  } catch (error) {
    if (error instanceof CacheDirectoryError) throw error;
    throw new CacheDirectoryError(`cannot use the cache directory ${dir} (${errorCode(error)}): ${HINT}`);
  }
}

function extractChecked(dir: string, files: TPackedFile[]): Map<string, string> {
  makeDirectory(dir);
  checkAncestors(dir);
  checkOwnDirectory(dir, true);
  const checked = new Set([dir]);
  const paths = new Map<string, string>();
  for (const file of files) {
    const path = join(dir, ...file.key.split('/'));
    privateDirectory(dirname(path), checked);
    if (!isIntact(path, file.sha256)) {
      writePrivateFile(path, file.bytes());
      if (!isIntact(path, file.sha256))
        throw new CacheDirectoryError(`${path} does not hold what was written to it: ${HINT}`);
    }
    paths.set(file.key, path);
  }
  return paths;
}
