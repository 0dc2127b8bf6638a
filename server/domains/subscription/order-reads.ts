/** Reads of orders (the owner's list, the admin view of one) and the sweep that writes `expired` on orders past their deadline. */
import { and, count, desc, eq, lte, sql } from 'drizzle-orm';
import { subscriptionOrders, subscriptionTiers } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { pageWindow, type TPagination } from '../../schemas';
import { orderColumns, selectOrder, toOrder } from './order-rows';
import type { TAdminOrder, TOrder } from './schemas';

/** Writes `expired` on pending orders past their deadline; returns how many. Reads never depend on it having run. */
export async function expirePendingOrders(deps: TDepsOf<'db' | 'now'>): Promise<number> {
  const now = deps.now();
  const expired = await deps.db
    .update(subscriptionOrders)
    .set({ status: 'expired', closedAt: sql`${subscriptionOrders.payDeadline}` })
    .where(and(eq(subscriptionOrders.status, 'pending'), lte(subscriptionOrders.payDeadline, now)))
    .returning({ id: subscriptionOrders.id });
  return expired.length;
}

/** The user's orders: payable ones first (nearest deadline first), then the rest, newest first. */
export async function listMyOrders(
  deps: TDepsOf<'db' | 'now'>,
  { userId, page, pageSize }: { userId: string; page: number; pageSize: number },
): Promise<{ data: TOrder[]; pagination: TPagination }> {
  const now = deps.now();
  const { db } = deps;
  const window = pageWindow(page, pageSize);
  const payable = sql`CASE WHEN ${subscriptionOrders.status} = 'pending' AND ${subscriptionOrders.payDeadline} > ${now.getTime()} THEN 0 ELSE 1 END`;
  const rows = await db
    .select(orderColumns)
    .from(subscriptionOrders)
    .leftJoin(subscriptionTiers, eq(subscriptionTiers.id, subscriptionOrders.tierId))
    .where(eq(subscriptionOrders.userId, userId))
    .orderBy(
      payable,
      sql`CASE WHEN ${payable} = 0 THEN ${subscriptionOrders.payDeadline} END`,
      desc(subscriptionOrders.createdAt),
      desc(subscriptionOrders.id),
    )
    .limit(window.limit)
    .offset(window.offset)
    .all();
  const total = await db
    .select({ n: count() })
    .from(subscriptionOrders)
    .where(eq(subscriptionOrders.userId, userId))
    .get();
  return { data: rows.map((row) => toOrder(row, now)), pagination: window.describe(total?.n ?? 0) };
}

/** Admin view of one order, any owner. */
export async function getOrder(deps: TDepsOf<'db' | 'now'>, { orderId }: { orderId: string }): Promise<TAdminOrder> {
  const now = deps.now();
  const row = await selectOrder(deps.db, eq(subscriptionOrders.id, orderId));
  if (!row) throw new AppError('NOT_FOUND', 'Order not found');
  return { ...toOrder(row, now), userId: row.userId };
}
