/** Schemas of the subscription domain: plans and tiers, orders, progress and hall, and the admin writes and import. */
import { z } from 'zod';
import { zText } from '../../text';
import { ORDER_STATUSES } from '../../../db/schema';
import { ZTimestamp, zBool, zPage, zPageInput } from '../../schemas';

/** Ids chosen by admins for plans, tiers and pay types: stable, URL-safe slugs. */
export const ZSlug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,47}$/, 'must be 1-48 of a-z 0-9 _ -, starting with a letter or digit');

export const ZCurrency = z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code such as USD');

/** Major units with at most two decimals (e.g. 4.99). */
export const ZMoney = z
  .number('must be a number')
  .positive('must be greater than 0')
  .max(1_000_000, 'must be at most 1000000')
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, 'must have at most 2 decimals');

export const ZTier = z.object({
  tierId: z
    .string()
    .meta({ description: 'The tier (slug chosen by an admin); order it with POST /subscription/orders/create' }),
  name: z.string().meta({ description: 'Name shown to supporters' }),
  description: z.string().nullable().meta({ description: 'What it gives; null when none' }),
  price: z.number().meta({ description: 'Price in major units of currency (4.99)' }),
  currency: z.string().meta({ description: 'ISO 4217 code (USD)' }),
  months: z.number().int().meta({ description: 'Months of membership one payment buys' }),
});
export type TTier = z.infer<typeof ZTier>;

export const ZPlan = z.object({
  planId: z.string().meta({ description: 'The plan (slug chosen by an admin)' }),
  name: z.string().meta({ description: 'Name shown to supporters' }),
  description: z.string().nullable().meta({ description: 'What it is for; null when none' }),
  tiers: z.array(ZTier).meta({ description: 'Its active tiers, in display order' }),
});
export type TPlan = z.infer<typeof ZPlan>;

export const ZPayType = z.object({
  payType: z.string().meta({ description: 'The payment method (its provider id, e.g. manual)' }),
  name: z.string().meta({ description: 'Name shown to supporters' }),
});
export type TPayType = z.infer<typeof ZPayType>;

export const ZPlans = z.object({
  plans: z.array(ZPlan).meta({ description: 'Active plans, in display order' }),
  payTypes: z.array(ZPayType).meta({ description: 'Enabled payment methods, in display order' }),
});
export type TPlans = z.infer<typeof ZPlans>;

export const ZOrder = z.object({
  orderId: z.string().meta({ description: 'The order (v4 UUID)' }),
  tierId: z.string().meta({ description: 'The tier ordered' }),
  tierName: z.string().meta({ description: "The tier's name when ordered" }),
  payType: z.string().meta({ description: 'The payment method chosen' }),
  amount: z.number().meta({ description: 'Price in major units, fixed when ordered' }),
  currency: z.string().meta({ description: 'ISO 4217 code' }),
  months: z.number().int().meta({ description: 'Months of membership it buys' }),
  status: z
    .enum(ORDER_STATUSES)
    .meta({ description: 'pending until paid, cancelled by its owner, or expired after payDeadline' }),
  createdAt: ZTimestamp.meta({ description: 'When it was created' }),
  payDeadline: ZTimestamp.meta({ description: 'A pending order expires then (30 minutes after creation)' }),
  paidAt: ZTimestamp.nullable().meta({ description: 'When the payment was confirmed; null until then' }),
  closedAt: ZTimestamp.nullable().meta({ description: 'When it was cancelled or expired; null otherwise' }),
  paymentUrl: z
    .string()
    .nullable()
    .meta({ description: "Where to pay (the provider's checkout); null once the order cannot be paid any more" }),
});
export type TOrder = z.infer<typeof ZOrder>;

export const ZAdminOrder = ZOrder.extend({ userId: z.string().meta({ description: 'The user who ordered' }) });
export type TAdminOrder = z.infer<typeof ZAdminOrder>;

export const ZConfirmation = z.object({
  order: ZOrder.meta({ description: 'The order, paid' }),
  alreadyPaid: z.boolean().meta({ description: 'true when the order was already paid: nothing changed' }),
  membershipExpiry: ZTimestamp.nullable().meta({ description: "When the user's membership of the tier now ends" }),
});
export type TConfirmationResult = z.infer<typeof ZConfirmation>;

export const ZExpired = z.object({
  expired: z.number().int().meta({ description: 'Pending orders past their deadline, now expired' }),
});

export const ZOrderId = z
  .string()
  .min(1, 'is required')
  .max(64, 'must be at most 64 characters')
  .meta({ description: 'The order (its orderId)' });

export const ZOrderRef = z.strictObject({ orderId: ZOrderId });

export const ZCreateOrderInput = z.strictObject({
  tierId: z
    .string()
    .min(1, 'is required')
    .max(64, 'must be at most 64 characters')
    .meta({ description: 'The tier to buy (GET /subscription/plans)' }),
  payType: z
    .string()
    .min(1, 'is required')
    .max(64, 'must be at most 64 characters')
    .meta({ description: 'The payment method (GET /subscription/plans, payTypes)' }),
});
export type TCreateOrderInput = z.infer<typeof ZCreateOrderInput>;

export const ZPageQuery = z.strictObject(zPageInput(20)).prefault({});

export const ZMyOrders = zPage(ZOrder);

/** Tier id to membership expiry. */
export const ZMyStatus = z.record(
  z.string(),
  z.object({ expiryTime: ZTimestamp.meta({ description: 'When the membership of this tier ends (or ended)' }) }),
);
export type TMyStatus = z.infer<typeof ZMyStatus>;

export const ZVisibility = z.object({
  visible: z.boolean().meta({ description: 'You are listed in the hall of supporters (GET /subscription/hall)' }),
});
export const ZVisibilityInput = z.strictObject({
  visible: zBool().meta({ description: 'true lists you in the hall of supporters, false hides you' }),
});

export const ZProgress = z.object({
  month: z.string().meta({ description: 'The UTC calendar month measured, `YYYY-MM`' }),
  goal: z.number().meta({ description: "The month's funding goal, in major units" }),
  currency: z.string().meta({ description: 'ISO 4217 code of goal and totals' }),
  paidTotal: z.number().meta({ description: 'Paid this month, in major units' }),
  remaining: z.number().meta({ description: 'Still needed to reach the goal (0 once reached)' }),
  percent: z.number().meta({ description: 'paidTotal as a percentage of goal' }),
  supporterCount: z.number().int().meta({ description: 'Users who paid this month' }),
});
export type TProgress = z.infer<typeof ZProgress>;

export const ZHallEntry = z.object({
  rank: z.number().int().meta({ description: 'Place in the hall, 1 for the largest total' }),
  user: z
    .object({
      id: z.string().meta({ description: 'The user id' }),
      username: z.string().meta({ description: 'The username' }),
    })
    .meta({ description: 'The supporter' }),
  paidTotal: z.number().meta({ description: 'Everything they paid, in major units' }),
  currency: z.string().meta({ description: 'ISO 4217 code of paidTotal' }),
  orderCount: z.number().int().meta({ description: 'Paid orders counted' }),
  since: ZTimestamp.meta({ description: 'When their first counted payment was made' }),
});
export type THallEntry = z.infer<typeof ZHallEntry>;

export const ZHall = zPage(ZHallEntry).extend({
  currency: z.string().meta({ description: 'ISO 4217 code of the totals' }),
});
export type THall = z.infer<typeof ZHall>;

/** The provider reads the raw body itself; the parsed fields are only let through. */
export const ZWebhookInput = z.looseObject({
  payType: z.string().min(1).max(64).meta({ description: 'The payment provider posting (manual)' }),
});

export const ZWebhookResult = z.object({
  eventId: z.string().meta({ description: "The provider's event id" }),
  handled: z.boolean().meta({ description: 'false for event types that are acknowledged and ignored' }),
  alreadyPaid: z.boolean().meta({ description: 'The order was paid before this event: nothing changed' }),
  order: ZOrder.nullable().meta({ description: 'The paid order; null when the event was ignored' }),
});
export type TWebhookResult = z.infer<typeof ZWebhookResult>;

const ZPosition = z.number().int().min(0).max(10_000).meta({ description: 'Display order, smallest first' });
const ZActive = z.boolean().meta({ description: 'Offered to supporters (inactive ones are not listed)' });

export const ZPlanWrite = z.strictObject({
  name: zText({ min: 1, max: 80 }).meta({ description: 'Name shown to supporters, 1-80 characters' }),
  description: zText({ max: 2000, kind: 'multiline' })
    .nullish()
    .meta({ description: 'What it is for, up to 2000 characters; null for none' }),
  position: ZPosition.optional(),
  active: ZActive.optional(),
});
export type TPlanWrite = z.infer<typeof ZPlanWrite>;

export const ZPutPlan = ZPlanWrite.extend({
  planId: ZSlug.meta({ description: 'The plan to create or replace (a slug)' }),
});
export const ZPutPlanResult = z.object({
  planId: z.string().meta({ description: 'The plan' }),
  name: z.string().meta({ description: 'Name shown to supporters' }),
  description: z.string().nullable().meta({ description: 'What it is for; null when none' }),
  position: ZPosition,
  active: ZActive,
});

export const ZTierWrite = z.strictObject({
  planId: ZSlug.meta({ description: 'The plan it belongs to' }),
  name: zText({ min: 1, max: 80 }).meta({ description: 'Name shown to supporters, 1-80 characters' }),
  description: zText({ max: 2000, kind: 'multiline' })
    .nullish()
    .meta({ description: 'What it gives, up to 2000 characters; null for none' }),
  price: ZMoney.meta({ description: 'Price in major units, at most 2 decimals' }),
  currency: ZCurrency.meta({ description: 'ISO 4217 code (USD)' }),
  months: z
    .number()
    .int()
    .min(1, 'must be at least 1')
    .max(120, 'must be at most 120')
    .meta({ description: 'Months of membership one payment buys, 1-120' }),
  position: ZPosition.optional(),
  active: ZActive.optional(),
});

export const ZPutTier = ZTierWrite.extend({
  tierId: ZSlug.meta({ description: 'The tier to create or replace (a slug)' }),
});

/** A tier as an admin writes it: the fields of a Tier (AdminTier extends Tier in the OpenAPI document), its plan, position and state. */
export const ZPutTierResult = z.object({
  tierId: ZTier.shape.tierId,
  planId: z.string().meta({ description: 'The plan it belongs to' }),
  name: ZTier.shape.name,
  description: ZTier.shape.description,
  price: ZTier.shape.price,
  currency: ZTier.shape.currency,
  months: ZTier.shape.months,
  position: z.number().int().meta({ description: 'Display order, smallest first' }),
  active: z.boolean().meta({ description: 'Offered to supporters' }),
});

export const ZPayTypeWrite = z.strictObject({
  name: zText({ min: 1, max: 80 }).meta({ description: 'Name shown to supporters, 1-80 characters' }),
  enabled: z.boolean().optional().meta({ description: 'Offered to supporters' }),
  position: ZPosition.optional(),
});
export type TPayTypeWrite = z.infer<typeof ZPayTypeWrite>;

export const ZPutPayType = ZPayTypeWrite.extend({
  payType: ZSlug.meta({ description: 'The payment method: the id of a payment provider (manual)' }),
});
/** A payment method as an admin writes it: the fields of a PayType (AdminPayType extends PayType in the OpenAPI document), its state and position. */
export const ZPutPayTypeResult = z.object({
  payType: ZPayType.shape.payType,
  name: ZPayType.shape.name,
  enabled: z.boolean().meta({ description: 'Offered to supporters' }),
  position: z.number().int().meta({ description: 'Display order, smallest first' }),
});

export const ZGoalWrite = z.strictObject({
  amount: ZMoney.meta({ description: 'The monthly funding goal, in major units' }),
  currency: ZCurrency.meta({ description: 'ISO 4217 code' }),
});
export const ZGoalResult = z.object({
  amount: z.number().meta({ description: 'The monthly funding goal, in major units' }),
  currency: z.string().meta({ description: 'ISO 4217 code' }),
});

/** The import document: what admins keep in version control and load with the CLI or the admin API. */
export const ZCatalogImport = z.strictObject({
  plans: z
    .array(
      z.strictObject({
        planId: ZSlug,
        name: zText({ min: 1, max: 80 }),
        description: zText({ max: 2000, kind: 'multiline' }).nullish(),
        active: z.boolean().optional(),
        tiers: z
          .array(
            z.strictObject({
              tierId: ZSlug,
              name: zText({ min: 1, max: 80 }),
              description: zText({ max: 2000, kind: 'multiline' }).nullish(),
              price: ZMoney,
              currency: ZCurrency,
              months: z.number().int().min(1).max(120),
              active: z.boolean().optional(),
            }),
          )
          .max(50),
      }),
    )
    .max(50)
    .default([]),
  payTypes: z
    .array(z.strictObject({ payType: ZSlug, name: zText({ min: 1, max: 80 }), enabled: z.boolean().optional() }))
    .max(20)
    .default([]),
  goal: z.strictObject({ amount: ZMoney, currency: ZCurrency }).optional(),
});
export type TCatalogImport = z.infer<typeof ZCatalogImport>;

export const ZImportCounts = z.object({
  plans: z.number().int().meta({ description: 'Plans written' }),
  tiers: z.number().int().meta({ description: 'Tiers written' }),
  payTypes: z.number().int().meta({ description: 'Payment methods written' }),
  goal: z.boolean().meta({ description: 'The goal was written' }),
});
export type TImportCounts = z.infer<typeof ZImportCounts>;
