import type { IncomingMessage } from 'node:http';

/**
 * The client's address. X-Forwarded-For is honoured only for the configured number of trusted proxy
 * hops: with N hops, the client is the Nth address from the right of (X-Forwarded-For + peer).
 * Anything a client writes to the left of that is ignored, so it cannot pick its own identity.
 */
export function clientIpOf(req: IncomingMessage, trustedHops: number): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (trustedHops <= 0) return peer;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const chain = [...forwarded, peer];
  return chain[Math.max(0, chain.length - 1 - trustedHops)] ?? peer;
}
