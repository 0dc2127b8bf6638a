/**
 * Admin writes of the sponsorship catalog: upserts keyed by the id in the path, so a re-run import is
 * harmless; and the import of a whole catalog document.
 */
import { eq } from 'drizzle-orm';
import { subscriptionGoal, subscriptionPayTypes, subscriptionPlans, subscriptionTiers } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import type { TGoal } from './catalog';
import { toMinor } from './money';
import { paymentProvider } from './payment';
import type { TCatalogImport, TImportCounts, TPayTypeWrite, TPlanWrite } from './schemas';

type TWriteDeps = TDepsOf<'db' | 'now'>;

export async function upsertPlan(deps: TWriteDeps, input: TPlanWrite & { planId: string }): Promise<void> {
  const values = {
    name: input.name,
    description: input.description ?? null,
    position: input.position ?? 0,
    active: input.active ?? true,
    updatedAt: deps.now(),
  };
  await deps.db
    .insert(subscriptionPlans)
    .values({ id: input.planId, ...values })
    .onConflictDoUpdate({ target: subscriptionPlans.id, set: values });
}

/** A tier as stored: the price in minor units. */
export interface TTierWrite {
  tierId: string;
  planId: string;
  name: string;
  description?: string | null;
  priceMinor: number;
  currency: string;
  months: number;
  position?: number;
  active?: boolean;
}

/** A tier of an existing plan; an unknown planId is a 400. */
export async function upsertTier(deps: TWriteDeps, input: TTierWrite): Promise<void> {
  const now = deps.now();
  const plan = await deps.db
    .select({ id: subscriptionPlans.id })
    .from(subscriptionPlans)
    .where(eq(subscriptionPlans.id, input.planId))
    .get();
  if (!plan) {
    throw new AppError('BAD_REQUEST', `Invalid input: planId: no plan "${input.planId}"`, {
      issues: [{ path: 'planId', message: `no plan "${input.planId}"` }],
    });
  }
  const values = {
    planId: input.planId,
    name: input.name,
    description: input.description ?? null,
    priceMinor: input.priceMinor,
    currency: input.currency,
    months: input.months,
    position: input.position ?? 0,
    active: input.active ?? true,
    updatedAt: now,
  };
  await deps.db
    .insert(subscriptionTiers)
    .values({ id: input.tierId, ...values })
    .onConflictDoUpdate({ target: subscriptionTiers.id, set: values });
}

/** A pay type names a built-in payment provider; any other id is a 400. */
export async function upsertPayType(deps: TWriteDeps, input: TPayTypeWrite & { payType: string }): Promise<void> {
  const now = deps.now();
  const { payType } = input;
  if (!paymentProvider(payType)) {
    throw new AppError('BAD_REQUEST', `Invalid input: payType: no payment provider "${payType}" is built in`, {
      issues: [{ path: 'payType', message: 'no payment provider with this id is built in' }],
    });
  }
  const values = { name: input.name, enabled: input.enabled ?? true, position: input.position ?? 0, updatedAt: now };
  await deps.db
    .insert(subscriptionPayTypes)
    .values({ id: payType, ...values })
    .onConflictDoUpdate({ target: subscriptionPayTypes.id, set: values });
}

export async function setGoal(deps: TWriteDeps, goal: TGoal): Promise<void> {
  const values = { amountMinor: goal.amountMinor, currency: goal.currency, updatedAt: deps.now() };
  await deps.db
    .insert(subscriptionGoal)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: subscriptionGoal.id, set: values });
}

/** Upserts everything in the document; positions follow the document's order. Call inside transaction(), with its `tx` as `deps.db`. */
export async function importSubscriptionCatalog(deps: TWriteDeps, input: TCatalogImport): Promise<TImportCounts> {
  const now = deps.now();
  const at = { db: deps.db, now: () => now };
  let tiers = 0;
  for (const [planIndex, plan] of input.plans.entries()) {
    await upsertPlan(at, {
      planId: plan.planId,
      name: plan.name,
      description: plan.description,
      active: plan.active,
      position: planIndex,
    });
    for (const [tierIndex, tier] of plan.tiers.entries()) {
      const { price, ...rest } = tier;
      await upsertTier(at, { ...rest, planId: plan.planId, priceMinor: toMinor(price)!, position: tierIndex });
      tiers++;
    }
  }
  for (const [index, payType] of input.payTypes.entries()) {
    await upsertPayType(at, {
      payType: payType.payType,
      name: payType.name,
      enabled: payType.enabled,
      position: index,
    });
  }
  if (input.goal) await setGoal(at, { amountMinor: toMinor(input.goal.amount)!, currency: input.goal.currency });
  return { plans: input.plans.length, tiers, payTypes: input.payTypes.length, goal: input.goal !== undefined };
}
