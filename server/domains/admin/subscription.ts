import { transaction } from '../../../db/transaction';
import { ZNoInput } from '../../schemas';
import {
  confirmOrder,
  expirePendingOrders,
  getOrder,
  importSubscriptionCatalog,
  setGoal,
  toMinor,
  upsertPayType,
  upsertPlan,
  upsertTier,
} from '../subscription';
import { adminProcedure, router } from '../../trpc';
import {
  ZAdminOrder,
  ZCatalogImport,
  ZConfirmation,
  ZExpired,
  ZGoalResult,
  ZGoalWrite,
  ZImportCounts,
  ZOrderRef,
  ZPutPayType,
  ZPutPayTypeResult,
  ZPutPlan,
  ZPutPlanResult,
  ZPutTier,
  ZPutTierResult,
} from '../subscription/schemas';

const tags = ['admin', 'subscription'];

/** Plans, tiers, pay types and the goal are data, edited here; orders can be confirmed by hand. */
export const subscriptionAdminRouter = router({
  getOrder: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/subscription/orders/{orderId}',
        tags,
        protect: true,
        summary: 'Any order, with its owner',
      },
    })
    .input(ZOrderRef)
    .output(ZAdminOrder)
    .query(({ input, ctx }) => getOrder(ctx.deps, { orderId: input.orderId })),

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
    .input(ZOrderRef)
    .output(ZConfirmation)
    .mutation(({ input, ctx }) => confirmOrder(ctx.deps, { orderId: input.orderId, by: 'admin' })),

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
    .output(ZExpired)
    .mutation(async ({ ctx }) => ({ expired: await expirePendingOrders(ctx.deps) })),

  putPlan: adminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/admin/subscription/plans/{planId}',
        tags,
        protect: true,
        summary: 'Create or replace a plan',
      },
    })
    .input(ZPutPlan)
    .output(ZPutPlanResult)
    .mutation(async ({ input, ctx }) => {
      const { planId, ...plan } = input;
      await upsertPlan(ctx.deps, input);
      return {
        planId,
        name: plan.name,
        description: plan.description ?? null,
        position: plan.position ?? 0,
        active: plan.active ?? true,
      };
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
    .input(ZPutTier)
    .output(ZPutTierResult)
    .mutation(async ({ input, ctx }) => {
      const { tierId, price, ...tier } = input;
      await upsertTier(ctx.deps, { ...tier, tierId, priceMinor: toMinor(price)! });
      return {
        tierId,
        ...tier,
        price,
        description: tier.description ?? null,
        position: tier.position ?? 0,
        active: tier.active ?? true,
      };
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
    .input(ZPutPayType)
    .output(ZPutPayTypeResult)
    .mutation(async ({ input, ctx }) => {
      const { payType, ...values } = input;
      await upsertPayType(ctx.deps, input);
      return { payType, name: values.name, enabled: values.enabled ?? true, position: values.position ?? 0 };
    }),

  putGoal: adminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/admin/subscription/goal',
        tags,
        protect: true,
        summary: 'Set the monthly goal',
      },
    })
    .input(ZGoalWrite)
    .output(ZGoalResult)
    .mutation(async ({ input, ctx }) => {
      await setGoal(ctx.deps, { amountMinor: toMinor(input.amount)!, currency: input.currency });
      return input;
    }),

  import: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/subscription/import',
        tags,
        protect: true,
        summary:
          'Upsert plans with tiers, pay types and the goal in one transaction (the CLI import uses the same code)',
      },
    })
    .input(ZCatalogImport.prefault({}))
    .output(ZImportCounts)
    .mutation(({ input, ctx }) =>
      transaction(ctx.db, (tx) => importSubscriptionCatalog({ ...ctx.deps, db: tx }, input)),
    ),
});
