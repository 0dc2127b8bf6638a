/**
 * The order state machine: create (pending), cancel (by the owner) and confirm (paid, extending the
 * membership). Reads of orders and the expiry sweep are in order-reads.ts.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, gt } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { subscriptionMemberships, subscriptionOrders, type TOrderStatus } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { findPurchasableTier, isPayTypeEnabled } from './catalog';
import { addCalendarMonths } from './money';
import { effectiveStatus, selectOrder, toOrder } from './order-rows';
import { paymentProvider } from './payment';
import type { TConfirmationResult, TCreateOrderInput, TOrder } from './schemas';

/** A pending order can be paid for this long; after that it is expired, whether or not the sweep has run. */
export const PAY_WINDOW_MS = 30 * 60 * 1000;
/** Unexpired pending orders one user may hold at once: stops a loop from filling the table. */
export const MAX_PENDING_ORDERS = 5;

/**
 * Creates a pending order and opens the provider's checkout. With an idempotency key (scoped to the
 * user) a repeat returns the first order, whatever its state now; the same key with a different
 * tierId or payType is a 422, since the client is reusing a key for a different purchase. Beyond
 * MAX_PENDING_ORDERS unexpired pending orders it is a 409, however many calls arrive at once.
 */
export async function createOrder(
  deps: TDepsOf<'db' | 'config' | 'now'>,
  input: TCreateOrderInput & { userId: string; idempotencyKey?: string },
): Promise<{ order: TOrder; replayed: boolean }> {
  const now = deps.now();
  const { db, config } = deps;
  const { userId, idempotencyKey } = input;
  if (idempotencyKey !== undefined) {
    const earlier = await replay(db, userId, idempotencyKey, input, now);
    if (earlier) return { order: earlier, replayed: true };
  }
  const tier = await findPurchasableTier(deps, { tierId: input.tierId });
  if (!tier) {
    throw new AppError('BAD_REQUEST', `Invalid input: tierId: no tier "${input.tierId}" is on sale`, {
      issues: [{ path: 'tierId', message: 'unknown tier' }],
    });
  }
  const provider = paymentProvider(input.payType);
  if (!provider || !(await isPayTypeEnabled(deps, { payType: input.payType }))) {
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
    {
      orderId,
      userId,
      tierId: tier.id,
      tierName: tier.name,
      amountMinor: tier.priceMinor,
      currency: tier.currency,
      months: tier.months,
      payDeadline,
    },
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
    .where(
      and(
        eq(subscriptionOrders.userId, userId),
        eq(subscriptionOrders.status, 'pending'),
        gt(subscriptionOrders.payDeadline, now),
      ),
    )
    .get();
  if ((pending?.n ?? 0) >= MAX_PENDING_ORDERS) {
    throw new AppError('CONFLICT', `You already have ${MAX_PENDING_ORDERS} pending orders: pay or cancel one first`);
  }
  return undefined;
}

async function replay(
  db: TDb,
  userId: string,
  key: string,
  input: TCreateOrderInput,
  now: Date,
): Promise<TOrder | undefined> {
  const row = await selectOrder(
    db,
    and(eq(subscriptionOrders.userId, userId), eq(subscriptionOrders.idempotencyKey, key))!,
  );
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
export async function cancelOrder(
  deps: TDepsOf<'db' | 'now'>,
  { userId, orderId }: { userId: string; orderId: string },
): Promise<TOrder> {
  const now = deps.now();
  const { db } = deps;
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
  deps: TDepsOf<'db' | 'now'>,
  confirmation: TConfirmation & { orderId: string },
): Promise<TConfirmationResult> {
  const now = deps.now();
  const { orderId } = confirmation;
  return transaction(deps.db, async (tx) => {
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
      return {
        order: toOrder(row, now),
        alreadyPaid: true,
        membershipExpiry: membership?.expiresAt.toISOString() ?? null,
      };
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
      .set({
        status: 'paid',
        paidAt: now,
        confirmedBy: confirmation.by,
        providerRef: confirmation.providerRef ?? undefined,
      })
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
