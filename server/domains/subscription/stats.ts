import { and, asc, countDistinct, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { subscriptionMemberships, subscriptionOrders, subscriptionSupporterPrefs, users } from '../../../db/schema';
import { pageWindow, type TPagination } from '../../schemas';
import { getGoal } from './catalog';
import { percentOf, toMajor, utcMonth } from './money';

export interface TProgress {
  /** The UTC calendar month measured, `YYYY-MM`. */
  month: string;
  goal: number;
  currency: string;
  paidTotal: number;
  remaining: number;
  percent: number;
  supporterCount: number;
}

/**
 * This UTC month's paid orders (by the time they were paid) in the goal's currency, against the goal.
 * Orders in another currency are not converted and not counted.
 */
export async function getProgress(db: TDb, now: Date): Promise<TProgress> {
  const goal = (await getGoal(db)) ?? { amountMinor: 0, currency: 'USD' };
  const month = utcMonth(now);
  const row = await db
    .select({
      total: sql<number>`coalesce(sum(${subscriptionOrders.amountMinor}), 0)`.mapWith(Number),
      supporters: countDistinct(subscriptionOrders.userId),
    })
    .from(subscriptionOrders)
    .where(
      and(
        eq(subscriptionOrders.status, 'paid'),
        eq(subscriptionOrders.currency, goal.currency),
        gte(subscriptionOrders.paidAt, month.start),
        lt(subscriptionOrders.paidAt, month.end),
      ),
    )
    .get();
  const paidMinor = row?.total ?? 0;
  return {
    month: month.label,
    goal: toMajor(goal.amountMinor),
    currency: goal.currency,
    paidTotal: toMajor(paidMinor),
    remaining: toMajor(Math.max(0, goal.amountMinor - paidMinor)),
    percent: percentOf(paidMinor, goal.amountMinor),
    supporterCount: row?.supporters ?? 0,
  };
}

export interface THallEntry {
  rank: number;
  user: { id: string; username: string };
  paidTotal: number;
  currency: string;
  orderCount: number;
  /** When their first counted payment was made. */
  since: string;
}

/**
 * Core donors: everyone with a paid order, by all-time paid total in the goal's currency, highest
 * first; ties go to the earlier supporter. Users who opted out are left out entirely.
 */
export async function getHall(db: TDb, page: number, pageSize: number): Promise<{ items: THallEntry[]; pagination: TPagination; currency: string }> {
  const goal = await getGoal(db);
  const currency = goal?.currency ?? 'USD';
  const window = pageWindow(page, pageSize);
  const where = and(
    eq(subscriptionOrders.status, 'paid'),
    eq(subscriptionOrders.currency, currency),
    sql`coalesce(${subscriptionSupporterPrefs.hallVisible}, 1) = 1`,
  );
  const total = sql<number>`sum(${subscriptionOrders.amountMinor})`.mapWith(Number);
  const since = sql<number>`min(${subscriptionOrders.paidAt})`.mapWith(Number);
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      total,
      orders: sql<number>`count(*)`.mapWith(Number),
      since,
    })
    .from(subscriptionOrders)
    .innerJoin(users, eq(users.id, subscriptionOrders.userId))
    .leftJoin(subscriptionSupporterPrefs, eq(subscriptionSupporterPrefs.userId, subscriptionOrders.userId))
    .where(where)
    .groupBy(users.id)
    .orderBy(desc(total), asc(since), asc(users.id))
    .limit(window.limit)
    .offset(window.offset)
    .all();
  const counted = await db
    .select({ n: countDistinct(subscriptionOrders.userId) })
    .from(subscriptionOrders)
    .leftJoin(subscriptionSupporterPrefs, eq(subscriptionSupporterPrefs.userId, subscriptionOrders.userId))
    .where(where)
    .get();
  return {
    items: rows.map((row, index) => ({
      rank: window.offset + index + 1,
      user: { id: row.id, username: row.username },
      paidTotal: toMajor(row.total),
      currency,
      orderCount: row.orders,
      since: new Date(row.since).toISOString(),
    })),
    pagination: window.describe(counted?.n ?? 0),
    currency,
  };
}

/** Tier id to membership expiry, for every tier the user ever held (an expiry in the past means lapsed). */
export async function getMyStatus(db: TDb, userId: string): Promise<Record<string, { expiryTime: string }>> {
  const rows = await db
    .select({ tierId: subscriptionMemberships.tierId, expiresAt: subscriptionMemberships.expiresAt })
    .from(subscriptionMemberships)
    .where(eq(subscriptionMemberships.userId, userId))
    .orderBy(asc(subscriptionMemberships.tierId))
    .all();
  return Object.fromEntries(rows.map((row) => [row.tierId, { expiryTime: row.expiresAt.toISOString() }]));
}

export async function getHallVisibility(db: TDb, userId: string): Promise<boolean> {
  const row = await db
    .select({ visible: subscriptionSupporterPrefs.hallVisible })
    .from(subscriptionSupporterPrefs)
    .where(eq(subscriptionSupporterPrefs.userId, userId))
    .get();
  return row?.visible ?? true;
}

export async function setHallVisibility(db: TDb, userId: string, visible: boolean, now: Date): Promise<boolean> {
  await db
    .insert(subscriptionSupporterPrefs)
    .values({ userId, hallVisible: visible, updatedAt: now })
    .onConflictDoUpdate({ target: subscriptionSupporterPrefs.userId, set: { hallVisible: visible, updatedAt: now } });
  return visible;
}
