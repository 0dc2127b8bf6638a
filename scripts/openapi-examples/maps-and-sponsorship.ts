// The examples of the catalog's, the maps' and the sponsorship's operations.
import {
  MANUAL_SIGNATURE_HEADER,
  manualSecret,
  signManualWebhook,
} from '../../server/domains/subscription/payment/manual';
import { DEMO_SUBSCRIPTION_CATALOG } from '../../server/seed/subscription';
import type { TTestServer } from '../../test/support/helpers';
import { pageOne, type Recorder } from './recorder';

/** The catalog's reads. */
export async function recordCatalog(r: Recorder) {
  await r.call('GET /catalog/hulls', { parameters: { page: 1, pageSize: 2, size: 'medium' } });
  await r.call('GET /catalog/items', { parameters: { page: 1, pageSize: 2, category: 'weapon', type: 'culverin' } });
}

/** Collections and points: reads, writes, nearby search, membership. */
export async function recordMaps(r: Recorder, user: string) {
  const collections = await r.call('GET /map/collections', { token: user, parameters: pageOne });
  const collection = collections.data[0];
  await r.call('GET /map/collections/{uuid}/points', {
    token: user,
    parameters: { uuid: collection.uuid, ...pageOne },
  });
  const created = await r.call('POST /map/collection', {
    token: user,
    body: {
      title: 'Treasure spots',
      description: 'Chests found on the Red Isle coast',
      isPublic: true,
      points: [{ title: 'Saint-Anne', latitude: -12.5, longitude: 48.25, tags: ['chest'] }],
    },
  });
  await r.call('GET /map/collection/{uuid}', { parameters: { uuid: created.uuid } });
  await r.call('PUT /map/collection/{uuid}', {
    token: user,
    parameters: { uuid: created.uuid },
    body: { description: 'Chests and wrecks on the Red Isle coast' },
  });
  const point = await r.call('POST /map/point', {
    token: user,
    body: {
      collectionUuid: created.uuid,
      title: 'Red Isle wreck',
      latitude: -12.75,
      longitude: 48.5,
      address: 'Red Isle, south reef',
      tags: ['wreck'],
      isPublic: true,
    },
  });
  await r.call('GET /map/point/{uuid}', { parameters: { uuid: point.uuid } });
  await r.call('PUT /map/point/{uuid}', {
    token: user,
    parameters: { uuid: point.uuid },
    body: { description: 'Sunk merchant brig; loot respawns daily' },
  });
  await r.call('GET /map/point/nearby', { parameters: { latitude: -12.5, longitude: 48.25, radius: 50, limit: 2 } });
  await r.call('GET /map/user/points', { token: user, parameters: { ...pageOne, collectionUuid: created.uuid } });
  await r.call('DELETE /map/collection/{uuid}/points', {
    token: user,
    parameters: { uuid: created.uuid },
    body: { pointUuids: [point.uuid] },
  });
  await r.call('GET /map/user/orphan-points', { token: user, parameters: pageOne });
  await r.call('POST /map/collection/{uuid}/points', {
    token: user,
    parameters: { uuid: created.uuid },
    body: { pointUuids: [point.uuid] },
  });
  await r.call('DELETE /map/point/{uuid}', { token: user, parameters: { uuid: point.uuid } });
  await r.call('DELETE /map/collection/{uuid}', { token: user, parameters: { uuid: created.uuid } });
}

/** Plans, orders (created, confirmed, cancelled, paid through the webhook) and the admin's sponsorship writes. */
export async function recordSponsorship(r: Recorder, app: TTestServer, user: string, admin: string) {
  const plans = await r.call('GET /subscription/plans');
  const tier = plans.plans[0].tiers[0];
  const payType = plans.payTypes[0].payType;
  await r.call('GET /subscription/progress');
  await r.call('GET /subscription/hall', { parameters: pageOne });
  await r.call('GET /subscription/my-status', { token: user });
  const order = await r.call('POST /subscription/orders/create', {
    token: user,
    body: { tierId: tier.tierId, payType },
  });
  await r.call('GET /subscription/my-orders', { token: user, parameters: pageOne });
  await r.call('GET /admin/subscription/orders/{orderId}', { token: admin, parameters: { orderId: order.orderId } });
  await r.call('POST /admin/subscription/orders/{orderId}/confirm', {
    token: admin,
    parameters: { orderId: order.orderId },
  });
  const second = await app.rest('POST', '/api/subscription/orders/create', {
    token: user,
    body: { tierId: tier.tierId, payType },
  });
  await r.call('POST /subscription/orders/{orderId}/cancel', {
    token: user,
    parameters: { orderId: second.body.data.orderId },
  });
  const third = await app.rest('POST', '/api/subscription/orders/create', {
    token: user,
    body: { tierId: tier.tierId, payType: 'manual' },
  });
  const paid = {
    eventId: 'evt_2026_0001',
    type: 'order.paid',
    orderId: third.body.data.orderId,
    amountMinor: Math.round(tier.price * 100),
    currency: tier.currency,
    reference: 'bank transfer 2026-05-01',
  };
  await r.call('POST /subscription/webhook/{payType}', {
    parameters: { payType: 'manual' },
    body: paid,
    headers: {
      [MANUAL_SIGNATURE_HEADER]: signManualWebhook(manualSecret(app.config), JSON.stringify(paid), app.clock.now()),
    },
  });
  await r.call('GET /subscription/hall-visibility', { token: user });
  await r.call('POST /subscription/hall-visibility', { token: user, body: { visible: true } });
  await r.call('POST /admin/subscription/orders/expire', { token: admin });
  const plan = DEMO_SUBSCRIPTION_CATALOG.plans![0]!;
  await r.call('PUT /admin/subscription/plans/{planId}', {
    token: admin,
    parameters: { planId: plan.planId },
    body: { name: plan.name, description: 'Keeps the servers afloat', position: 0, active: true },
  });
  await r.call('PUT /admin/subscription/tiers/{tierId}', {
    token: admin,
    parameters: { tierId: tier.tierId },
    body: {
      planId: plan.planId,
      name: tier.name,
      price: tier.price,
      currency: tier.currency,
      months: tier.months,
      position: 0,
      active: true,
    },
  });
  await r.call('PUT /admin/subscription/pay-types/{payType}', {
    token: admin,
    parameters: { payType },
    body: { name: plans.payTypes[0].name, enabled: true, position: 0 },
  });
  await r.call('PUT /admin/subscription/goal', { token: admin, body: { amount: 500, currency: 'EUR' } });
  await r.call('POST /admin/subscription/import', { token: admin, body: DEMO_SUBSCRIPTION_CATALOG });
}
