import { AppError } from '../../../errors';
import { ZNoInput } from '../../../schemas';
import { listMyOrders } from '../order-reads';
import { cancelOrder, createOrder } from '../orders';
import { getHallVisibility, getMyStatus, setHallVisibility } from '../stats';
import { authedProcedure } from '../../../trpc';
import {
  ZCreateOrderInput,
  ZMyOrders,
  ZMyStatus,
  ZOrder,
  ZOrderRef,
  ZPageQuery,
  ZVisibility,
  ZVisibilityInput,
} from '../schemas';

/** Printable ASCII, as Stripe and the IETF Idempotency-Key draft use; UUIDs fit. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw new AppError(
      'BAD_REQUEST',
      'Invalid Idempotency-Key header: 1-255 printable ASCII characters without spaces',
      {
        issues: [{ path: 'Idempotency-Key', message: 'must be 1-255 printable ASCII characters without spaces' }],
      },
    );
  }
  return value;
}

export const myStatus = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/subscription/my-status',
      tags: ['subscription'],
      protect: true,
      summary: 'Membership expiry per tier id',
      description:
        'data maps each tier id the account ever held to { expiryTime }; a past expiryTime means the membership lapsed.',
    },
  })
  .input(ZNoInput)
  .output(ZMyStatus)
  .query(({ ctx }) => getMyStatus(ctx.deps, { userId: ctx.user.id }));

export const myOrders = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/subscription/my-orders',
      tags: ['subscription'],
      protect: true,
      summary: 'Own orders: payable ones first (nearest deadline first), then the rest, newest first',
    },
  })
  .input(ZPageQuery)
  .output(ZMyOrders)
  .query(({ input, ctx }) =>
    listMyOrders(ctx.deps, { userId: ctx.user.id, page: input.page, pageSize: input.pageSize }),
  );

export const createOrderProcedure = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/subscription/orders/create',
      tags: ['subscription'],
      protect: true,
      summary: 'Create a pending order for a tier',
      description:
        'Pay within 30 minutes at paymentUrl. Send an Idempotency-Key header to make retries safe: the same key returns the same order ' +
        '(with Idempotent-Replayed: true); the same key with a different tierId or payType is a 422. Unknown tierId or payType: 400. ' +
        'More than 5 unexpired pending orders: 409.',
    },
  })
  .input(ZCreateOrderInput)
  .output(ZOrder)
  .mutation(async ({ input, ctx }) => {
    await ctx.deps.limits.orderCreate.hit(ctx.user.id);
    const idempotencyKey = idempotencyKeyOf(ctx.request.headers);
    const { order, replayed } = await createOrder(ctx.deps, { ...input, userId: ctx.user.id, idempotencyKey });
    if (replayed) ctx.responseHeaders['idempotent-replayed'] = 'true';
    return order;
  });

export const cancelOrderProcedure = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/subscription/orders/{orderId}/cancel',
      tags: ['subscription'],
      protect: true,
      summary: 'Cancel an own pending order',
      description: "Not pending (paid, cancelled, expired): 409. Someone else's order: 404.",
    },
  })
  .input(ZOrderRef)
  .output(ZOrder)
  .mutation(({ input, ctx }) => cancelOrder(ctx.deps, { userId: ctx.user.id, orderId: input.orderId }));

export const hallVisibility = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/subscription/hall-visibility',
      tags: ['subscription'],
      protect: true,
      summary: 'Whether the caller is listed in the hall',
    },
  })
  .input(ZNoInput)
  .output(ZVisibility)
  .query(async ({ ctx }) => ({ visible: await getHallVisibility(ctx.deps, { userId: ctx.user.id }) }));

export const setHallVisibilityProcedure = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/subscription/hall-visibility',
      tags: ['subscription'],
      protect: true,
      summary: 'Opt out of (visible: false) or back into the donor hall',
    },
  })
  .input(ZVisibilityInput)
  .output(ZVisibility)
  .mutation(async ({ input, ctx }) => ({
    visible: await setHallVisibility(ctx.deps, { userId: ctx.user.id, visible: input.visible }),
  }));
