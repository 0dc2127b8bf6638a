import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase, type TDatabase } from '../db/client';
import { seedDemoData } from '../db/seed';
import { createApp, createDeps, type TApp } from './app';
import type { TConfig } from './config';
import { JOBS, startJobs } from './jobs';
import { createLogger, type TLogger } from './logger';

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
  const database = openDatabase(config.DATABASE_URL);
  try {
    database.migrate();
    const deps = createDeps(config, logger, options.now);
    if (config.SEED_DEMO && (await seedDemoData(database.db, deps.now()))) {
      logger.info('seeded demo data into an empty database');
    }
    const app = createApp({ db: database.db, deps });
    const stopJobs = startJobs(JOBS, database.db, deps);
    const server = createServer({ requestTimeout: 30_000, headersTimeout: 20_000 }, app.handle);
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.PORT, config.HOST, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
    logger.info({ url, database: database.file }, 'tidewatch listening');

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
          stopJobs().finally(() => {
            database.close();
            resolve();
          });
        });
        server.closeIdleConnections();
      }));
    return { server, app, database, port, url, close };
  } catch (error) {
    database.close();
    throw error;
  }
}
