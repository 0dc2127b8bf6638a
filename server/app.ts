import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TDb } from '../db/client';
import packageJson from '../package.json' with { type: 'json' };
import type { TConfig } from './config';
import { createContext, type TRequestIdentity } from './context';
import type { TAppDeps } from './deps';
import { isDocsPath, serveDocs } from './docs';
import { AppError, toPublicError } from './errors';
import type { TLogger } from './logger';
import { clientIpOf } from './http/client-ip';
import { logRequest, onRequestDone } from './http/logging';
import { createMetrics, createRouteLabeler } from './http/metrics';
import { createRateLimits, isUnlimitedPath, rateLimitHeaders } from './http/rate-limit';
import { responseHeadOf, startResponseHead } from './http/response-head';
import { createSecurity } from './http/security';
import { buildOpenApiDocument } from './openapi';
import { envelopeBody, sendJson } from './rest/envelope';
import { createRestHandler, sendError } from './rest/handler';
import { RouteTable } from './rest/routes';
import { splitRequestTarget } from './rest/url';
import { appRouter } from './router';
import { createCaptchaService } from './domains/captcha/service';
import { createTrpcHandler, sendTrpcError, trpcCallCount } from './trpc-http/handler';
import { MemoryExpiringKeys } from './infra/expiring-keys';
import { MemoryReadCache } from './infra/cache/read-cache';
import { createLiveDataRuntime } from './domains/drop/runtime';
import type { TDropCurrentSnapshot } from './domains/drop/schemas';
import { validateSessionToken } from './domains/user/session';
import { CACHE_KEY_GROUPS, createCaches } from './infra/cache';
import { localBus } from './infra/redis/invalidation';
import { ViewCounter } from './infra/view-counter';
import type { TStoredCounters } from './infra/cache/stored-answers';
import type { TSharedState } from './infra/redis';
import { redisRateLimitStore } from './infra/redis/rate-limit-store';
import { SharedReadCache } from './infra/cache/shared-read-cache';
import { RedisExpiringKeys } from './infra/redis/expiring-keys';
import { EventBus } from './infra/events/bus';
import { LiveConnections } from './infra/events/connections';
import { createEventStream } from './live/sse';

// Imported, not read from disk, so the production bundle carries it.
export const VERSION: string = packageJson.version;

export interface TApp {
  /** The Node request listener serving /api (REST), /trpc (native tRPC) and the docs. */
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  deps: TAppDeps;
  /** Built on first use (it costs ~0.2 s of start-up otherwise), then kept. */
  openApiDocument: () => object;
  /** Marks the app as draining: every response from now on carries `Connection: close`. */
  beginShutdown: () => void;
}

/**
 * What the stored REST answers (server/infra/cache/stored-answers.ts) and the cached list pages together may
 * hold at most: 8 MiB, about 330 list pages of 20 kept both ways (the service's page, ~15 KB of heap,
 * and the REST answer's ~10 KB of bytes). A client asking for endless distinct pages or searches
 * evicts older ones instead of growing the process: at 16 MiB a burst of searches took the peak RSS
 * of the benchmark past 200 MB (bench/README.md).
 */
export const READ_CACHE_MAX_BYTES = 8 * 1024 * 1024;

/** `shared` (REDIS_URL): rate limits, cache invalidation, captcha replays and throttles span every instance. */
export function createDeps(
  config: TConfig,
  logger: TLogger,
  now: () => Date = () => new Date(),
  shared?: TSharedState,
): TAppDeps {
  const hmacKey = config.CAPTCHA_HMAC_KEY ?? randomUUID() + randomUUID();
  const localCache = new MemoryReadCache({
    maxEntries: 2000,
    maxBytes: READ_CACHE_MAX_BYTES,
    ttlMs: 30_000,
    now: () => now().getTime(),
    admitOnSecondOffer: true,
    groups: CACHE_KEY_GROUPS,
  });
  const redis = shared?.redis.client;
  const caches = createCaches<TDropCurrentSnapshot>(
    shared ? new SharedReadCache(localCache, shared.bus) : localCache,
    shared?.bus ?? localBus,
  );
  return {
    config,
    logger,
    now,
    captcha: createCaptchaService({
      hmacKey,
      maxNumber: config.CAPTCHA_MAX_NUMBER,
      used: redis ? new RedisExpiringKeys(redis, 'tw:captcha-used:') : new MemoryExpiringKeys(),
    }),
    limits: createRateLimits(config, redis ? redisRateLimitStore(redis) : undefined),
    caches,
    liveData: createLiveDataRuntime(
      config,
      caches.dropCurrent,
      // Each key holds the deadline of a client's refresh (`tw:drop-refresh:`, of earlier versions, held its start).
      redis
        ? new RedisExpiringKeys(redis, 'tw:drop-refresh-until:', { fallback: new MemoryExpiringKeys(), logger })
        : undefined,
    ),
    views: new ViewCounter(),
    shared,
    validateSession: validateSessionToken,
    events: new EventBus({
      resumeEvents: config.LIVE_RESUME_EVENTS,
      logger,
      now,
      // Ids made here while Redis is down must not pass for the ids Redis gives every instance.
      localIdSuffix: shared ? `-${shared.redis.instanceId.slice(0, 8)}` : undefined,
      once: redis
        ? new RedisExpiringKeys(redis, 'tw:live-once:', { fallback: new MemoryExpiringKeys(), logger })
        : new MemoryExpiringKeys(),
    }),
    liveConnections: new LiveConnections({
      maxPerClient: config.LIVE_MAX_CONNECTIONS_PER_CLIENT,
      maxTotal: config.LIVE_MAX_CONNECTIONS,
      heartbeatMs: config.LIVE_HEARTBEAT_MS,
    }),
  };
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
export const MAX_URL_LENGTH = 8 * 1024;

function isTrpcPath(pathname: string): boolean {
  return pathname === '/trpc' || pathname.startsWith('/trpc/');
}

function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** Builds everything once: route table and handlers; the OpenAPI document on its first request. */
export function createApp(options: { db: TDb; deps: TAppDeps }): TApp {
  const { db, deps } = options;
  const contextFor = (req: IncomingMessage, identity: TRequestIdentity, rawBody?: Buffer) =>
    createContext({ req, db, deps, identity, rawBody });
  const logServerError = (error: unknown, info: Record<string, unknown>) =>
    deps.logger.error({ err: error, ...info }, 'request failed');

  const routes = RouteTable.fromRouter(appRouter);
  // Stored answers of an item read are replayed around its live view count (server/infra/cache/stored-answers.ts).
  const counters: TStoredCounters = { assemblyViews: (uuid) => deps.views.recordKnown(uuid) };
  const rest = createRestHandler({
    routes,
    createContext: contextFor,
    onServerError: logServerError,
    caches: deps.caches,
    nowMs: () => deps.now().getTime(),
    counters,
  });
  const trpc = createTrpcHandler({
    router: appRouter,
    createContext: (req, identity) => contextFor(req, identity),
    maxBatchSize: deps.config.TRPC_MAX_BATCH_SIZE,
    caches: deps.caches,
    nowMs: () => deps.now().getTime(),
    counters,
    onServerError: logServerError,
  });
  let openApi: { document: object; json: string } | undefined;
  const openApiBuilt = () => {
    if (!openApi) {
      const document = buildOpenApiDocument(appRouter, VERSION);
      openApi = { document, json: JSON.stringify(document) };
    }
    return openApi;
  };
  const security = createSecurity(deps.config);
  const routeOf = createRouteLabeler(appRouter, routes);
  const metrics = createMetrics({ db, now: deps.now, version: VERSION, token: deps.config.METRICS_TOKEN });
  const eventStream = createEventStream(deps);

  async function route(req: IncomingMessage, res: ServerResponse, identity: TRequestIdentity): Promise<void> {
    if (security.applyCors(req, res, responseHeadOf(res))) return;
    if ((req.url ?? '').length > MAX_URL_LENGTH) {
      throw new AppError('BAD_REQUEST', `URL longer than ${MAX_URL_LENGTH} characters`);
    }
    const { pathname, search } = splitRequestTarget(req.url ?? '/');
    const isTrpc = isTrpcPath(pathname);
    // Outside the global per-client limit: monitoring and the static reference (isDocsPath: only what it serves).
    if (!isUnlimitedPath(pathname) && !isDocsPath(pathname)) {
      // Each call of a tRPC batch counts, as if it came alone.
      const calls = isTrpc
        ? trpcCallCount(pathname.slice('/trpc/'.length), search, deps.config.TRPC_MAX_BATCH_SIZE)
        : 1;
      const state = await deps.limits.global.hit(identity.clientIp, undefined, calls);
      responseHeadOf(res).setAll(rateLimitHeaders(state));
    }

    if (isTrpc) {
      await trpc(req, res, pathname.slice('/trpc/'.length), search, identity);
      return;
    }
    if (pathname === '/metrics') {
      await metrics.serve(req, res);
      return;
    }
    if (pathname === '/api/openapi.json') {
      sendJson(res, 200, openApiBuilt().json, { 'cache-control': 'public, max-age=60' });
      return;
    }
    if (pathname === '/api/docs' || pathname.startsWith('/api/docs/')) {
      if (serveDocs(res, pathname.slice('/api/docs'.length))) return;
    }
    if (pathname === '/api/events') {
      eventStream(req, res, search, identity);
      return;
    }
    if (pathname.startsWith('/api/')) {
      await rest(req, res, pathname.slice('/api'.length), search, identity);
      return;
    }
    if (pathname === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
      sendJson(
        res,
        200,
        envelopeBody(200, 'success', {
          name: 'tidewatch',
          version: VERSION,
          docs: '/api/docs',
          openapi: '/api/openapi.json',
        }),
      );
      return;
    }
    throw new AppError('NOT_FOUND', `No route for ${req.method} ${pathname}`);
  }

  let draining = false;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const requestId = requestIdOf(req);
    // Every answer's headers, written with its status in one go (http/response-head.ts).
    const head = startResponseHead(res, security.headersFor(req));
    head.set('x-request-id', requestId);
    if (draining) head.set('connection', 'close');
    onRequestDone(req, res, ({ method, path, status, seconds, aborted }) => {
      const route = routeOf(path, req);
      metrics.observeRequest(method, route, status, seconds);
      // Building the line costs more than pino's check: skip it when the level is off (LOG_LEVEL=warn and above).
      if (!deps.logger.isLevelEnabled(status >= 500 ? 'error' : 'info')) return;
      const durationMs = Math.round(seconds * 1e6) / 1e3;
      logRequest(deps.logger, {
        requestId,
        method,
        route,
        path,
        status,
        durationMs,
        ...(aborted ? { aborted: true as const } : {}),
      });
    });
    route(req, res, { requestId, clientIp: clientIpOf(req, deps.config.TRUST_PROXY) }).catch((error: unknown) => {
      const logIt = () => logServerError(error, { requestId, url: req.url });
      if (isTrpcPath(splitRequestTarget(req.url ?? '/').pathname)) {
        if (toPublicError(error, requestId).status >= 500) logIt();
        sendTrpcError(res, appRouter, error, requestId);
      } else {
        sendError(res, error, requestId, undefined, logIt);
      }
    });
  };

  return {
    handle,
    deps,
    openApiDocument: () => openApiBuilt().document,
    beginShutdown: () => {
      draining = true;
    },
  };
}
