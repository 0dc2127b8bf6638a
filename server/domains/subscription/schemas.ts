import { z } from 'zod';
import { ORDER_STATUSES } from '../../../db/schema';
import { ZTimestamp } from '../../schemas';

export { ZCurrency, ZMoney, ZSlug } from './service-schemas';

export const ZTier = z.object({
  tierId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  price: z.number(),
  currency: z.string(),
  months: z.number().int(),
});

export const ZPlans = z.object({
  plans: z.array(
    z.object({
      planId: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      tiers: z.array(ZTier),
    }),
  ),
  payTypes: z.array(z.object({ payType: z.string(), name: z.string() })),
});

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
  paymentUrl: z.string().nullable(),
});

export const ZConfirmation = z.object({
  order: ZOrder,
  alreadyPaid: z.boolean().meta({ description: 'true when the order was already paid: nothing changed' }),
  membershipExpiry: ZTimestamp.nullable(),
});

export const ZOrderId = z.string().min(1, 'is required').max(64, 'must be at most 64 characters');
