import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './user';

/** Money is stored in minor units (cents, fen) as integers; every currency is taken to have 2 decimals. */

export const subscriptionPlans = sqliteTable('subscription_plans', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description'),
  position: integer('position').notNull().default(0),
  active: integer('active', { mode: 'boolean' }).notNull().default(true),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

export const subscriptionTiers = sqliteTable(
  'subscription_tiers',
  {
    id: text('id').primaryKey(),
    planId: text('plan_id')
      .notNull()
      .references(() => subscriptionPlans.id),
    name: text('name').notNull(),
    description: text('description'),
    priceMinor: integer('price_minor').notNull(),
    currency: text('currency').notNull(),
    months: integer('months').notNull(),
    position: integer('position').notNull().default(0),
    /** Retired tiers stay for the orders and memberships that name them. */
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [
    index('subscription_tiers_plan').on(table.planId),
    check('subscription_tiers_price', sql`${table.priceMinor} > 0`),
    check('subscription_tiers_months', sql`${table.months} BETWEEN 1 AND 120`),
  ],
);

/** A pay type is a channel users pick; its id names the provider implementation in server/domains/subscription/payment. */
export const subscriptionPayTypes = sqliteTable('subscription_pay_types', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  position: integer('position').notNull().default(0),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/** One row (id 1): the monthly goal the progress bar measures against. */
export const subscriptionGoal = sqliteTable('subscription_goal', {
  id: integer('id').primaryKey(),
  amountMinor: integer('amount_minor').notNull(),
  currency: text('currency').notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

export const ORDER_STATUSES = ['pending', 'paid', 'cancelled', 'expired'] as const;
export type TOrderStatus = (typeof ORDER_STATUSES)[number];

export const subscriptionOrders = sqliteTable(
  'subscription_orders',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tierId: text('tier_id')
      .notNull()
      .references(() => subscriptionTiers.id),
    payType: text('pay_type').notNull(),
    /** Copied from the tier at creation: later price changes do not touch existing orders. */
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    months: integer('months').notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull(),
    idempotencyKey: text('idempotency_key'),
    paymentUrl: text('payment_url').notNull(),
    providerRef: text('provider_ref'),
    confirmedBy: text('confirmed_by', { enum: ['webhook', 'admin'] }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    payDeadline: integer('pay_deadline', { mode: 'timestamp_ms' }).notNull(),
    paidAt: integer('paid_at', { mode: 'timestamp_ms' }),
    closedAt: integer('closed_at', { mode: 'timestamp_ms' }),
  },
  (table) => [
    uniqueIndex('subscription_orders_idempotency').on(table.userId, table.idempotencyKey),
    index('subscription_orders_user_created').on(table.userId, table.createdAt),
    index('subscription_orders_status_deadline').on(table.status, table.payDeadline),
    index('subscription_orders_paid').on(table.status, table.paidAt),
  ],
);

export const subscriptionMemberships = sqliteTable(
  'subscription_memberships',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tierId: text('tier_id')
      .notNull()
      .references(() => subscriptionTiers.id),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.tierId] })],
);

/** Supporters are listed in the hall unless they opt out; no row means visible. */
export const subscriptionSupporterPrefs = sqliteTable('subscription_supporter_prefs', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  hallVisible: integer('hall_visible', { mode: 'boolean' }).notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});
