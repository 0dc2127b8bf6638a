import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestStats } from './request-stats';
import { responseHeadOf } from './response-head';
import type { AnyRouter } from '@trpc/server';
import { count, gt, sql } from 'drizzle-orm';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { TDb } from '../../db/client';
import { sessions } from '../../db/schema';
import { readAccessToken } from '../context';
import { AppError } from '../errors';
import { matchedRouteOf, routePathOf, type RouteTable } from '../rest/routes';

/** Label of requests that matched no route: raw paths would give scanners unbounded label values. */
export const UNMATCHED_ROUTE = '(unmatched)';
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function methodLabel(method: string | undefined): string {
  const upper = (method ?? 'GET').toUpperCase();
  return KNOWN_METHODS.has(upper) ? upper : 'OTHER';
}

/**
 * Maps a request path to its route template (`/api/map/collection/{uuid}`, `/trpc/user.me`), the
 * label of logs and metrics. Only names that exist in the router come out, so cardinality is bounded.
 */
export function createRouteLabeler(
  router: AnyRouter,
  routes: RouteTable,
): (pathname: string, req?: IncomingMessage) => string {
  const procedures = new Set(Object.keys(router._def.procedures as Record<string, unknown>));

  return (pathname, req) => {
    if (pathname === '/' || pathname === '/metrics' || pathname === '/api/openapi.json') return pathname;
    if (pathname === '/api/docs' || pathname.startsWith('/api/docs/')) return '/api/docs';
    if (pathname.startsWith('/trpc/')) {
      const names = pathname.slice('/trpc/'.length);
      if (names.includes(',')) return '/trpc/(batch)';
      return procedures.has(names) ? pathname : '/trpc/(unknown)';
    }
    if (pathname.startsWith('/api/')) {
      // The route the handler matched; a request refused before it (rate limit, CORS) asks the same table.
      const template = (req && matchedRouteOf(req)) ?? routes.templateOf(routePathOf(pathname.slice('/api'.length)));
      if (template !== undefined) return `/api${template}`;
    }
    return UNMATCHED_ROUTE;
  };
}

export interface TMetrics {
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Answers GET /metrics: Prometheus text format, behind METRICS_TOKEN when one is configured. */
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * One registry per app (not prom-client's global one), so several apps in one process (tests) do not
 * collide. Database figures are read at scrape time, never on the request path.
 */
export function createMetrics(options: {
  db: TDb;
  now: () => Date;
  version: string;
  token: string | undefined;
}): TMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new RequestStats(
    { requests: 'tidewatch_http_requests_total', duration: 'tidewatch_http_request_duration_seconds' },
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  requests.register(registry, {
    requests: 'HTTP requests answered, by method, route template and status',
    duration: 'Time from request arrival to the last byte of the response, by method, route template and status',
  });
  new Gauge({
    name: 'tidewatch_build_info',
    help: 'Always 1; the version label says which release runs',
    labelNames: ['version'] as const,
    registers: [registry],
  }).set({ version: options.version }, 1);
  new Gauge({
    name: 'tidewatch_db_size_bytes',
    help: 'Size of the SQLite database (page_count * page_size, without the WAL file)',
    registers: [registry],
    async collect() {
      const row = await options.db.get<{ bytes: number }>(
        sql`select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`,
      );
      this.set(Number(row?.bytes ?? 0));
    },
  });
  new Gauge({
    name: 'tidewatch_active_sessions',
    help: 'Sessions that have not expired',
    registers: [registry],
    async collect() {
      const [row] = await options.db.select({ n: count() }).from(sessions).where(gt(sessions.expiresAt, options.now()));
      this.set(row?.n ?? 0);
    },
  });

  const expected = options.token === undefined ? undefined : digest(options.token);

  return {
    observeRequest: (method, route, status, seconds) => requests.observe(method, route, status, seconds),
    async serve(req, res) {
      const method = (req.method ?? 'GET').toUpperCase();
      if (method !== 'GET' && method !== 'HEAD') {
        responseHeadOf(res).set('allow', 'GET, HEAD');
        throw new AppError('METHOD_NOT_SUPPORTED', `Method ${method} not allowed for /metrics; use GET`);
      }
      if (expected) {
        const given = readAccessToken(req);
        // Compare digests: equal length, constant time, whatever the caller sent.
        if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
          responseHeadOf(res).set('www-authenticate', 'Bearer realm="metrics"');
          throw new AppError('UNAUTHORIZED', 'Metrics need the METRICS_TOKEN as a bearer token');
        }
      }
      const body = await registry.metrics();
      const head = responseHeadOf(res);
      head.setAll({
        'content-type': registry.contentType,
        'cache-control': 'no-store',
        'content-length': Buffer.byteLength(body),
      });
      head.send(res, 200, method === 'HEAD' ? undefined : body);
    },
  };
}
