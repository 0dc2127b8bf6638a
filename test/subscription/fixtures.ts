// Shared set-up of the sponsorship route tests (test/subscription/*.test.ts except service.test.ts):
// the suites' test servers and the helpers that sign up admins, import the demo catalog, and create,
// pay and sign orders.
import { createTRPCClient, httpLink } from '@trpc/client';
import superjson from 'superjson';
import * as assert from 'uvu/assert';
import { MANUAL_DEV_SECRET, signManualWebhook } from '../../server/domains/subscription/payment/manual';
import { setRole } from '../../server/domains/user/account';
import type { AppRouter } from '../../server/router';
import { DEMO_SUBSCRIPTION_CATALOG } from '../../server/seed/subscription';
import type { TTestServer } from '../support/helpers';
import { serverSuite } from '../support/server-suite';

export type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

/** Moves the service clock to an exact instant (sessions made before may then be expired: sign in again). */
export function setClock(app: TTestServer, iso: string): void {
  app.clock.offsetMs = Date.parse(iso) - Date.now();
}

export async function makeAdmin(app: TTestServer): Promise<TUser> {
  const admin = await app.signUp();
  assert.ok(await setRole({ db: app.database.db }, { username: admin.username, role: 'admin' }));
  return admin;
}

export async function importCatalog(app: TTestServer, admin: TUser): Promise<void> {
  const response = await app.rest('POST', '/api/admin/subscription/import', {
    token: admin.token,
    body: DEMO_SUBSCRIPTION_CATALOG,
  });
  assert.is(response.status, 200, response.text);
  assert.equal(response.body.data, { plans: 1, tiers: 3, payTypes: 1, goal: true });
}

export async function signIn(app: TTestServer, user: TUser): Promise<TUser> {
  const response = await app.rest('POST', '/api/user/signin', {
    body: { username: user.username, password: user.password },
  });
  assert.is(response.status, 200, response.text);
  return { ...user, token: response.body.data.token };
}

export function createOrder(app: TTestServer, token: string, body: Record<string, unknown>, key?: string) {
  return app.rest('POST', '/api/subscription/orders/create', {
    token,
    body,
    headers: key ? { 'idempotency-key': key } : {},
  });
}

export async function paidOrder(app: TTestServer, user: TUser, admin: TUser, tierId: string) {
  const created = await createOrder(app, user.token, { tierId, payType: 'manual' });
  assert.is(created.status, 200, created.text);
  const confirmed = await app.rest('POST', `/api/admin/subscription/orders/${created.body.data.orderId}/confirm`, {
    token: admin.token,
  });
  assert.is(confirmed.status, 200, confirmed.text);
  return confirmed.body.data as { order: any; alreadyPaid: boolean; membershipExpiry: string };
}

export function postWebhook(
  app: TTestServer,
  payType: string,
  event: unknown,
  options: { at?: Date; secret?: string; signature?: string | null } = {},
) {
  const raw = JSON.stringify(event);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signature =
    options.signature === undefined
      ? signManualWebhook(options.secret ?? MANUAL_DEV_SECRET, raw, options.at ?? app.clock.now())
      : options.signature;
  if (signature !== null) headers['x-tidewatch-signature'] = signature;
  return app.rest('POST', `/api/subscription/webhook/${payType}`, { rawBody: raw, headers });
}

export function clientWithKey(app: TTestServer, token: string, key: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${app.url}/trpc`,
        transformer: superjson,
        headers: () => ({ authorization: `Bearer ${token}`, 'idempotency-key': key }),
      }),
    ],
  });
}

/** A suite of the order tests: the clock at 2027-03-10 noon, an admin, the demo catalog, alice and bob. */
export function ordersSuite(name: string) {
  return serverSuite<{ admin: TUser; alice: TUser; bob: TUser }>(name, {
    setUp: async (context) => {
      setClock(context.app, '2027-03-10T12:00:00.000Z');
      context.admin = await makeAdmin(context.app);
      await importCatalog(context.app, context.admin);
      context.alice = await context.app.signUp();
      context.bob = await context.app.signUp();
    },
  });
}
