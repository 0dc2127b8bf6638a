import { createServer, type Server } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { openDatabase, type TDatabase } from '../db/client';
import { seedDemoData } from '../db/seed';
import { createApp, createDeps, type TApp } from './app';
import type { TConfig } from './config';
import { JOBS, startJobs } from './jobs';
import { createLogger, type TLogger } from './logger';
import { envelopeBody } from './rest/envelope';
import { connectSharedState, type TSharedState } from './scale';
import { withRedisLock } from './scale/redis';

export const REQUEST_TIMEOUT_MS = 30_000;
export const HEADERS_TIMEOUT_MS = 20_000;
export const MAX_HEADER_BYTES = 16 * 1024;
/** How long, after SIGTERM, an accepted connection may take to send its request before idle ones are closed. */
export const IDLE_GRACE_MS = 1_000;

/** Requests Node rejects before our handler runs (oversized headers, timeouts, garbage) still get the envelope. */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', `Request headers exceed ${MAX_HEADER_BYTES} bytes`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'Request took too long to arrive']
        : [400, 'Bad Request', 'Malformed HTTP request'];
  const body = envelopeBody(status, message, {});
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export interface TRunningServer {
  server: Server;
  app: TApp;
  database: TDatabase;
  port: number;
  url: string;
  /** Stops accepting, lets in-flight requests finish (up to SHUTDOWN_TIMEOUT_MS), closes the database. */
  close(): Promise<void>;
}

/** Opens and migrates the database, seeds demo data if empty and allowed, and listens. */
export async function startServer(
  config: TConfig,
  options: { logger?: TLogger; now?: () => Date } = {},
): Promise<TRunningServer> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const database = openDatabase(config.DATABASE_URL, { driver: config.DATABASE_DRIVER, authToken: config.DATABASE_AUTH_TOKEN });
  let shared: TSharedState | undefined;
  try {
    shared = config.REDIS_URL ? await connectSharedState(config.REDIS_URL, logger) : undefined;
    const deps = createDeps(config, logger, options.now, shared);
    const prepare = async () => {
      await database.migrate();
      if (config.SEED_DEMO && (await seedDemoData(database.db, deps.now()))) {
        logger.info('seeded demo data into an empty database');
      }
    };
    // Instances starting together on one database migrate and seed one at a time.
    if (shared) await withRedisLock(shared.redis, 'startup', { ttlMs: 120_000, waitMs: 150_000 }, prepare);
    else await prepare();
    const app = createApp({ db: database.db, deps });
    const stopJobs = startJobs(JOBS, database.db, deps);
    const server = createServer(
      { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: HEADERS_TIMEOUT_MS, maxHeaderSize: MAX_HEADER_BYTES },
      app.handle,
    );
    server.keepAliveTimeout = 5_000;
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.PORT, config.HOST, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
    logger.info({ url, database: database.file, driver: database.driver, redis: Boolean(shared) }, 'tidewatch listening');
    if (config.NODE_ENV === 'production' && config.METRICS_TOKEN === undefined) {
      logger.warn('GET /metrics is served without a token: set METRICS_TOKEN or block /metrics at the proxy if the port is public');
    }

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= new Promise<void>((resolve) => {
        // From now on every response says Connection: close, so keep-alive clients reconnect elsewhere.
        app.beginShutdown();
        const force = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS);
        force.unref();
        // Connections already accepted may not have delivered their request yet (they look idle):
        // leave them a moment, then close whatever is idle as it becomes so.
        let reaper: NodeJS.Timeout | undefined;
        const grace = setTimeout(() => {
          server.closeIdleConnections();
          reaper = setInterval(() => server.closeIdleConnections(), 100);
          reaper.unref();
        }, Math.min(IDLE_GRACE_MS, config.SHUTDOWN_TIMEOUT_MS));
        grace.unref();
        // net.Server's close stops accepting without http.Server's immediate closing of "idle" connections.
        NetServer.prototype.close.call(server, () => {
          clearTimeout(force);
          clearTimeout(grace);
          clearInterval(reaper);
          stopJobs()
            .finally(() => shared?.close())
            .finally(() => {
              database.close();
              resolve();
            });
        });
      }));
    return { server, app, database, port, url, close };
  } catch (error) {
    await shared?.close();
    database.close();
    throw error;
  }
}
