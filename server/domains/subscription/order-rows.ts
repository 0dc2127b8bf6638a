/** How an order row is read and shown: the columns, the effective status (a pending order past its deadline is expired), the API shape. */
import { eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { subscriptionOrders, subscriptionTiers, type TOrderStatus } from '../../../db/schema';
import { toMajor } from './money';
import type { TOrder } from './schemas';

export const orderColumns = {
  id: subscriptionOrders.id,
  userId: subscriptionOrders.userId,
  tierId: subscriptionOrders.tierId,
  tierName: subscriptionTiers.name,
  payType: subscriptionOrders.payType,
  amountMinor: subscriptionOrders.amountMinor,
  currency: subscriptionOrders.currency,
  months: subscriptionOrders.months,
  status: subscriptionOrders.status,
  idempotencyKey: subscriptionOrders.idempotencyKey,
  paymentUrl: subscriptionOrders.paymentUrl,
  createdAt: subscriptionOrders.createdAt,
  payDeadline: subscriptionOrders.payDeadline,
  paidAt: subscriptionOrders.paidAt,
  closedAt: subscriptionOrders.closedAt,
};

/** A pending order past its deadline is expired even before the sweep writes it. */
export function effectiveStatus(row: { status: TOrderStatus; payDeadline: Date }, now: Date): TOrderStatus {
  return row.status === 'pending' && row.payDeadline.getTime() <= now.getTime() ? 'expired' : row.status;
}

export function toOrder(row: TOrderRow, now: Date): TOrder {
  const status = effectiveStatus(row, now);
  return {
    orderId: row.id,
    tierId: row.tierId,
    tierName: row.tierName ?? row.tierId,
    payType: row.payType,
    amount: toMajor(row.amountMinor),
    currency: row.currency,
    months: row.months,
    status,
    createdAt: row.createdAt.toISOString(),
    payDeadline: row.payDeadline.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    closedAt: row.closedAt?.toISOString() ?? (status === 'expired' ? row.payDeadline.toISOString() : null),
    paymentUrl: status === 'pending' ? row.paymentUrl : null,
  };
}

/** One order row with its tier's name (a query helper: callers pass the db or the transaction's `tx`). */
export async function selectOrder(db: TDb, where: ReturnType<typeof eq>) {
  return db
    .select(orderColumns)
    .from(subscriptionOrders)
    .leftJoin(subscriptionTiers, eq(subscriptionTiers.id, subscriptionOrders.tierId))
    .where(where)
    .get();
}

/** An order's row as orderColumns reads it (tierName null when its tier is gone). */
export type TOrderRow = NonNullable<Awaited<ReturnType<typeof selectOrder>>>;
