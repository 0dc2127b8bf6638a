import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { startServer } from './server';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`tidewatch failed to start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);
  const running = await startServer(config, { logger });
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down: draining in-flight requests');
    running.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

// One readable line for the operator, never a stack: start-up errors say what and where (server.ts).
main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`tidewatch failed to start: ${message.replace(/\s*\n\s*/g, ' ')}`);
  process.exit(1);
});
