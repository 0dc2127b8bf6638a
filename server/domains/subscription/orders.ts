import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, gt, lte, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { subscriptionMemberships, subscriptionOrders, subscriptionTiers, type TOrderStatus } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TConfig } from '../../config';
import { AppError } from '../../errors';
import { pageWindow, type TPagination } from '../../schemas';
import { paymentProvider } from './payment';
import { findPurchasableTier, isPayTypeEnabled } from './catalog';
import { addCalendarMonths, toMajor } from './money';

/** A pending order can be paid for this long; after that it is expired, whether or not the sweep has run. */
export const PAY_WINDOW_MS = 30 * 60 * 1000;
/** Unexpired pending orders one user may hold at once: stops a loop from filling the table. */
export const MAX_PENDING_ORDERS = 5;

export interface TOrder {
  orderId: string;
  tierId: string;
  tierName: string;
  payType: string;
  amount: number;
  currency: string;
  months: number;
  status: TOrderStatus;
  createdAt: string;
  payDeadline: string;
  paidAt: string | null;
  closedAt: string | null;
  /** Only while the order can still be paid. */
  paymentUrl: string | null;
}

const orderColumns = {
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

type TOrderRow = {
  id: string;
  userId: string;
  tierId: string;
  tierName: string | null;
  payType: string;
  amountMinor: number;
  currency: string;
  months: number;
  status: TOrderStatus;
  idempotencyKey: string | null;
  paymentUrl: string;
  createdAt: Date;
  payDeadline: Date;
  paidAt: Date | null;
  closedAt: Date | null;
};

/** A pending order past its deadline is expired even before the sweep writes it. */
export function effectiveStatus(row: { status: TOrderStatus; payDeadline: Date }, now: Date): TOrderStatus {
  return row.status === 'pending' && row.payDeadline.getTime() <= now.getTime() ? 'expired' : row.status;
}

function toOrder(row: TOrderRow, now: Date): TOrder {
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

async function selectOrder(db: TDb, where: ReturnType<typeof eq>): Promise<TOrderRow | undefined> {
  return db
    .select(orderColumns)
    .from(subscriptionOrders)
    .leftJoin(subscriptionTiers, eq(subscriptionTiers.id, subscriptionOrders.tierId))
    .where(where)
    .get();
}

export interface TCreateOrderInput {
  tierId: string;
  payType: string;
}

/**
 * Creates a pending order and opens the provider's checkout. With an idempotency key (scoped to the
 * user) a repeat returns the first order, whatever its state now; the same key with a different
 * tierId or payType is a 422, since the client is reusing a key for a different purchase. Beyond
 * MAX_PENDING_ORDERS unexpired pending orders it is a 409, however many calls arrive at once.
 */
export async function createOrder(
  db: TDb,
  config: TConfig,
  userId: string,
  input: TCreateOrderInput,
  idempotencyKey: string | undefined,
  now: Date,
): Promise<{ order: TOrder; replayed: boolean }> {
  if (idempotencyKey !== undefined) {
    const earlier = await replay(db, userId, idempotencyKey, input, now);
    if (earlier) return { order: earlier, replayed: true };
  }
  const tier = await findPurchasableTier(db, input.tierId);
  if (!tier) {
    throw new AppError('BAD_REQUEST', `Invalid input: tierId: no tier "${input.tierId}" is on sale`, {
      issues: [{ path: 'tierId', message: 'unknown tier' }],
    });
  }
  const provider = paymentProvider(input.payType);
  if (!provider || !(await isPayTypeEnabled(db, input.payType))) {
    throw new AppError('BAD_REQUEST', `Invalid input: payType: "${input.payType}" is not an available pay type`, {
      issues: [{ path: 'payType', message: 'unknown pay type' }],
    });
  }
  // Checked first without the provider, so a full account does not open checkouts; decided below.
  const early = await replayOrRoom(db, userId, idempotencyKey, input, now);
  if (early) return { order: early, replayed: true };

  const orderId = randomUUID();
  const payDeadline = new Date(now.getTime() + PAY_WINDOW_MS);
  // The provider may call the network, so it runs before (and outside) the transaction.
  const checkout = await provider.createCheckout(
    { orderId, userId, tierId: tier.id, tierName: tier.name, amountMinor: tier.priceMinor, currency: tier.currency, months: tier.months, payDeadline },
    config,
  );
  // The cap and the key are decided again together with the insert: calls of one batch, or concurrent
  // requests, all pass the check above before any of them inserts.
  return transaction(db, async (tx) => {
    const earlier = await replayOrRoom(tx, userId, idempotencyKey, input, now);
    if (earlier) return { order: earlier, replayed: true };
    await tx.insert(subscriptionOrders).values({
      id: orderId,
      userId,
      tierId: tier.id,
      payType: input.payType,
      amountMinor: tier.priceMinor,
      currency: tier.currency,
      months: tier.months,
      status: 'pending',
      idempotencyKey: idempotencyKey ?? null,
      paymentUrl: checkout.paymentUrl,
      providerRef: checkout.providerRef,
      createdAt: now,
      payDeadline,
    });
    const row = await selectOrder(tx, eq(subscriptionOrders.id, orderId));
    return { order: toOrder(row!, now), replayed: false };
  });
}

/**
 * The order an idempotency key already made (a replay), or nothing when the user may hold one more
 * pending order; a 409 at the cap. The key wins over the cap: repeating a request that made the
 * fifth order returns it.
 */
async function replayOrRoom(
  db: TDb,
  userId: string,
  idempotencyKey: string | undefined,
  input: TCreateOrderInput,
  now: Date,
): Promise<TOrder | undefined> {
  if (idempotencyKey !== undefined) {
    const earlier = await replay(db, userId, idempotencyKey, input, now);
    if (earlier) return earlier;
  }
  const pending = await db
    .select({ n: count() })
    .from(subscriptionOrders)
    .where(and(eq(subscriptionOrders.userId, userId), eq(subscriptionOrders.status, 'pending'), gt(subscriptionOrders.payDeadline, now)))
    .get();
  if ((pending?.n ?? 0) >= MAX_PENDING_ORDERS) {
    throw new AppError('CONFLICT', `You already have ${MAX_PENDING_ORDERS} pending orders: pay or cancel one first`);
  }
  return undefined;
}

async function replay(db: TDb, userId: string, key: string, input: TCreateOrderInput, now: Date): Promise<TOrder | undefined> {
  const row = await selectOrder(db, and(eq(subscriptionOrders.userId, userId), eq(subscriptionOrders.idempotencyKey, key))!);
  if (!row) return undefined;
  if (row.tierId !== input.tierId || row.payType !== input.payType) {
    throw new AppError(
      'UNPROCESSABLE_CONTENT',
      'Idempotency-Key was already used for a different order (tierId or payType differ): use a new key',
      { data: { orderId: row.id } },
    );
  }
  return toOrder(row, now);
}

/** The owner's pending order, cancelled. Someone else's order is a 404; an order no longer pending a 409. */
export async function cancelOrder(db: TDb, userId: string, orderId: string, now: Date): Promise<TOrder> {
  const row = await selectOrder(db, eq(subscriptionOrders.id, orderId));
  if (!row || row.userId !== userId) throw new AppError('NOT_FOUND', 'Order not found');
  const status = effectiveStatus(row, now);
  if (status !== 'pending') throw notPending(status);
  const changed = await db
    .update(subscriptionOrders)
    .set({ status: 'cancelled', closedAt: now })
    .where(and(eq(subscriptionOrders.id, orderId), eq(subscriptionOrders.status, 'pending')))
    .returning({ id: subscriptionOrders.id });
  if (changed.length === 0) {
    const current = await selectOrder(db, eq(subscriptionOrders.id, orderId));
    throw notPending(effectiveStatus(current!, now));
  }
  return toOrder({ ...row, status: 'cancelled', closedAt: now }, now);
}

function notPending(status: TOrderStatus): AppError {
  return new AppError('CONFLICT', `Order is ${status}: only a pending order can be cancelled`, { data: { status } });
}

export interface TConfirmation {
  by: 'webhook' | 'admin';
  /** When the webhook names them, they must match the order. */
  payType?: string;
  amountMinor?: number;
  currency?: string;
  providerRef?: string | null;
}

/**
 * Marks a pending order paid and extends the owner's membership of its tier by the order's months,
 * from the later of now and the current expiry. Both happen in one transaction, and only the call
 * that moves the order out of `pending` extends: a repeated confirmation changes nothing.
 */
export async function confirmOrder(
  db: TDb,
  orderId: string,
  confirmation: TConfirmation,
  now: Date,
): Promise<{ order: TOrder; alreadyPaid: boolean; membershipExpiry: string | null }> {
  return transaction(db, async (tx) => {
    const row = await selectOrder(tx, eq(subscriptionOrders.id, orderId));
    if (!row) throw new AppError('NOT_FOUND', 'Order not found');
    if (confirmation.payType !== undefined && confirmation.payType !== row.payType) {
      throw new AppError('CONFLICT', `Order was created for pay type "${row.payType}", not "${confirmation.payType}"`);
    }
    const membership = await tx
      .select({ expiresAt: subscriptionMemberships.expiresAt })
      .from(subscriptionMemberships)
      .where(and(eq(subscriptionMemberships.userId, row.userId), eq(subscriptionMemberships.tierId, row.tierId)))
      .get();
    if (row.status === 'paid') {
      return { order: toOrder(row, now), alreadyPaid: true, membershipExpiry: membership?.expiresAt.toISOString() ?? null };
    }
    const status = effectiveStatus(row, now);
    if (status !== 'pending') {
      throw new AppError('CONFLICT', `Order is ${status}: it can no longer be paid`, { data: { status } });
    }
    if (
      (confirmation.amountMinor !== undefined && confirmation.amountMinor !== row.amountMinor) ||
      (confirmation.currency !== undefined && confirmation.currency !== row.currency)
    ) {
      throw new AppError(
        'CONFLICT',
        `Paid amount ${confirmation.amountMinor} ${confirmation.currency} does not match the order's ${row.amountMinor} ${row.currency} (minor units)`,
      );
    }
    await tx
      .update(subscriptionOrders)
      .set({ status: 'paid', paidAt: now, confirmedBy: confirmation.by, providerRef: confirmation.providerRef ?? undefined })
      .where(and(eq(subscriptionOrders.id, orderId), eq(subscriptionOrders.status, 'pending')));
    const from = membership && membership.expiresAt.getTime() > now.getTime() ? membership.expiresAt : now;
    const expiresAt = addCalendarMonths(from, row.months);
    await tx
      .insert(subscriptionMemberships)
      .values({ userId: row.userId, tierId: row.tierId, expiresAt, updatedAt: now })
      .onConflictDoUpdate({
        target: [subscriptionMemberships.userId, subscriptionMemberships.tierId],
        set: { expiresAt, updatedAt: now },
      });
    return {
      order: toOrder({ ...row, status: 'paid', paidAt: now }, now),
      alreadyPaid: false,
      membershipExpiry: expiresAt.toISOString(),
    };
  });
}

/** Writes `expired` on pending orders past their deadline; returns how many. Reads never depend on it having run. */
export async function expirePendingOrders(db: TDb, now: Date): Promise<number> {
  const expired = await db
    .update(subscriptionOrders)
    .set({ status: 'expired', closedAt: sql`${subscriptionOrders.payDeadline}` })
    .where(and(eq(subscriptionOrders.status, 'pending'), lte(subscriptionOrders.payDeadline, now)))
    .returning({ id: subscriptionOrders.id });
  return expired.length;
}

/** The user's orders: payable ones first (nearest deadline first), then the rest, newest first. */
export async function listMyOrders(
  db: TDb,
  userId: string,
  page: number,
  pageSize: number,
  now: Date,
): Promise<{ items: TOrder[]; pagination: TPagination }> {
  const window = pageWindow(page, pageSize);
  const payable = sql`CASE WHEN ${subscriptionOrders.status} = 'pending' AND ${subscriptionOrders.payDeadline} > ${now.getTime()} THEN 0 ELSE 1 END`;
  const rows = await db
    .select(orderColumns)
    .from(subscriptionOrders)
    .leftJoin(subscriptionTiers, eq(subscriptionTiers.id, subscriptionOrders.tierId))
    .where(eq(subscriptionOrders.userId, userId))
    .orderBy(payable, sql`CASE WHEN ${payable} = 0 THEN ${subscriptionOrders.payDeadline} END`, desc(subscriptionOrders.createdAt), desc(subscriptionOrders.id))
    .limit(window.limit)
    .offset(window.offset)
    .all();
  const total = await db.select({ n: count() }).from(subscriptionOrders).where(eq(subscriptionOrders.userId, userId)).get();
  return { items: rows.map((row) => toOrder(row, now)), pagination: window.describe(total?.n ?? 0) };
}

/** Admin view of one order, any owner. */
export async function getOrder(db: TDb, orderId: string, now: Date): Promise<TOrder & { userId: string }> {
  const row = await selectOrder(db, eq(subscriptionOrders.id, orderId));
  if (!row) throw new AppError('NOT_FOUND', 'Order not found');
  return { ...toOrder(row, now), userId: row.userId };
}
