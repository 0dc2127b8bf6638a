import { z } from 'zod';
import type { TDb } from '../../../db/client';
import { ZCurrency, ZMoney, ZSlug } from './service-schemas';
import { setGoal, upsertPayType, upsertPlan, upsertTier } from './catalog';
import { toMinor } from './money';

/** The import document: what admins keep in version control and load with the CLI or the admin API. */
export const ZCatalogImport = z.object({
  plans: z
    .array(
      z.object({
        planId: ZSlug,
        name: z.string().trim().min(1).max(80),
        description: z.string().max(2000).nullish(),
        active: z.boolean().optional(),
        tiers: z
          .array(
            z.object({
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
    .array(z.object({ payType: ZSlug, name: z.string().trim().min(1).max(80), enabled: z.boolean().optional() }))
    .max(20)
    .default([]),
  goal: z.object({ amount: ZMoney, currency: ZCurrency }).optional(),
});

export type TCatalogImport = z.infer<typeof ZCatalogImport>;

/** Upserts everything in the document; positions follow the document's order. Call inside transaction(). */
export async function importSubscriptionCatalog(tx: TDb, input: TCatalogImport, now: Date) {
  let tiers = 0;
  for (const [planIndex, plan] of input.plans.entries()) {
    await upsertPlan(tx, plan.planId, { name: plan.name, description: plan.description, active: plan.active, position: planIndex }, now);
    for (const [tierIndex, tier] of plan.tiers.entries()) {
      const { tierId, price, ...rest } = tier;
      await upsertTier(tx, tierId, { ...rest, planId: plan.planId, priceMinor: toMinor(price)!, position: tierIndex }, now);
      tiers++;
    }
  }
  for (const [index, payType] of input.payTypes.entries()) {
    await upsertPayType(tx, payType.payType, { name: payType.name, enabled: payType.enabled, position: index }, now);
  }
  if (input.goal) await setGoal(tx, { amountMinor: toMinor(input.goal.amount)!, currency: input.goal.currency }, now);
  return { plans: input.plans.length, tiers, payTypes: input.payTypes.length, goal: input.goal !== undefined };
}
