import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLogger } from '../logger';
import { methodLabel } from './metrics';

/** What one request log line carries; nothing else of the request (headers, query, body) is logged. */
export interface TRequestLog {
  requestId: string;
  method: string;
  /** Route template, e.g. `/api/map/collection/{uuid}`, `/trpc/user.me`, `(unmatched)`. */
  route: string;
  /** The path without its query string (queries can carry passwords, e.g. /assembly/item?password=). */
  path: string;
  status: number;
  durationMs: number;
  /** True when the client went away before the response was complete (status 499). */
  aborted?: true;
}

const MAX_LOGGED_PATH = 256;
/** nginx's code for "client closed the connection before the response was sent". */
export const CLIENT_CLOSED = 499;

export function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  const path = query === -1 ? raw : raw.slice(0, query);
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path;
}

/**
 * Calls `done` once per request when its response is complete or abandoned, with its duration.
 * Both surfaces (REST, native tRPC) and the static pages go through the one Node handler, so one
 * hook observes them all.
 */
export function onRequestDone(
  req: IncomingMessage,
  res: ServerResponse,
  done: (outcome: { method: string; path: string; status: number; seconds: number; aborted: boolean }) => void,
): void {
  const startedAt = performance.now();
  res.once('close', () => {
    const seconds = (performance.now() - startedAt) / 1e3;
    const aborted = !res.writableFinished;
    done({
      method: methodLabel(req.method),
      path: pathOf(req.url),
      status: aborted ? CLIENT_CLOSED : res.statusCode,
      seconds,
      aborted,
    });
  });
}

/** One JSON line per request: info, or error for 5xx (whose stack is logged separately as "request failed"). */
export function logRequest(logger: TLogger, entry: TRequestLog): void {
  if (entry.status >= 500) logger.error(entry, 'request');
  else logger.info(entry, 'request');
}
