/**
 * The peer's Fastify instance (bench/peer/server.ts): plain, or with `--equipped` what ours does on
 * every request, each the stock Fastify way: helmet, a rate limit, a request id and log line, ETags.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fastifyEtag from '@fastify/etag';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** The per-client limit of the equipped peer: counted like ours, per minute and client address, but never reached by a benchmark. */
const EQUIPPED_RATE_LIMIT = 1_000_000_000;

/** What the equipped peer adds, registered (awaited) before the routes so that their hooks apply to every one. */
async function equip(server: FastifyInstance): Promise<void> {
  await server.register(fastifyHelmet, {
    // Our security headers (server/http/security.ts): the same CSP and resource policy; HSTS on, as ours in production.
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
  });
  // In memory (the plugin's default LRU store), keyed by the client address, with the limit headers on every answer.
  await server.register(fastifyRateLimit, { global: true, max: EQUIPPED_RATE_LIMIT, timeWindow: 60_000 });
  await server.register(fastifyEtag, { weak: true });
  server.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}

/** One log line per finished request, as ours writes (Fastify's default is two: "incoming request" and "request completed"). */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      route: request.routeOptions.url ?? '(unmatched)',
      path: request.url.split('?', 1)[0],
      status: reply.statusCode,
      durationMs: reply.elapsedTime,
    };
    if (error || reply.statusCode >= 500) request.log.error({ ...line, err: error }, 'request');
    else request.log.info(line, 'request');
  }
}

/**
 * The peer's Fastify instance, equipped or not, before any route; `logFile` is where the equipped peer
 * logs (`log`, or a file in a new temporary directory), undefined for the plain peer.
 */
export async function createPeerApp(
  equipped: boolean,
  log: string | undefined,
): Promise<{ app: FastifyInstance; logFile: string | undefined }> {
  const logFile = equipped
    ? (log ?? join(mkdtempSync(join(tmpdir(), 'tidewatch-peer-log-')), 'requests.log'))
    : undefined;
  const app = logFile
    ? Fastify({
        logger: { level: 'info', file: logFile },
        logController: new OneLinePerRequest(),
        requestIdHeader: 'x-request-id',
        genReqId: () => randomUUID(),
      })
    : Fastify({ logger: false });
  if (equipped) await equip(app);
  return { app, logFile };
}
