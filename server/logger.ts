import { pino, type Logger } from 'pino';

export type TLogger = Logger;

/** JSON logs on stdout. Tokens and passwords never reach a log line: headers and bodies are not logged. */
export function createLogger(level: string): TLogger {
  return pino({
    level,
    base: { service: 'tidewatch' },
    redact: { paths: ['req.headers.authorization', 'req.headers["x-access-token"]', '*.password', '*.token'], remove: true },
  });
}
