import { pino, type DestinationStream, type Logger } from 'pino';

export type TLogger = Logger;

/** JSON logs on stdout. Tokens and passwords never reach a log line: headers and bodies are not logged. */
export function createLogger(level: string, destination?: DestinationStream): TLogger {
  const options = {
    level,
    base: { service: 'tidewatch' },
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-access-token"]', '*.password', '*.token'],
      remove: true,
    },
  };
  // A destination (tests: an in-memory stream) gets the same options as stdout.
  return destination ? pino(options, destination) : pino(options);
}
