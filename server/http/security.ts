import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import helmet from 'helmet';
import type { TConfig } from '../config';

type TMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * Security headers (helmet) and CORS (cors) for every response. The CSP allows only our own scripts
 * and styles, which is all the docs page needs. Tokens travel in headers, never cookies, so CORS
 * never allows credentials and `*` is safe.
 */
export function createSecurityMiddleware(config: TConfig): (req: IncomingMessage, res: ServerResponse) => boolean {
  const headers = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    strictTransportSecurity: config.NODE_ENV === 'production',
  }) as unknown as TMiddleware;
  const origins = config.CORS_ORIGINS.split(',').map((origin) => origin.trim()).filter(Boolean);
  const corsMiddleware = cors({
    origin: origins.includes('*') ? '*' : origins,
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['authorization', 'x-access-token', 'content-type', 'idempotency-key', 'if-none-match', 'x-request-id', 'trpc-accept'],
    exposedHeaders: ['etag', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-request-id'],
    maxAge: 600,
  }) as unknown as TMiddleware;

  /** Applies both; returns true when the request was fully answered (a CORS preflight). */
  return (req, res) => {
    headers(req, res, () => {});
    let passed = false;
    corsMiddleware(req, res, () => {
      passed = true;
    });
    return !passed;
  };
}
