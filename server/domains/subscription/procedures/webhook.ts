import { publicProcedure } from '../../../trpc';
import { receiveWebhook } from '../webhook';
import { ZWebhookInput, ZWebhookResult } from '../schemas';

export const webhook = publicProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/subscription/webhook/{payType}',
      tags: ['subscription'],
      protect: false,
      summary: 'Payment provider webhook',
      description:
        'Authenticated by the provider\'s signature over the exact raw body (manual: header X-Tidewatch-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">). ' +
        'A repeated event changes nothing (alreadyPaid: true). Bad signature: 401; unknown order: 404; order cancelled, expired or amount mismatch: 409.',
    },
  })
  .input(ZWebhookInput)
  .output(ZWebhookResult)
  .mutation(({ input, ctx }) =>
    receiveWebhook(ctx.deps, { payType: input.payType, rawBody: ctx.request.rawBody, headers: ctx.request.headers }),
  );
