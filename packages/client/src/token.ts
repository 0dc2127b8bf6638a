/**
 * The session token both clients send. A function is called before every request, so a front end can
 * create the client once and sign in (or out) later.
 */
export type TokenSource = string | (() => string | undefined);

export interface TidewatchClientOptions {
  /** A session token (from user.signin or user.signup), or a function returning the current one. */
  token?: TokenSource;
  /**
   * The EventSource the subscriptions use (`client.live.events.subscribe`): browsers and Node.js 26 have
   * one; on Node.js 22 and 24 pass the `eventsource` package's (`import { EventSource } from 'eventsource'`).
   */
  EventSource?: typeof globalThis.EventSource;
}

/** The header that carries the token, `authorization: Bearer <token>`, or none without a token. */
export function authorizationHeader(token: TokenSource | undefined): Record<string, string> {
  const current = typeof token === 'function' ? token() : token;
  return current ? { authorization: `Bearer ${current}` } : {};
}

/** The server's address without a trailing slash, so `${base}/trpc` and `${base}/api` are well formed. */
export function serverBase(url: string): string {
  return url.replace(/\/+$/, '');
}
