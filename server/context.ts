import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { TDb } from '../db/client';
import type { TAuth } from './auth';
import type { TAppDeps, TServiceDeps } from './deps';

/** Headers a procedure wants on its response (Cache-Control, Retry-After); both surfaces apply them. */
export type TResponseHeaders = Record<string, string>;

/** What procedures may read of the HTTP request (headers such as Idempotency-Key, client address, raw body for signatures). */
export interface TRequestInfo {
  headers: IncomingHttpHeaders;
  /** The client's address (X-Forwarded-For only through TRUST_PROXY hops). */
  clientIp: string;
  /** The exact body bytes on REST calls with a body, for signature checks (webhooks). */
  rawBody?: Buffer;
}

export interface TContext {
  db: TDb;
  request: TRequestInfo;
  /** The app's deps with this call's database: what services take (`service(ctx.deps, input)`). */
  deps: TServiceDeps;
  /** The signed-in session, or null. */
  auth: TAuth | null;
  /** Why auth is null: no token sent, or a token that is unknown, malformed or expired. */
  authFailure: 'missing' | 'invalid' | null;
  requestId: string;
  responseHeaders: TResponseHeaders;
  /**
   * False when this answer describes the call itself (e.g. `cache: "miss"`) and must not be replayed
   * to later callers by the REST response cache (server/infra/cache/stored-answers.ts). Only routes with
   * `meta.responseCache` are stored at all.
   */
  replayable: boolean;
}

/** Context without a request: what tests and the CLI use. */
export function createContextInner(options: {
  db: TDb;
  deps: TAppDeps;
  auth?: TAuth | null;
  authFailure?: TContext['authFailure'];
  requestId?: string;
  request?: TRequestInfo;
}): TContext {
  const auth = options.auth ?? null;
  return {
    db: options.db,
    request: options.request ?? { headers: {}, clientIp: 'internal' },
    deps: { ...options.deps, db: options.db },
    auth,
    authFailure: auth ? null : (options.authFailure ?? 'missing'),
    requestId: options.requestId ?? 'internal',
    responseHeaders: {},
    replayable: true,
  };
}

const MAX_TOKEN_LENGTH = 256;

/** The access token from `Authorization: Bearer <token>` or `x-access-token: <token>`. */
export function readAccessToken(req: IncomingMessage): string | null | undefined {
  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
    return match?.[1] ?? null;
  }
  const header = req.headers['x-access-token'];
  if (typeof header === 'string' && header.trim() !== '') return header.trim();
  return undefined;
}

/** What the app works out once per request, before any context: its id and the client's address (server/http/client-ip.ts). */
export interface TRequestIdentity {
  requestId: string;
  clientIp: string;
}

/** The adapters' context: resolves the session of the request's token, if any. */
export async function createContext(options: {
  req: IncomingMessage;
  db: TDb;
  deps: TAppDeps;
  identity: TRequestIdentity;
  rawBody?: Buffer;
}): Promise<TContext> {
  const { requestId, clientIp } = options.identity;
  const request: TRequestInfo = { headers: options.req.headers, clientIp, rawBody: options.rawBody };
  const token = readAccessToken(options.req);
  if (token === undefined) {
    return createContextInner({ db: options.db, deps: options.deps, requestId, request });
  }
  const auth =
    token === null || token.length > MAX_TOKEN_LENGTH
      ? null
      : await options.deps.validateSession({ db: options.db, now: options.deps.now }, { token });
  return createContextInner({
    db: options.db,
    deps: options.deps,
    auth,
    authFailure: 'invalid',
    requestId,
    request,
  });
}
