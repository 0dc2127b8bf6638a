import { ZNoInput } from '../../schemas';
import { ZChallenge } from './schemas';
import { publicProcedure, router } from '../../trpc';

export const captchaRouter = router({
  get: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/captcha',
        tags: ['captcha'],
        protect: false,
        summary: 'ALTCHA proof-of-work challenge',
        description: 'Solve it (e.g. with the ALTCHA widget) and send the base64 payload as captchaCode on sign-up. Each solution is accepted once.',
      },
      http: { cacheControl: 'no-store' },
    })
    .input(ZNoInput)
    .output(ZChallenge)
    .query(async ({ ctx }) => {
      await ctx.deps.limits.captcha.hit(ctx.request.clientIp);
      return ctx.deps.captcha.issue(ctx.deps.now());
    }),
});
