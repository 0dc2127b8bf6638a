import { constants } from 'node:os';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { startServer } from './server';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
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
  // Ctrl-C on `npm start` delivers SIGINT twice, the terminal's and the one npm forwards, and a process
  // manager may repeat its SIGTERM: a second signal during the drain is only logged. A third one forces the
  // exit, cutting what is still in flight, for an operator who will not wait.
  let signalsReceived = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signalsReceived += 1;
    if (signalsReceived === 1) {
      shutdown(signal);
    } else if (signalsReceived === 2) {
      logger.warn({ signal }, 'still draining in-flight requests: a third SIGINT or SIGTERM forces the exit');
    } else {
      logger.error({ signal }, 'forced exit before the drain ended: in-flight requests were cut');
      process.exit(128 + constants.signals[signal]);
    }
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

// One readable line for the operator, never a stack: start-up errors say what and where (server.ts).
main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`tidewatch failed to start: ${message.replace(/\s*\n\s*/g, ' ')}`);
  process.exit(1);
});
