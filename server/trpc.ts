import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { TContext } from './context';
import { AppError, toPublicError } from './errors';
import { transformer } from './transformer';

/**
 * `responseCache` lets the REST surface answer anonymous GETs of the route from the read cache
 * (server/infra/cache/stored-answers.ts): `scope` is the read-cache prefix whose invalidation drops the stored
 * responses, so it must be a prefix the route's writers already invalidate. Requests carrying one of
 * `bypassParams` (e.g. `refresh`) neither read nor fill it.
 */
export type TProcedureMeta = OpenApiMeta & { responseCache?: { scope: string; bypassParams?: string[] } };

const t = initTRPC
  .context<TContext>()
  .meta<TProcedureMeta>()
  .create({
    transformer,
    // Native tRPC clients get the same status, message and issues as the REST envelope.
    errorFormatter({ shape, error, ctx }) {
      const described = toPublicError(error, ctx?.requestId ?? 'unknown');
      return {
        code: shape.code,
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

/** No credentials needed. `ctx.auth` is the session if a valid token was sent, else null. */
export const publicProcedure = t.procedure;

/**
 * Requires a valid session. Guarantees `ctx.user` (the signed-in account) and `ctx.sessionId`.
 * Throws 401 when the token is missing, malformed, unknown or expired.
 */
export const authedProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.auth) {
    throw new AppError(
      'UNAUTHORIZED',
      ctx.authFailure === 'invalid' ? 'Invalid or expired access token' : 'Missing access token',
    );
  }
  return next({ ctx: { ...ctx, user: ctx.auth.user, sessionId: ctx.auth.sessionId } });
});

/** Requires a session of an account with the `admin` role. Throws 401 like authedProcedure, 403 for non-admins. */
export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== 'admin') throw new AppError('FORBIDDEN', 'Administrator role required');
  return next();
});
