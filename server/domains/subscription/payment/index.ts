import { manualProvider } from './manual';
import type { TPaymentProvider } from './provider';

export type { TCheckout, TCheckoutRequest, TPaymentProvider, TWebhookEvent } from './provider';

/** Every provider the code knows. Adding Stripe: one file implementing TPaymentProvider, one entry here. */
const PROVIDERS: readonly TPaymentProvider[] = [manualProvider];

export function paymentProvider(id: string): TPaymentProvider | undefined {
  return PROVIDERS.find((provider) => provider.id === id);
}

export function providerIds(): string[] {
  return PROVIDERS.map((provider) => provider.id);
}
