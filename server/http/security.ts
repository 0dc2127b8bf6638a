import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import helmet from 'helmet';
import type { TConfig } from '../config';
import { ResponseHead, type THeaderValue } from './response-head';

type TMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The headers a middleware sets when given `req` (name, value, ...), recorded instead of written.
 * helmet's and cors's answers depend only on the configuration (and, for cors with a list of origins,
 * on the request's Origin and method), so the fixed ones are computed once at start-up rather than by
 * a dozen middleware calls per request.
 */
function recordHeaders(
  middleware: TMiddleware,
  req: Pick<IncomingMessage, 'method' | 'headers'>,
): readonly THeaderValue[] {
  const head = new ResponseHead();
  let passed = false;
  middleware(req as IncomingMessage, headRecorder(head), () => {
    passed = true;
  });
  if (!passed) throw new Error('security middleware ended a request while being recorded');
  return head.fields;
}

/**
 * Whether the client reached us over https: directly (TLS socket), or through a trusted proxy that says
 * so in X-Forwarded-Proto. As with X-Forwarded-For (client-ip.ts), with N trusted hops the value that
 * counts is the Nth from the right; a client's own claim without a trusted proxy is ignored.
 */
export function cameOverHttps(req: IncomingMessage, trustedHops: number): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  if (trustedHops <= 0) return false;
  const header = req.headers['x-forwarded-proto'];
  if (header === undefined) return false;
  const chain = (Array.isArray(header) ? header.join(',') : header).split(',');
  return chain[Math.max(0, chain.length - trustedHops)]?.trim().toLowerCase() === 'https';
}

/** What the app asks of the security headers and CORS for each request. */
export interface TSecurity {
  /** The headers every answer to `req` carries: helmet's, and CORS's when any origin is allowed (name, value, ...). */
  headersFor(req: IncomingMessage): readonly THeaderValue[];
  /** CORS for a list of origins, and preflights; returns true when the request was fully answered (a preflight). */
  applyCors(req: IncomingMessage, res: ServerResponse, head: ResponseHead): boolean;
}

/**
 * Security headers (helmet) and CORS (cors) for every response. The CSP allows only our own scripts
 * and styles, which is all the docs page needs. Tokens travel in headers, never cookies, so CORS
 * never allows credentials and `*` is safe.
 *
 * CSP's upgrade-insecure-requests goes only to clients that came over https: sent over plain HTTP
 * (a LAN address, no proxy), it makes the browser fetch the docs page's scripts and styles over
 * https, which nothing answers, and the page stays blank. Both header sets are computed here once.
 */
export function createSecurity(config: TConfig): TSecurity {
  const helmetFor = (https: boolean) =>
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: https ? [] : null,
        },
      },
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      strictTransportSecurity: config.NODE_ENV === 'production',
    }) as unknown as TMiddleware;
  const origins = config.CORS_ORIGINS.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  const anyOrigin = origins.includes('*');
  const corsMiddleware = cors({
    origin: anyOrigin ? '*' : origins,
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [
      'authorization',
      'x-access-token',
      'content-type',
      'idempotency-key',
      'if-none-match',
      'if-match',
      'x-request-id',
      'trpc-accept',
    ],
    exposedHeaders: [
      'etag',
      'retry-after',
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
      'x-request-id',
    ],
    maxAge: 600,
  }) as unknown as TMiddleware;

  // With `*`, every request but a preflight gets the same CORS headers; a list of origins is answered per Origin.
  const fixedCors = anyOrigin
    ? recordHeaders(corsMiddleware, { method: 'GET', headers: { origin: 'https://example.org' } })
    : [];
  const overHttp = [...recordHeaders(helmetFor(false), { method: 'GET', headers: {} }), ...fixedCors];
  const overHttps = [...recordHeaders(helmetFor(true), { method: 'GET', headers: {} }), ...fixedCors];
  const trustedHops = config.TRUST_PROXY;

  return {
    headersFor: (req) => (cameOverHttps(req, trustedHops) ? overHttps : overHttp),
    applyCors: (req, res, head) => {
      if (anyOrigin && req.method !== 'OPTIONS') return false;
      let passed = false;
      const next = () => {
        passed = true;
      };
      if (req.method === 'OPTIONS') {
        // A preflight is answered by the cors package itself, through Node's API.
        head.applyTo(res);
        corsMiddleware(req, res, next);
      } else {
        corsMiddleware(req, headRecorder(head), next);
      }
      return !passed;
    },
  };
}

/** `head` as the part of a response helmet and cors write to (cors's `vary` reads `Vary` back; helmet removes `X-Powered-By`). */
function headRecorder(head: ResponseHead): ServerResponse {
  const recorder = {
    setHeader: (name: string, value: THeaderValue | string[]) =>
      head.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value),
    getHeader: (name: string) => head.get(name.toLowerCase()),
    removeHeader: (name: string) => head.remove(name.toLowerCase()),
  };
  return recorder as unknown as ServerResponse;
}
