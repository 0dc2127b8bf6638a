import { z } from 'zod';
import { AppError } from '../../errors';
import { ZEmpty, ZNoInput, ZTimestamp } from '../../schemas';
import { changePassword, getPublicProfile, signIn, signUp, toProfile } from './account';
import { invalidateSession } from './session';
import { authedProcedure, publicProcedure, router } from '../../trpc';

export const ZUsername = z
  .string()
  .min(3, 'must be at least 3 characters')
  .max(32, 'must be at most 32 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, _ and -');

export const ZPassword = z.string().min(8, 'must be at least 8 characters').max(256, 'must be at most 256 characters');

const ZPublicProfile = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(['user', 'admin']),
  createdAt: ZTimestamp,
});

const ZProfile = ZPublicProfile.extend({ email: z.string() });

const ZSignedIn = z.object({
  token: z.string().meta({ description: 'Send as `Authorization: Bearer <token>`' }),
  expiresAt: ZTimestamp,
  user: ZProfile,
});

export const userRouter = router({
  signup: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/user/signup',
        tags: ['user'],
        protect: false,
        summary: 'Create an account and sign in',
        description: 'captchaCode is the base64 ALTCHA payload solving a GET /captcha challenge; required when the server sets SIGNUP_CAPTCHA=required.',
      },
    })
    .input(
      z.object({
        username: ZUsername,
        email: z.email('must be a valid e-mail address').max(254),
        password: ZPassword,
        captchaCode: z.string().min(1).max(4096).optional(),
      }),
    )
    .output(ZSignedIn)
    .mutation(async ({ input, ctx }) => {
      await ctx.deps.limits.signup.hit(ctx.request.clientIp);
      const now = ctx.deps.now();
      if (input.captchaCode !== undefined) {
        await ctx.deps.captcha.verify(input.captchaCode, now);
      } else if (ctx.deps.config.SIGNUP_CAPTCHA === 'required') {
        throw new AppError('BAD_REQUEST', 'captchaCode is required: solve GET /api/captcha first', {
          issues: [{ path: 'captchaCode', message: 'Required' }],
        });
      }
      return signUp(ctx.db, input, now);
    }),

  signin: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/user/signin', tags: ['user'], protect: false, summary: 'Sign in with username or e-mail' } })
    .input(
      z.object({
        username: z.string().min(1, 'is required').max(254).meta({ description: 'Username or e-mail' }),
        password: z.string().min(1, 'is required').max(256),
      }),
    )
    .output(ZSignedIn)
    .mutation(async ({ input, ctx }) => {
      await ctx.deps.limits.signinClient.hit(ctx.request.clientIp);
      return signIn(ctx.db, input.username, input.password, ctx.deps.now(), ctx.deps.limits.signinAccount);
    }),

  me: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/user/me', tags: ['user'], summary: 'Own profile', protect: true } })
    .input(ZNoInput)
    .output(ZProfile)
    .query(({ ctx }) => toProfile(ctx.user)),

  info: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/user/info', tags: ['user'], protect: false, summary: 'Public profile of a user' } })
    .input(z.object({ id: z.string().min(1, 'is required').max(64) }))
    .output(ZPublicProfile)
    .query(({ input, ctx }) => getPublicProfile(ctx.db, input.id)),

  changePassword: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/user/password',
        tags: ['user'],
        protect: true,
        summary: 'Change password; ends every session and returns a new token',
        description: 'A wrong currentPassword is a 403. All existing tokens of the account stop working, including the one used for this call.',
      },
    })
    .input(z.object({ currentPassword: z.string().min(1, 'is required').max(256), newPassword: ZPassword }))
    .output(ZSignedIn)
    .mutation(({ input, ctx }) =>
      // Guessing the current password through this endpoint counts like failed sign-ins.
      changePassword(ctx.db, ctx.user.id, input.currentPassword, input.newPassword, ctx.deps.now(), ctx.deps.limits.signinAccount),
    ),

  signout: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/user/signout', tags: ['user'], summary: 'End this session', protect: true } })
    .input(ZNoInput)
    .output(ZEmpty)
    .mutation(async ({ ctx }) => {
      await invalidateSession(ctx.db, ctx.sessionId);
      return {};
    }),
});
