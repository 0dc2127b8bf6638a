import { createServer, type Server } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { BUSY_TIMEOUT_MS, openDatabase, type TDatabase } from '../db/client';
import type { ReplicaSync } from '../db/replica';
import { holdSharedLock, type TDatabaseLock } from '../db/lock';
import { DEMO_USERS, hasDemoAccounts, seedDemoData, type TSeedReport } from './seed/index';
import { createApp, createDeps, type TApp } from './app';
import { redactUrl, type TConfig } from './config';
import { JOBS, startJobs } from './jobs';
import { createLogger, type TLogger } from './logger';
import { AppError, defaultErrorKey } from './errors';
import { envelopeBody } from './rest/envelope';
import { databaseWriteProblem } from './domains/health/service';
import { connectSharedState, type TSharedState } from './infra/redis';
import { withRedisLock } from './infra/redis/connection';
import { fillNameSkeletons } from './domains/user/names';
import { browsableBaseUrls } from './listen-addresses';
import { appRouter } from './router';
import { connectRedisEvents } from './infra/events/redis-transport';
import { createWebSocketDoor } from './live/websocket';

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
  const body = envelopeBody(status, message, {
    key: defaultErrorKey(status === 408 ? 'TIMEOUT' : status === 431 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST'),
  });
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
  /** Whether the demo accounts (published password) are in the database. */
  demoAccounts: boolean;
  /** Stops accepting, lets in-flight requests finish (up to SHUTDOWN_TIMEOUT_MS), closes the database. */
  close(): Promise<void>;
}

/** A start-up failure: one line that says what and where, for the operator (main.ts prints it without a stack). */
function startupError(message: string, cause: unknown): AppError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new AppError('INTERNAL_SERVER_ERROR', `${message}: ${reason}`.replace(/\s*\n\s*/g, ' '), { cause });
}

/**
 * Opens the database, refuses it unless it takes writes, and holds its lock file (db/lock.ts) so
 * that `restore` can tell it is in use.
 */
async function openForServing(config: TConfig): Promise<{ database: TDatabase; lock: TDatabaseLock | undefined }> {
  let database: TDatabase;
  try {
    database = openDatabase(config.DATABASE_URL, {
      driver: config.DATABASE_DRIVER,
      authToken: config.DATABASE_AUTH_TOKEN,
      timeoutMs: config.DATABASE_TIMEOUT_MS,
      syncUrl: config.DATABASE_SYNC_URL,
    });
  } catch (error) {
    throw startupError(`cannot open the database ${redactUrl(config.DATABASE_URL)}`, error);
  }
  const local = !database.remote && database.file !== ':memory:';
  try {
    const problem = await databaseWriteProblem({ db: database.db }, { file: local ? database.file : undefined });
    if (problem) throw new Error(problem);
    return { database, lock: local ? holdSharedLock(database.file, BUSY_TIMEOUT_MS) : undefined };
  } catch (error) {
    database.close();
    throw startupError(`the database ${database.file} cannot be used`, error);
  }
}

/**
 * An embedded replica (DATABASE_SYNC_URL) among several instances: every write's tables (those it may
 * have changed, or `*` for any) go out on the Redis bus before its answer does, and every instance
 * reads those tables from the primary until its copy has caught up; while its bus is down it reads
 * everything from the primary (it may have missed some). An instance that starts says `*`: it may
 * have migrated the schema. Without Redis, this instance's own writes are read back at once and
 * others' within the interval.
 */
const REPLICATION_TARGET = 'replication';
const ALL_TABLES = '*';

function tablesFromKey(key: string): readonly string[] | 'all' {
  return key === ALL_TABLES || key === '' ? 'all' : key.split(',');
}

function connectReplica(
  replica: ReplicaSync,
  config: TConfig,
  logger: TLogger,
  shared: TSharedState | undefined,
): void {
  if (shared) {
    const { bus } = shared;
    bus.subscribe(REPLICATION_TARGET, (message) => replica.require(tablesFromKey(message.key ?? '')));
    bus.onResync(() => replica.require('all'));
    const publish = (tables: readonly string[] | 'all') =>
      bus.publish({ target: REPLICATION_TARGET, op: 'key', key: tables === 'all' ? ALL_TABLES : tables.join(',') });
    replica.connect({ publish, mustSync: () => !bus.live });
    // The bus never rejects: a failed publish is logged there.
    void publish('all');
  }
  replica.startPeriodicSync(config.DATABASE_SYNC_INTERVAL_S * 1000, (error) =>
    logger.warn({ err: error }, 'periodic sync of the database replica failed'),
  );
}

/** Opens and migrates the database, seeds demo data if empty and allowed, and listens. */
export async function startServer(
  config: TConfig,
  options: { logger?: TLogger; now?: () => Date } = {},
): Promise<TRunningServer> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const { database, lock } = await openForServing(config);
  let shared: TSharedState | undefined;
  try {
    shared = config.REDIS_URL ? await connectSharedState(config.REDIS_URL, logger) : undefined;
    const deps = createDeps(config, logger, options.now, shared);
    if (database.replica) connectReplica(database.replica, config, logger, shared);
    // Live events reach every instance through the Redis connections the invalidations use.
    if (shared) await connectRedisEvents(deps.events, shared.redis, shared.bus, logger);
    if (config.NODE_ENV === 'production' && config.SEED_DEMO) {
      logger.warn(
        'SEED_DEMO=true in production: an empty database gets demo accounts whose password is published in the README',
      );
    }
    let demoAccounts = false;
    let seed: TSeedReport | undefined;
    const prepare = async () => {
      try {
        await database.migrate();
      } catch (error) {
        throw startupError(`cannot migrate the database ${database.file}`, error);
      }
      await fillNameSkeletons(database.db);
      if (config.SEED_DEMO) seed = await seedDemoData(database.db, deps.now());
      demoAccounts = await hasDemoAccounts(database.db);
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
    // The web client's WebSocket (LIVE_WS_PATH) on the same port; any other upgrade is refused there.
    server.on('upgrade', createWebSocketDoor({ db: database.db, deps, router: appRouter }).handleUpgrade);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.PORT, config.HOST, () => resolve());
      });
    } catch (error) {
      // The jobs started above must stop before the database closes (the catch below).
      await stopJobs().catch(() => undefined);
      const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      throw startupError(
        `cannot listen on ${config.HOST}:${config.PORT}`,
        inUse ? 'the port is in use (set PORT, or stop the other process)' : error,
      );
    }
    const port = (server.address() as AddressInfo).port;
    const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
    const names = DEMO_USERS.map((user) => `${user.username} (${user.role})`);
    const accounts = `${names.slice(0, -1).join(', ')} and ${names.at(-1)}, password "${DEMO_USERS[0].password}"`;
    // The first lines a developer sees: where to start, and how to sign in.
    if (config.NODE_ENV !== 'production') {
      const docs = browsableBaseUrls(config.HOST, port).map((base) => `${base}/api/docs`);
      logger.info({ docs }, `Tidewatch: API docs at ${docs.join(', ')}`);
      if (demoAccounts) logger.info(`demo accounts: ${accounts}`);
    } else if (demoAccounts) {
      logger.warn(
        `DEMO ACCOUNTS ARE ACTIVE IN PRODUCTION: ${accounts}. Delete them or change their passwords, and unset SEED_DEMO.`,
      );
    }
    logger.info(
      { url, database: database.file, driver: database.driver, redis: Boolean(shared) },
      'tidewatch listening',
    );
    if (seed?.seeded) logger.info('seeded demo data into an empty database');
    if (seed && seed.skippedAssemblies.length > 0) {
      logger.warn(
        { skipped: seed.skippedAssemblies },
        `demo assemblies skipped: the catalog in the database lacks their hulls or items (${seed.skippedAssemblies.join('; ')})`,
      );
    }
    if (config.NODE_ENV === 'production' && config.METRICS_TOKEN === undefined) {
      logger.warn(
        'GET /metrics is served without a token: set METRICS_TOKEN or block /metrics at the proxy if the port is public',
      );
    }

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= new Promise<void>((resolve) => {
        // From now on every response says Connection: close, so keep-alive clients reconnect elsewhere.
        app.beginShutdown();
        // Live streams never end by themselves: each gets its close frame or the end of its response now
        // (clients reconnect elsewhere and resume), and the server's close below waits for their sockets.
        void deps.liveConnections.closeAll(config.SHUTDOWN_TIMEOUT_MS);
        const force = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS);
        force.unref();
        // Connections already accepted may not have delivered their request yet (they look idle):
        // leave them a moment, then close whatever is idle as it becomes so.
        let reaper: NodeJS.Timeout | undefined;
        const grace = setTimeout(
          () => {
            server.closeIdleConnections();
            reaper = setInterval(() => server.closeIdleConnections(), 100);
            reaper.unref();
          },
          Math.min(IDLE_GRACE_MS, config.SHUTDOWN_TIMEOUT_MS),
        );
        grace.unref();
        // net.Server's close stops accepting without http.Server's immediate closing of "idle" connections.
        NetServer.prototype.close.call(server, () => {
          clearTimeout(force);
          clearTimeout(grace);
          clearInterval(reaper);
          void stopJobs()
            .finally(() => shared?.close())
            .finally(() => database.replica?.close())
            .finally(() => {
              database.close();
              lock?.release();
              resolve();
            });
        });
      }));
    return { server, app, database, port, url, demoAccounts, close };
  } catch (error) {
    await database.replica?.close();
    await shared?.close();
    database.close();
    lock?.release();
    throw error;
  }
}
