import { z } from 'zod';
import { transaction } from '../../../db/transaction';
import { ZNoInput } from '../../schemas';
import { importSubscriptionCatalog, ZCatalogImport } from '../subscription/import';
import { setGoal, upsertPayType, upsertPlan, upsertTier } from '../subscription/catalog';
import { toMinor } from '../subscription/money';
import { confirmOrder, expirePendingOrders, getOrder } from '../subscription/orders';
import { adminProcedure, router } from '../../trpc';
import { ZConfirmation, ZCurrency, ZMoney, ZOrder, ZOrderId, ZSlug } from '../subscription/schemas';

const tags = ['admin', 'subscription'];

const ZPlanWrite = z.object({
  name: z.string().trim().min(1, 'is required').max(80),
  description: z.string().max(2000).nullish(),
  position: z.number().int().min(0).max(10_000).optional(),
  active: z.boolean().optional(),
});

const ZTierWrite = z.object({
  planId: ZSlug,
  name: z.string().trim().min(1, 'is required').max(80),
  description: z.string().max(2000).nullish(),
  price: ZMoney,
  currency: ZCurrency,
  months: z.number().int().min(1, 'must be at least 1').max(120, 'must be at most 120'),
  position: z.number().int().min(0).max(10_000).optional(),
  active: z.boolean().optional(),
});

const ZPayTypeWrite = z.object({
  name: z.string().trim().min(1, 'is required').max(80),
  enabled: z.boolean().optional(),
  position: z.number().int().min(0).max(10_000).optional(),
});

/** Plans, tiers, pay types and the goal are data, edited here; orders can be confirmed by hand. */
export const subscriptionAdminRouter = router({
  getOrder: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/admin/subscription/orders/{orderId}', tags, protect: true, summary: 'Any order, with its owner' } })
    .input(z.object({ orderId: ZOrderId }))
    .output(ZOrder.extend({ userId: z.string() }))
    .query(({ input, ctx }) => getOrder(ctx.db, input.orderId, ctx.deps.now())),

  confirmOrder: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/subscription/orders/{orderId}/confirm',
        tags,
        protect: true,
        summary: 'Mark a pending order paid (idempotent)',
        description: 'Extends the membership once; repeating it returns alreadyPaid: true. Cancelled or expired: 409.',
      },
    })
    .input(z.object({ orderId: ZOrderId }))
    .output(ZConfirmation)
    .mutation(({ input, ctx }) => confirmOrder(ctx.db, input.orderId, { by: 'admin' }, ctx.deps.now())),

  expireOrders: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/subscription/orders/expire',
        tags,
        protect: true,
        summary: 'Mark pending orders past their deadline as expired now (a job does this every minute)',
      },
    })
    .input(ZNoInput)
    .output(z.object({ expired: z.number().int() }))
    .mutation(async ({ ctx }) => ({ expired: await expirePendingOrders(ctx.db, ctx.deps.now()) })),

  putPlan: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/admin/subscription/plans/{planId}', tags, protect: true, summary: 'Create or replace a plan' } })
    .input(ZPlanWrite.extend({ planId: ZSlug }))
    .output(ZPlanWrite.required().extend({ planId: z.string(), description: z.string().nullable() }))
    .mutation(async ({ input, ctx }) => {
      const { planId, ...plan } = input;
      await upsertPlan(ctx.db, planId, plan, ctx.deps.now());
      return { planId, name: plan.name, description: plan.description ?? null, position: plan.position ?? 0, active: plan.active ?? true };
    }),

  putTier: adminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/admin/subscription/tiers/{tierId}',
        tags,
        protect: true,
        summary: 'Create or replace a tier (price in major units, at most 2 decimals)',
        description: 'Existing orders keep the price they were created with. Retire a tier with active: false.',
      },
    })
    .input(ZTierWrite.extend({ tierId: ZSlug }))
    .output(
      z.object({
        tierId: z.string(),
        planId: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        price: z.number(),
        currency: z.string(),
        months: z.number().int(),
        position: z.number().int(),
        active: z.boolean(),
      }),
    )
    .mutation(async ({ input, ctx }) => {
      const { tierId, price, ...tier } = input;
      await upsertTier(ctx.db, tierId, { ...tier, priceMinor: toMinor(price)! }, ctx.deps.now());
      return { tierId, ...tier, price, description: tier.description ?? null, position: tier.position ?? 0, active: tier.active ?? true };
    }),

  putPayType: adminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/admin/subscription/pay-types/{payType}',
        tags,
        protect: true,
        summary: 'Enable, disable or rename a pay type (its id must be a built-in provider)',
      },
    })
    .input(ZPayTypeWrite.extend({ payType: ZSlug }))
    .output(z.object({ payType: z.string(), name: z.string(), enabled: z.boolean(), position: z.number().int() }))
    .mutation(async ({ input, ctx }) => {
      const { payType, ...values } = input;
      await upsertPayType(ctx.db, payType, values, ctx.deps.now());
      return { payType, name: values.name, enabled: values.enabled ?? true, position: values.position ?? 0 };
    }),

  putGoal: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/admin/subscription/goal', tags, protect: true, summary: 'Set the monthly goal' } })
    .input(z.object({ amount: ZMoney, currency: ZCurrency }))
    .output(z.object({ amount: z.number(), currency: z.string() }))
    .mutation(async ({ input, ctx }) => {
      await setGoal(ctx.db, { amountMinor: toMinor(input.amount)!, currency: input.currency }, ctx.deps.now());
      return input;
    }),

  import: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/subscription/import',
        tags,
        protect: true,
        summary: 'Upsert plans with tiers, pay types and the goal in one transaction (the CLI import uses the same code)',
      },
    })
    .input(ZCatalogImport.prefault({}))
    .output(z.object({ plans: z.number().int(), tiers: z.number().int(), payTypes: z.number().int(), goal: z.boolean() }))
    .mutation(({ input, ctx }) => {
      const now = ctx.deps.now();
      return transaction(ctx.db, (tx) => importSubscriptionCatalog(tx, input, now));
    }),
});
