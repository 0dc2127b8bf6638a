import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { TConfig } from '../../../config';
import { AppError, issuesFromZod } from '../../../errors';
import type { TPaymentProvider } from './provider';

/** Known to everyone who reads the source: only ever used outside production (config.ts refuses it there). */
export const MANUAL_DEV_SECRET = 'tidewatch-dev-manual-payment-secret';
export const MANUAL_SIGNATURE_HEADER = 'x-tidewatch-signature';
/** A captured webhook replayed later than this is refused. */
export const MANUAL_SIGNATURE_TOLERANCE_SECONDS = 300;

export function manualSecret(config: TConfig): string {
  return config.PAYMENT_MANUAL_SECRET ?? MANUAL_DEV_SECRET;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, the scheme Stripe uses. */
export function signManualWebhook(secret: string, rawBody: string | Buffer, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const mac = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');
  return `t=${t},v1=${mac}`;
}

const ZEnvelope = z.object({ eventId: z.string().min(1).max(128), type: z.string().min(1).max(64) });

const ZPaidEvent = ZEnvelope.extend({
  type: z.literal('order.paid'),
  orderId: z.string().min(1).max(64),
  amountMinor: z.number().int().positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  reference: z.string().max(128).optional(),
});

function invalidEvent(error: z.ZodError): AppError {
  const issues = issuesFromZod(error);
  return new AppError('BAD_REQUEST', `Invalid webhook event: ${issues[0]?.path}: ${issues[0]?.message}`, { issues });
}

function unauthorized(message: string): AppError {
  return new AppError('UNAUTHORIZED', message);
}

/**
 * Payments made by hand (bank transfer, cash at an event): the treasurer, or a tool they run,
 * posts a signed `order.paid` event to /api/subscription/webhook/manual.
 */
export const manualProvider: TPaymentProvider = {
  id: 'manual',

  async createCheckout(request, config) {
    return {
      paymentUrl: config.PAYMENT_MANUAL_URL.replaceAll('{orderId}', encodeURIComponent(request.orderId)),
      providerRef: null,
    };
  },

  parseWebhook({ rawBody, headers, now }, config) {
    const header = headers[MANUAL_SIGNATURE_HEADER];
    if (typeof header !== 'string') throw unauthorized(`Missing ${MANUAL_SIGNATURE_HEADER} header`);
    const parts = new Map(
      header.split(',').map((part) => {
        const at = part.indexOf('=');
        return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
      }),
    );
    const t = parts.get('t');
    const given = parts.get('v1');
    if (!t || !/^\d{1,12}$/.test(t) || !given || !/^[0-9a-f]{64}$/i.test(given)) {
      throw unauthorized(`Malformed ${MANUAL_SIGNATURE_HEADER} header: expected t=<unix seconds>,v1=<hex HMAC-SHA256>`);
    }
    const expected = createHmac('sha256', manualSecret(config)).update(`${t}.`).update(rawBody).digest();
    if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) throw unauthorized('Webhook signature does not match');
    if (Math.abs(now.getTime() / 1000 - Number(t)) > MANUAL_SIGNATURE_TOLERANCE_SECONDS) {
      throw unauthorized(
        `Webhook signature timestamp is more than ${MANUAL_SIGNATURE_TOLERANCE_SECONDS} seconds away from now`,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new AppError('BAD_REQUEST', 'Webhook body is not JSON');
    }
    const envelope = ZEnvelope.safeParse(json);
    if (!envelope.success) throw invalidEvent(envelope.error);
    // Acknowledged but not acted on, so a sender adding event types does not get retries forever.
    if (envelope.data.type !== 'order.paid') {
      return {
        kind: 'ignored',
        eventId: envelope.data.eventId,
        reason: `event type "${envelope.data.type}" is not handled`,
      };
    }
    const parsed = ZPaidEvent.safeParse(json);
    if (!parsed.success) throw invalidEvent(parsed.error);
    const event = parsed.data;
    return {
      kind: 'paid',
      eventId: event.eventId,
      orderId: event.orderId,
      amountMinor: event.amountMinor,
      currency: event.currency,
      providerRef: event.reference ?? null,
    };
  },
};
