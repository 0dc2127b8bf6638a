/** Schemas of the subscription domain: plans and tiers, orders, progress and hall, and the admin writes and import. */
import { z } from 'zod';
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
  tierId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  price: z.number(),
  currency: z.string(),
  months: z.number().int(),
});
export type TTier = z.infer<typeof ZTier>;

export const ZPlan = z.object({
  planId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  tiers: z.array(ZTier),
});
export type TPlan = z.infer<typeof ZPlan>;

export const ZPayType = z.object({ payType: z.string(), name: z.string() });
export type TPayType = z.infer<typeof ZPayType>;

export const ZPlans = z.object({ plans: z.array(ZPlan), payTypes: z.array(ZPayType) });
export type TPlans = z.infer<typeof ZPlans>;

export const ZOrder = z.object({
  orderId: z.string(),
  tierId: z.string(),
  tierName: z.string(),
  payType: z.string(),
  amount: z.number(),
  currency: z.string(),
  months: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  createdAt: ZTimestamp,
  payDeadline: ZTimestamp,
  paidAt: ZTimestamp.nullable(),
  closedAt: ZTimestamp.nullable(),
  /** Only while the order can still be paid. */
  paymentUrl: z.string().nullable(),
});
export type TOrder = z.infer<typeof ZOrder>;

export const ZAdminOrder = ZOrder.extend({ userId: z.string() });
export type TAdminOrder = z.infer<typeof ZAdminOrder>;

export const ZConfirmation = z.object({
  order: ZOrder,
  alreadyPaid: z.boolean().meta({ description: 'true when the order was already paid: nothing changed' }),
  membershipExpiry: ZTimestamp.nullable(),
});
export type TConfirmationResult = z.infer<typeof ZConfirmation>;

export const ZExpired = z.object({ expired: z.number().int() });

export const ZOrderId = z.string().min(1, 'is required').max(64, 'must be at most 64 characters');

export const ZOrderRef = z.strictObject({ orderId: ZOrderId });

export const ZCreateOrderInput = z.strictObject({
  tierId: z.string().min(1, 'is required').max(64, 'must be at most 64 characters'),
  payType: z.string().min(1, 'is required').max(64, 'must be at most 64 characters'),
});
export type TCreateOrderInput = z.infer<typeof ZCreateOrderInput>;

export const ZPageQuery = z.strictObject(zPageInput(20)).prefault({});

export const ZMyOrders = zPage(ZOrder);

/** Tier id to membership expiry. */
export const ZMyStatus = z.record(z.string(), z.object({ expiryTime: ZTimestamp }));
export type TMyStatus = z.infer<typeof ZMyStatus>;

export const ZVisibility = z.object({ visible: z.boolean() });
export const ZVisibilityInput = z.strictObject({ visible: zBool() });

export const ZProgress = z.object({
  /** The UTC calendar month measured, `YYYY-MM`. */
  month: z.string(),
  goal: z.number(),
  currency: z.string(),
  paidTotal: z.number(),
  remaining: z.number(),
  percent: z.number(),
  supporterCount: z.number().int(),
});
export type TProgress = z.infer<typeof ZProgress>;

export const ZHallEntry = z.object({
  rank: z.number().int(),
  user: z.object({ id: z.string(), username: z.string() }),
  paidTotal: z.number(),
  currency: z.string(),
  orderCount: z.number().int(),
  /** When their first counted payment was made. */
  since: ZTimestamp,
});
export type THallEntry = z.infer<typeof ZHallEntry>;

export const ZHall = zPage(ZHallEntry).extend({ currency: z.string() });
export type THall = z.infer<typeof ZHall>;

/** The provider reads the raw body itself; the parsed fields are only let through. */
export const ZWebhookInput = z.looseObject({ payType: z.string().min(1).max(64) });

export const ZWebhookResult = z.object({
  eventId: z.string(),
  handled: z.boolean(),
  alreadyPaid: z.boolean(),
  order: ZOrder.nullable(),
});
export type TWebhookResult = z.infer<typeof ZWebhookResult>;

export const ZPlanWrite = z.strictObject({
  name: z.string().trim().min(1, 'is required').max(80),
  description: z.string().max(2000).nullish(),
  position: z.number().int().min(0).max(10_000).optional(),
  active: z.boolean().optional(),
});
export type TPlanWrite = z.infer<typeof ZPlanWrite>;

export const ZPutPlan = ZPlanWrite.extend({ planId: ZSlug });
export const ZPutPlanResult = z.object(ZPlanWrite.shape).required().extend({ planId: z.string(), description: z.string().nullable() });

export const ZTierWrite = z.strictObject({
  planId: ZSlug,
  name: z.string().trim().min(1, 'is required').max(80),
  description: z.string().max(2000).nullish(),
  price: ZMoney,
  currency: ZCurrency,
  months: z.number().int().min(1, 'must be at least 1').max(120, 'must be at most 120'),
  position: z.number().int().min(0).max(10_000).optional(),
  active: z.boolean().optional(),
});

export const ZPutTier = ZTierWrite.extend({ tierId: ZSlug });

export const ZPutTierResult = z.object({
  tierId: z.string(),
  planId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  price: z.number(),
  currency: z.string(),
  months: z.number().int(),
  position: z.number().int(),
  active: z.boolean(),
});

export const ZPayTypeWrite = z.strictObject({
  name: z.string().trim().min(1, 'is required').max(80),
  enabled: z.boolean().optional(),
  position: z.number().int().min(0).max(10_000).optional(),
});
export type TPayTypeWrite = z.infer<typeof ZPayTypeWrite>;

export const ZPutPayType = ZPayTypeWrite.extend({ payType: ZSlug });
export const ZPutPayTypeResult = z.object({ payType: z.string(), name: z.string(), enabled: z.boolean(), position: z.number().int() });

export const ZGoalWrite = z.strictObject({ amount: ZMoney, currency: ZCurrency });
export const ZGoalResult = z.object({ amount: z.number(), currency: z.string() });

/** The import document: what admins keep in version control and load with the CLI or the admin API. */
export const ZCatalogImport = z.strictObject({
  plans: z
    .array(
      z.strictObject({
        planId: ZSlug,
        name: z.string().trim().min(1).max(80),
        description: z.string().max(2000).nullish(),
        active: z.boolean().optional(),
        tiers: z
          .array(
            z.strictObject({
              tierId: ZSlug,
              name: z.string().trim().min(1).max(80),
              description: z.string().max(2000).nullish(),
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
    .array(z.strictObject({ payType: ZSlug, name: z.string().trim().min(1).max(80), enabled: z.boolean().optional() }))
    .max(20)
    .default([]),
  goal: z.strictObject({ amount: ZMoney, currency: ZCurrency }).optional(),
});
export type TCatalogImport = z.infer<typeof ZCatalogImport>;

export const ZImportCounts = z.object({ plans: z.number().int(), tiers: z.number().int(), payTypes: z.number().int(), goal: z.boolean() });
export type TImportCounts = z.infer<typeof ZImportCounts>;
