/** A payment provider's webhook: authenticated and read by the provider, then the order it pays is confirmed. */
import type { IncomingHttpHeaders } from 'node:http';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { confirmOrder } from './orders';
import { paymentProvider } from './payment';
import type { TWebhookResult } from './schemas';

/**
 * Unknown provider: 404; no raw body (the signature covers the exact bytes): 400; then the provider's
 * own checks (401 on a bad or stale signature). Events other than a payment are acknowledged and logged.
 */
export async function receiveWebhook(
  deps: TDepsOf<'db' | 'now' | 'config' | 'logger'>,
  input: { payType: string; rawBody: Buffer | undefined; headers: IncomingHttpHeaders },
): Promise<TWebhookResult> {
  const now = deps.now();
  const { payType, rawBody } = input;
  const provider = paymentProvider(payType);
  if (!provider) throw new AppError('NOT_FOUND', `No payment provider "${payType}"`);
  if (!rawBody) {
    throw new AppError(
      'BAD_REQUEST',
      `Post the provider's JSON body to /api/subscription/webhook/${payType}: the signature covers the raw bytes`,
    );
  }
  const event = provider.parseWebhook({ rawBody, headers: input.headers, now }, deps.config);
  if (event.kind === 'ignored') {
    deps.logger.info({ payType, eventId: event.eventId, reason: event.reason }, 'webhook event ignored');
    return { eventId: event.eventId, handled: false, alreadyPaid: false, order: null };
  }
  const result = await confirmOrder(
    { db: deps.db, now: () => now },
    {
      orderId: event.orderId,
      by: 'webhook',
      payType,
      amountMinor: event.amountMinor,
      currency: event.currency,
      providerRef: event.providerRef,
    },
  );
  return { eventId: event.eventId, handled: true, alreadyPaid: result.alreadyPaid, order: result.order };
}
