import { z } from 'zod';
import { AppError } from '../../../errors';
import { paymentProvider } from '../payment';
import { confirmOrder } from '../orders';
import { publicProcedure } from '../../../trpc';
import { ZOrder } from '../schemas';

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
  // The provider reads the raw body itself; the parsed fields are only let through.
  .input(z.looseObject({ payType: z.string().min(1).max(64) }))
  .output(
    z.object({
      eventId: z.string(),
      handled: z.boolean(),
      alreadyPaid: z.boolean(),
      order: ZOrder.nullable(),
    }),
  )
  .mutation(async ({ input, ctx }) => {
    const provider = paymentProvider(input.payType);
    if (!provider) throw new AppError('NOT_FOUND', `No payment provider "${input.payType}"`);
    const rawBody = ctx.request.rawBody;
    if (!rawBody) {
      throw new AppError('BAD_REQUEST', `Post the provider's JSON body to /api/subscription/webhook/${input.payType}: the signature covers the raw bytes`);
    }
    const now = ctx.deps.now();
    const event = provider.parseWebhook({ rawBody, headers: ctx.request.headers, now }, ctx.deps.config);
    if (event.kind === 'ignored') {
      ctx.deps.logger.info({ payType: input.payType, eventId: event.eventId, reason: event.reason }, 'webhook event ignored');
      return { eventId: event.eventId, handled: false, alreadyPaid: false, order: null };
    }
    const result = await confirmOrder(
      ctx.db,
      event.orderId,
      { by: 'webhook', payType: input.payType, amountMinor: event.amountMinor, currency: event.currency, providerRef: event.providerRef },
      now,
    );
    return { eventId: event.eventId, handled: true, alreadyPaid: result.alreadyPaid, order: result.order };
  });
