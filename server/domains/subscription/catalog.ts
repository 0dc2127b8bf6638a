import { and, asc, eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { subscriptionGoal, subscriptionPayTypes, subscriptionPlans, subscriptionTiers } from '../../../db/schema';
import { AppError } from '../../errors';
import { paymentProvider } from './payment';
import { toMajor } from './money';

export interface TTier {
  tierId: string;
  name: string;
  description: string | null;
  price: number;
  currency: string;
  months: number;
}

export interface TPlan {
  planId: string;
  name: string;
  description: string | null;
  tiers: TTier[];
}

export interface TPayType {
  payType: string;
  name: string;
}

export interface TGoal {
  amountMinor: number;
  currency: string;
}

/** Active plans with their active tiers, and the enabled pay types, in display order. */
export async function listPlans(db: TDb): Promise<{ plans: TPlan[]; payTypes: TPayType[] }> {
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
export async function findPurchasableTier(db: TDb, tierId: string) {
  return db
    .select({
      id: subscriptionTiers.id,
      name: subscriptionTiers.name,
      priceMinor: subscriptionTiers.priceMinor,
      currency: subscriptionTiers.currency,
      months: subscriptionTiers.months,
    })
    .from(subscriptionTiers)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptionTiers.planId))
    .where(and(eq(subscriptionTiers.id, tierId), eq(subscriptionTiers.active, true), eq(subscriptionPlans.active, true)))
    .get();
}

export async function isPayTypeEnabled(db: TDb, payType: string): Promise<boolean> {
  const row = await db
    .select({ enabled: subscriptionPayTypes.enabled })
    .from(subscriptionPayTypes)
    .where(eq(subscriptionPayTypes.id, payType))
    .get();
  return row?.enabled === true && paymentProvider(payType) !== undefined;
}

export async function getGoal(db: TDb): Promise<TGoal | undefined> {
  return db
    .select({ amountMinor: subscriptionGoal.amountMinor, currency: subscriptionGoal.currency })
    .from(subscriptionGoal)
    .where(eq(subscriptionGoal.id, 1))
    .get();
}

// --- Admin writes: upserts keyed by the id in the path, so a re-run import is harmless. ---

export interface TPlanWrite {
  name: string;
  description?: string | null;
  position?: number;
  active?: boolean;
}

export async function upsertPlan(db: TDb, planId: string, input: TPlanWrite, now: Date): Promise<void> {
  const values = {
    name: input.name,
    description: input.description ?? null,
    position: input.position ?? 0,
    active: input.active ?? true,
    updatedAt: now,
  };
  await db
    .insert(subscriptionPlans)
    .values({ id: planId, ...values })
    .onConflictDoUpdate({ target: subscriptionPlans.id, set: values });
}

export interface TTierWrite {
  planId: string;
  name: string;
  description?: string | null;
  priceMinor: number;
  currency: string;
  months: number;
  position?: number;
  active?: boolean;
}

export async function upsertTier(db: TDb, tierId: string, input: TTierWrite, now: Date): Promise<void> {
  const plan = await db.select({ id: subscriptionPlans.id }).from(subscriptionPlans).where(eq(subscriptionPlans.id, input.planId)).get();
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
  await db
    .insert(subscriptionTiers)
    .values({ id: tierId, ...values })
    .onConflictDoUpdate({ target: subscriptionTiers.id, set: values });
}

export interface TPayTypeWrite {
  name: string;
  enabled?: boolean;
  position?: number;
}

export async function upsertPayType(db: TDb, payType: string, input: TPayTypeWrite, now: Date): Promise<void> {
  if (!paymentProvider(payType)) {
    throw new AppError('BAD_REQUEST', `Invalid input: payType: no payment provider "${payType}" is built in`, {
      issues: [{ path: 'payType', message: 'no payment provider with this id is built in' }],
    });
  }
  const values = { name: input.name, enabled: input.enabled ?? true, position: input.position ?? 0, updatedAt: now };
  await db
    .insert(subscriptionPayTypes)
    .values({ id: payType, ...values })
    .onConflictDoUpdate({ target: subscriptionPayTypes.id, set: values });
}

export async function setGoal(db: TDb, goal: TGoal, now: Date): Promise<void> {
  const values = { amountMinor: goal.amountMinor, currency: goal.currency, updatedAt: now };
  await db
    .insert(subscriptionGoal)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: subscriptionGoal.id, set: values });
}
