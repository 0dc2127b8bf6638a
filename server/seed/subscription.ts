import { randomUUID } from 'node:crypto';
import type { TDb } from '../../db/client';
import { subscriptionOrders } from '../../db/schema';
import { transaction } from '../../db/transaction';
import { importSubscriptionCatalog } from '../domains/subscription/catalog-writes';
import type { TCatalogImport } from '../domains/subscription/schemas';
import { confirmOrder, PAY_WINDOW_MS } from '../domains/subscription/orders';

/** The catalog a fresh install starts with; admins change it through /api/admin/subscription/... */
export const DEMO_SUBSCRIPTION_CATALOG: TCatalogImport = {
  plans: [
    {
      planId: 'supporter',
      name: 'Community supporter',
      description: 'Keeps the servers, the data imports and the map tiles running.',
      tiers: [
        {
          tierId: 'deckhand-1m',
          name: 'Deckhand',
          description: 'One month of supporter perks.',
          price: 4.99,
          currency: 'USD',
          months: 1,
        },
        {
          tierId: 'quartermaster-3m',
          name: 'Quartermaster',
          description: 'Three months, a little cheaper.',
          price: 12.99,
          currency: 'USD',
          months: 3,
        },
        {
          tierId: 'captain-12m',
          name: 'Captain',
          description: 'A whole year, name in gold in the hall.',
          price: 44.99,
          currency: 'USD',
          months: 12,
        },
      ],
    },
  ],
  payTypes: [{ payType: 'manual', name: 'Bank transfer (confirmed by the treasurer)' }],
  goal: { amount: 200, currency: 'USD' },
};

/** The catalog, plus one paid order for `supporterId` this month so progress, hall and my-status show data. */
export async function seedSubscription(db: TDb, supporterId: string, now: Date): Promise<void> {
  await transaction(db, (tx) => importSubscriptionCatalog({ db: tx, now: () => now }, DEMO_SUBSCRIPTION_CATALOG));
  const orderId = randomUUID();
  await db.insert(subscriptionOrders).values({
    id: orderId,
    userId: supporterId,
    tierId: 'quartermaster-3m',
    payType: 'manual',
    amountMinor: 1299,
    currency: 'USD',
    months: 3,
    status: 'pending',
    paymentUrl: `https://tidewatch.example/sponsor/pay?order=${orderId}`,
    createdAt: now,
    payDeadline: new Date(now.getTime() + PAY_WINDOW_MS),
  });
  await confirmOrder({ db, now: () => now }, { orderId, by: 'admin' });
}
