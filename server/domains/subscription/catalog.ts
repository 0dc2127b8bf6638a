/** The sponsorship catalog as buyers see it: active plans and tiers, enabled pay types, the monthly goal. */
import { and, asc, eq } from 'drizzle-orm';
import { subscriptionGoal, subscriptionPayTypes, subscriptionPlans, subscriptionTiers } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { paymentProvider } from './payment';
import { toMajor } from './money';
import type { TPlans } from './schemas';

/** The goal as stored, in minor units. */
export interface TGoal {
  amountMinor: number;
  currency: string;
}

/** Active plans with their active tiers, and the enabled pay types, in display order. */
export async function listPlans(deps: TDepsOf<'db'>): Promise<TPlans> {
  const { db } = deps;
  const plans = await db
    .select({ id: subscriptionPlans.id, name: subscriptionPlans.name, description: subscriptionPlans.description })
    .from(subscriptionPlans)
    .where(eq(subscriptionPlans.active, true))
    .orderBy(asc(subscriptionPlans.position), asc(subscriptionPlans.id))
    .all();
  const tiers = await db
    .select({
      tierId: subscriptionTiers.id,
      planId: subscriptionTiers.planId,
      name: subscriptionTiers.name,
      description: subscriptionTiers.description,
      priceMinor: subscriptionTiers.priceMinor,
      currency: subscriptionTiers.currency,
      months: subscriptionTiers.months,
    })
    .from(subscriptionTiers)
    .where(eq(subscriptionTiers.active, true))
    .orderBy(asc(subscriptionTiers.position), asc(subscriptionTiers.priceMinor), asc(subscriptionTiers.id))
    .all();
  const payTypes = await db
    .select({ payType: subscriptionPayTypes.id, name: subscriptionPayTypes.name })
    .from(subscriptionPayTypes)
    .where(eq(subscriptionPayTypes.enabled, true))
    .orderBy(asc(subscriptionPayTypes.position), asc(subscriptionPayTypes.id))
    .all();
  return {
    plans: plans.map((plan) => ({
      planId: plan.id,
      name: plan.name,
      description: plan.description,
      tiers: tiers
        .filter((tier) => tier.planId === plan.id)
        .map(({ planId: _planId, priceMinor, ...tier }) => ({ ...tier, price: toMajor(priceMinor) })),
    })),
    payTypes: payTypes.filter((payType) => paymentProvider(payType.payType) !== undefined),
  };
}

/** An active tier of an active plan: what an order may buy. */
export async function findPurchasableTier(deps: TDepsOf<'db'>, { tierId }: { tierId: string }) {
  return deps.db
    .select({
      id: subscriptionTiers.id,
      name: subscriptionTiers.name,
      priceMinor: subscriptionTiers.priceMinor,
      currency: subscriptionTiers.currency,
      months: subscriptionTiers.months,
    })
    .from(subscriptionTiers)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptionTiers.planId))
    .where(
      and(eq(subscriptionTiers.id, tierId), eq(subscriptionTiers.active, true), eq(subscriptionPlans.active, true)),
    )
    .get();
}

/** Whether the pay type is enabled and its provider built in. */
export async function isPayTypeEnabled(deps: TDepsOf<'db'>, { payType }: { payType: string }): Promise<boolean> {
  const row = await deps.db
    .select({ enabled: subscriptionPayTypes.enabled })
    .from(subscriptionPayTypes)
    .where(eq(subscriptionPayTypes.id, payType))
    .get();
  return row?.enabled === true && paymentProvider(payType) !== undefined;
}

export async function getGoal(deps: TDepsOf<'db'>): Promise<TGoal | undefined> {
  return deps.db
    .select({ amountMinor: subscriptionGoal.amountMinor, currency: subscriptionGoal.currency })
    .from(subscriptionGoal)
    .where(eq(subscriptionGoal.id, 1))
    .get();
}
