import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Whether an error means the database could not be reached or did not answer in time (a libSQL
 * server stopped, restarting or partitioned away; a file locked past the busy timeout), as opposed
 * to a bug or bad SQL. The error mapper answers these with a 503 and Retry-After instead of a 500:
 * the request may well succeed a moment later, and nothing of it was committed.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/**
 * libSQL client codes for a server that failed or dropped the stream, sqld's own deadline of a
 * transaction (it rolled it back to give its write lock to another), and SQLite's "still locked".
 */
const DATABASE_CODES = new Set([
  'SERVER_ERROR',
  'HRANA_CLOSED_ERROR',
  'HRANA_WEBSOCKET_ERROR',
  'STREAM_EXPIRED',
  'TRANSACTION_TIMEOUT',
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
]);

/** The error and its causes, outermost first (drivers and drizzle wrap the driver's error). */
function* errorChain(error: unknown): Generator<{ name?: unknown; code?: unknown; message?: unknown }> {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    yield current as { name?: unknown; code?: unknown; message?: unknown };
    current = (current as { cause?: unknown }).cause;
  }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const current of errorChain(error)) {
    const { name, code, message } = current;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || DATABASE_CODES.has(code))) return true;
    // The remote statement deadline (db/client.ts, DATABASE_TIMEOUT_MS) aborts the request's fetch.
    if (name === 'TimeoutError') return true;
    if (current instanceof TypeError && message === 'fetch failed') return true;
  }
  return false;
}

/** SQLITE_BUSY: another connection held the write lock past the busy timeout (the database takes writes; it was only busy). */
export function isWriteLockBusy(error: unknown): boolean {
  for (const { code } of errorChain(error)) if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) return true;
  return false;
}

/**
 * How long, in all, migrate() waits for another process's write lock. An instance started beside one
 * that is writing (CI's sqld pass: the second of two instances exited with SQLITE_BUSY), or a command
 * run during a long import, meets a lock held past the busy timeout; the migrations are each one
 * transaction, so trying again once the lock is free is safe.
 */
export const MIGRATE_PATIENCE_MS = 60_000;

/** Runs `work` until it does not meet a busy write lock, for MIGRATE_PATIENCE_MS in all; `afterBusy` first makes the client usable again. */
export async function whileBusy<T>(work: () => Promise<T>, afterBusy?: () => Promise<void> | void): Promise<T> {
  const deadline = Date.now() + MIGRATE_PATIENCE_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isWriteLockBusy(error) || Date.now() >= deadline) throw error;
      await afterBusy?.();
      await sleep(Math.min(1_000, 50 * 2 ** attempt));
    }
  }
}
