import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS);
        force.unref();
        // Keep-alive connections become idle as their last response goes out: close them as they do.
        const reaper = setInterval(() => server.closeIdleConnections(), 50);
        reaper.unref();
        server.close(() => {
          clearTimeout(force);
          clearInterval(reaper);
          stopJobs()
            .finally(() => shared?.close())
            .finally(() => {
              database.close();
              resolve();
            });
        });
        server.closeIdleConnections();
      }));
    return { server, app, database, port, url, close };
  } catch (error) {
    await shared?.close();
    database.close();
    throw error;
  }
}
