import type { IncomingHttpHeaders } from 'node:http';
import type { TConfig } from '../../../config';

/** What a provider needs to open a checkout for an order. */
export interface TCheckoutRequest {
  orderId: string;
  userId: string;
  tierId: string;
  tierName: string;
  amountMinor: number;
  currency: string;
  months: number;
  payDeadline: Date;
}

export interface TCheckout {
  /** Where the payer completes the payment. */
  paymentUrl: string;
  /** The provider's own id of the checkout or invoice, if it has one. */
  providerRef: string | null;
}

/** A verified webhook: either a payment of one of our orders, or an event we have no use for. */
export type TWebhookEvent =
  | {
      kind: 'paid';
      eventId: string;
      orderId: string;
      amountMinor: number;
      currency: string;
      providerRef: string | null;
    }
  | { kind: 'ignored'; eventId: string; reason: string };

export interface TWebhookRequest {
  /** The exact bytes received: signatures are computed over them, never over re-serialised JSON. */
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  now: Date;
}

/**
 * One payment channel. A real provider (Stripe, Afdian) is one file implementing this, listed in
 * ./index.ts; the pay type with the same id in the database makes it selectable.
 */
export interface TPaymentProvider {
  id: string;
  /**
   * Opens a checkout. Runs outside any transaction and may call the network; throw AppError
   * BAD_GATEWAY/SERVICE_UNAVAILABLE when the provider fails.
   */
  createCheckout(request: TCheckoutRequest, config: TConfig): Promise<TCheckout>;
  /** Authenticates a webhook (401 on a bad or stale signature) and reads its event (400 when malformed). */
  parseWebhook(request: TWebhookRequest, config: TConfig): TWebhookEvent;
}
