import { ZChallenge, ZChallengeInput } from './schemas';
import { publicProcedure, router } from '../../trpc';

export const captchaRouter = router({
  get: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/captcha',
        tags: ['captcha'],
        protect: false,
        summary: 'Captcha challenge: ALTCHA proof of work and an SVG picture',
        description:
          'One answer carries both kinds; answer either. ALTCHA: solve it (e.g. with the ALTCHA widget) and send the base64 payload as captchaCode. ' +
          'SVG (the web client\'s widget): show `content`, send `captcha: {captchaType: "svg", encryptCaptcha: hash, response: <text>}`. ' +
          'Both expire at expiresAt; each challenge is accepted once, and an SVG challenge is spent by its first answer, right or wrong.',
      },
      http: { cacheControl: 'no-store' },
    })
    .input(ZChallengeInput)
    .output(ZChallenge)
    .query(async ({ ctx }) => {
      await ctx.deps.limits.captcha.hit(ctx.request.clientIp);
      return ctx.deps.captcha.issue(ctx.deps.now());
    }),
});
