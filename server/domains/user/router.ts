import { ZEmpty, ZNoInput } from '../../schemas';
import { changePassword, signIn, signUp } from './account';
import { avatarRouter } from './procedures/avatar';
import { assembliesRouter, likesRouter } from './procedures/lists';
import { profileRouter } from './procedures/profile';
import { getOwnProfile, getPublicProfile } from './profile';
import {
  ZChangePasswordInput,
  ZProfile,
  ZPublicProfile,
  ZSignedIn,
  ZSignInInput,
  ZSignUpInput,
  ZUserRef,
} from './schemas';
import { invalidateSession } from './session';
import { authedProcedure, publicProcedure, router } from '../../trpc';

export const userRouter = router({
  signup: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/user/signup',
        tags: ['user'],
        protect: false,
        summary: 'Create an account and sign in',
        description:
          "A captcha answer is either captchaCode (the base64 ALTCHA payload solving a GET /captcha challenge) or captcha (the web client's SVG answer); " +
          'one of them is required when the server sets SIGNUP_CAPTCHA=required. `data` is the signed-in account, as for sign-in. ' +
          "409 when the username or e-mail is taken, when the username looks like another account's username or display name, " +
          "or the display name like another account's username (case and Unicode's confusables ignored; data.field names which).",
      },
    })
    .input(ZSignUpInput)
    .output(ZSignedIn)
    .mutation(async ({ input, ctx }) => {
      await ctx.deps.limits.signup.hit(ctx.request.clientIp);
      return signUp(ctx.deps, input);
    }),

  signin: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/user/signin',
        tags: ['user'],
        protect: false,
        summary: 'Sign in with username or e-mail',
        description:
          '`data` is the account: token, userId, username, role[] and the rest the web client keeps. A captcha answer (SVG), when given, is verified first.',
      },
    })
    .input(ZSignInInput)
    .output(ZSignedIn)
    .mutation(async ({ input, ctx }) => {
      await ctx.deps.limits.signinClient.hit(ctx.request.clientIp);
      return signIn(ctx.deps, input);
    }),

  me: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/user/me', tags: ['user'], summary: 'Own profile', protect: true } })
    .input(ZNoInput)
    .output(ZProfile)
    .query(({ ctx }) => getOwnProfile(ctx.deps, { userId: ctx.user.id })),

  info: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/user/info',
        tags: ['user'],
        protect: false,
        summary: 'Public profile of a user',
      },
    })
    .input(ZUserRef)
    .output(ZPublicProfile)
    .query(({ input, ctx }) => getPublicProfile(ctx.deps, { id: input.id })),

  changePassword: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/user/password',
        tags: ['user'],
        protect: true,
        summary: 'Change password; ends every session and returns a new token',
        description:
          'A wrong currentPassword is a 403. All existing tokens of the account stop working, including the one used for this call.',
      },
    })
    .input(ZChangePasswordInput)
    .output(ZSignedIn)
    // Guessing the current password through this endpoint counts like failed sign-ins (see changePassword).
    .mutation(({ input, ctx }) => changePassword(ctx.deps, { ...input, userId: ctx.user.id })),

  signout: authedProcedure
    .meta({
      openapi: { method: 'POST', path: '/user/signout', tags: ['user'], summary: 'End this session', protect: true },
      // A blacklisted account reads but writes nothing; ending its own session it may always.
      blacklistedMay: true,
    })
    .input(ZNoInput)
    .output(ZEmpty)
    .mutation(async ({ ctx }) => {
      await invalidateSession(ctx.deps, { sessionId: ctx.sessionId });
      return {};
    }),

  // Issue 19: profiles, avatars and a user's lists of assemblies (docs/users.md).
  profile: profileRouter,
  avatar: avatarRouter,
  assemblies: assembliesRouter,
  likes: likesRouter,
});
