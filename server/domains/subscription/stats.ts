/** Sponsorship figures: this month's progress against the goal, the donor hall, a member's status and hall visibility. */
import { and, asc, countDistinct, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { subscriptionMemberships, subscriptionOrders, subscriptionSupporterPrefs, users } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { pageWindow } from '../../schemas';
import { getGoal } from './catalog';
import { percentOf, toMajor, utcMonth } from './money';
import type { THall, TMyStatus, TProgress } from './schemas';

/**
 * This UTC month's paid orders (by the time they were paid) in the goal's currency, against the goal.
 * Orders in another currency are not converted and not counted.
 */
export async function getProgress(deps: TDepsOf<'db' | 'now'>): Promise<TProgress> {
  const now = deps.now();
  const { db } = deps;
  const goal = (await getGoal(deps)) ?? { amountMinor: 0, currency: 'USD' };
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

/**
 * Core donors: everyone with a paid order, by all-time paid total in the goal's currency, highest
 * first; ties go to the earlier supporter. Users who opted out are left out entirely.
 */
export async function getHall(
  deps: TDepsOf<'db'>,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<THall> {
  const { db } = deps;
  const goal = await getGoal(deps);
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
    data: rows.map((row, index) => ({
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
export async function getMyStatus(deps: TDepsOf<'db'>, { userId }: { userId: string }): Promise<TMyStatus> {
  const rows = await deps.db
    .select({ tierId: subscriptionMemberships.tierId, expiresAt: subscriptionMemberships.expiresAt })
    .from(subscriptionMemberships)
    .where(eq(subscriptionMemberships.userId, userId))
    .orderBy(asc(subscriptionMemberships.tierId))
    .all();
  return Object.fromEntries(rows.map((row) => [row.tierId, { expiryTime: row.expiresAt.toISOString() }]));
}

/** Whether the user is listed in the hall (yes unless they opted out). */
export async function getHallVisibility(deps: TDepsOf<'db'>, { userId }: { userId: string }): Promise<boolean> {
  const row = await deps.db
    .select({ visible: subscriptionSupporterPrefs.hallVisible })
    .from(subscriptionSupporterPrefs)
    .where(eq(subscriptionSupporterPrefs.userId, userId))
    .get();
  return row?.visible ?? true;
}

export async function setHallVisibility(
  deps: TDepsOf<'db' | 'now'>,
  { userId, visible }: { userId: string; visible: boolean },
): Promise<boolean> {
  const now = deps.now();
  await deps.db
    .insert(subscriptionSupporterPrefs)
    .values({ userId, hallVisible: visible, updatedAt: now })
    .onConflictDoUpdate({ target: subscriptionSupporterPrefs.userId, set: { hallVisible: visible, updatedAt: now } });
  return visible;
}
