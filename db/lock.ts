import Database from 'better-sqlite3';

/**
 * Who uses a database file, across processes: every server (and CLI command) holds a shared lock on
 * `<file>.lock` for its lifetime, and `restore` takes it exclusively. A server that sits idle still has the database
 * open (and may write any moment: jobs, view counts), which SQLite's own locks do not show, since in
 * WAL mode an idle connection holds none that another process can test. The lock file's locks are
 * SQLite's (POSIX advisory locks), so the operating system drops them when the process ends, even on
 * SIGKILL: a crashed server never leaves a stale lock behind.
 *
 * Always opened with better-sqlite3, whatever the database's driver: two SQLite libraries in one
 * process do not see each other's locks, so the lock file must have only one.
 */
export function lockFileOf(file: string): string {
  return `${file}.lock`;
}

export interface TDatabaseLock {
  release(): void;
}

/** Thrown when the lock is held the other way: the message says by whom. */
export class DatabaseLockBusyError extends Error {
  override name = 'DatabaseLockBusyError';
}

function isBusy(error: unknown): boolean {
  return String((error as { code?: string }).code ?? '').startsWith('SQLITE_BUSY');
}

/**
 * A server's or a command's hold: shared with the others on the same file (several instances), refused
 * while a restore holds it (after waiting `waitMs` for it to finish). In exclusive locking mode SQLite keeps the shared lock of the first read until
 * the connection closes.
 */
export function holdSharedLock(file: string, waitMs: number): TDatabaseLock {
  const lock = new Database(lockFileOf(file), { timeout: waitMs });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.prepare('select count(*) from sqlite_master').get();
  } catch (error) {
    lock.close();
    if (isBusy(error))
      throw new DatabaseLockBusyError(
        `${file} is being restored (a restore holds ${lockFileOf(file)}): start again once it has finished`,
      );
    throw error;
  }
  return { release: () => lock.close() };
}

/** Restore's hold: exclusive, at once or not at all, so no server starts on the file while it is replaced. */
export function takeExclusiveLock(file: string): TDatabaseLock {
  const lock = new Database(lockFileOf(file), { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE');
    lock.exec('COMMIT');
  } catch (error) {
    lock.close();
    if (isBusy(error)) {
      throw new DatabaseLockBusyError(
        `a running Tidewatch server (or another command) has ${file} open (it holds ${lockFileOf(file)})`,
      );
    }
    throw error;
  }
  return { release: () => lock.close() };
}
