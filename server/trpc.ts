import { initTRPC } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { TContext } from './context';
import { AppError, toPublicError } from './errors';
import { applyHttpCaching, type THttpCaching } from './http/caching';
import { transformer } from './transformer';

/**
 * `http`: how the answer may be cached, by clients and by the service's stored answers (server/http/caching.ts).
 * `rawResponse`: the REST surface sends the procedure's output, a string, as the body with this
 * Content-Type instead of the `{ code, message, data }` envelope (feeds: calendar/events.ics); errors
 * stay in the envelope, and native tRPC answers the string as any other output.
 * `topLevel`: fields of a successful answer the REST body also carries beside `code`, `message` and
 * `data`, each named by the field of `data` whose value it repeats (`{ points: 'data' }`): where the
 * web client reads the live service's body at its top level, on endpoints outside the contract
 * (server/rest/envelope.ts; docs/compatibility.md). Native tRPC answers the output as it is.
 * `streamed`: the output is a TStreamedAnswer (server/schemas.ts) of one of these Content-Types: the
 * REST body is its chunks, written as they come, with that Content-Type and as an attachment (an error
 * before the first chunk is still an envelope); native tRPC streams it to httpBatchStreamLink and
 * answers other links 415, as tRPC does any stream.
 */
export type TProcedureMeta = OpenApiMeta & {
  http?: THttpCaching;
  rawResponse?: { contentType: string };
  topLevel?: Record<string, string>;
  streamed?: { contentTypes: string[] };
  /** A write a blacklisted account may still make (issue 35): ending its own session. */
  blacklistedMay?: true;
};

/** tRPC's ping on idle subscription streams; a heartbeat like LIVE_HEARTBEAT_MS's default (the router is built before any configuration is read). */
export const SSE_PING_MS = 25_000;

const t = initTRPC
  .context<TContext>()
  .meta<TProcedureMeta>()
  .create({
    transformer,
    // Subscriptions over SSE (httpSubscriptionLink): a ping event keeps idle streams open through proxies,
    // and a client that hears nothing for three pings reconnects (and resumes from its last event id).
    sse: { ping: { enabled: true, intervalMs: SSE_PING_MS }, client: { reconnectAfterInactivityMs: 3 * SSE_PING_MS } },
    // Native tRPC clients get the same status, message, key and issues as the REST envelope.
    errorFormatter({ shape, error, ctx }) {
      const described = toPublicError(error, ctx?.requestId ?? 'unknown');
      return {
        code: TRPC_ERROR_CODES_BY_KEY[described.code],
        message: described.message,
        data: {
          code: described.code,
          httpStatus: described.status,
          path: shape.data.path,
          ...described.data,
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Applies the procedure's `meta.http` to a successful answer, for both surfaces. It is the outermost
 * middleware, so it sees the validated output and the context object the surface passed in.
 */
const declaredHttpCaching = t.middleware(async ({ ctx, meta, next }) => {
  const result = await next();
  if (result.ok && meta?.http) applyHttpCaching(meta.http, result.data, ctx);
  return result;
});

/**
 * The one check of account states (issue 35, docs/privileges.md), on every procedure of both
 * surfaces: a frozen account's session is no session (a call answers as for an invalid token), and a
 * blacklisted account writes nothing (every mutation is a 403, whatever the procedure, but signing out).
 */
const accountStates = t.middleware(({ ctx, meta, type, next }) => {
  const state = ctx.auth?.accountState;
  if (state === 'freezed') return next({ ctx: { auth: null, authFailure: 'invalid' as const } });
  if (state === 'blacklisted' && type === 'mutation' && !meta?.blacklistedMay) {
    throw new AppError('FORBIDDEN', 'This account is blacklisted: it may read but not write', {
      key: 'user.blacklisted',
    });
  }
  return next();
});

/** No credentials needed. `ctx.auth` is the session if a valid token was sent (of an account not frozen), else null. */
export const publicProcedure = t.procedure.use(declaredHttpCaching).use(accountStates);

/**
 * Requires a valid session. Guarantees `ctx.user` (the signed-in account) and `ctx.sessionId`.
 * Throws 401 when the token is missing, malformed, unknown or expired.
 */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.auth) {
    // The web client signs out on `user.tokenExpired` (data.key); a missing token is `user.invalid`.
    throw ctx.authFailure === 'invalid'
      ? new AppError('UNAUTHORIZED', 'Invalid or expired access token', { key: 'user.tokenExpired' })
      : new AppError('UNAUTHORIZED', 'Missing access token');
  }
  return next({ ctx: { ...ctx, user: ctx.auth.user, sessionId: ctx.auth.sessionId } });
});

/** Requires a session of an account with the `admin` role. Throws 401 like authedProcedure, 403 for non-admins. */
export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== 'admin') throw new AppError('FORBIDDEN', 'Administrator role required');
  return next();
});
