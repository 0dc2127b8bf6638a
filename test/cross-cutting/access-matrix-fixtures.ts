// Shared set-up of the access matrix suites (access-matrix.test.ts, access-matrix-document.test.ts,
// access-matrix-credentials.test.ts): a test server with its OpenAPI document's operations, the demo
// catalog and plans, an owner, a stranger and an admin, the owner's resources (and a twin set for the
// tRPC twins) and an expired session of the owner's.
import * as assert from 'uvu/assert';
import { sessions } from '../../db/schema';
import { setRole } from '../../server/domains/user/account';
import { generateSessionToken, sessionIdFromToken } from '../../server/domains/user/session';
import { readDemoCatalog } from '../../server/seed/assemblies';
import { DEMO_SUBSCRIPTION_CATALOG } from '../../server/seed/subscription';
import { createOwned, type TFixtures, type TOperation } from '../support/access-matrix';
import { documentOperations } from '../support/openapi-operations';
import { serverSuite } from '../support/server-suite';
import { TrpcSurface } from '../support/surface-trpc';

/** A suite of the access matrix's tests, on REST and native tRPC; prints how many tRPC calls it made in how many requests. */
export function accessMatrixSuite(name: string) {
  const tests = serverSuite<{
    trpc: TrpcSurface;
    operations: TOperation[];
    fixtures: TFixtures;
    expiredToken: string;
  }>(name, {
    setUp: async (context) => {
      const { app } = context;
      context.trpc = new TrpcSurface(app);
      context.operations = documentOperations((await app.rest('GET', '/api/openapi.json')).body);

      const owner = await app.signUp();
      const stranger = await app.signUp();
      const admin = await app.signUp();
      await setRole({ db: app.database.db }, { username: admin.username, role: 'admin' });
      const catalog = await app.rest('POST', '/api/admin/catalog/import', {
        token: admin.token,
        body: readDemoCatalog() as Record<string, unknown>,
      });
      assert.is(catalog.status, 200, catalog.text);

      const plansImport = await app.rest('POST', '/api/admin/subscription/import', {
        token: admin.token,
        body: DEMO_SUBSCRIPTION_CATALOG as unknown as Record<string, unknown>,
      });
      assert.is(plansImport.status, 200, plansImport.text);
      const plans = await app.rest('GET', '/api/subscription/plans');
      const tierId = plans.body.data.plans?.[0]?.tiers?.[0]?.tierId ?? plans.body.data.tiers?.[0]?.tierId;
      const payType = plans.body.data.payTypes?.[0]?.payType ?? plans.body.data.payTypes?.[0]?.id ?? 'manual';
      context.fixtures = {
        owner,
        stranger,
        admin,
        ...(await createOwned(app, owner, { tierId, payType })),
        twin: await createOwned(app, owner, { tierId, payType }),
      };

      // An expired session of a real account, written as the service would have written it a month ago.
      context.expiredToken = generateSessionToken();
      const longAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
      await app.database.db.insert(sessions).values({
        id: sessionIdFromToken(context.expiredToken),
        userId: owner.id,
        expiresAt: new Date(longAgo.getTime() + 1000),
        createdAt: longAgo,
      });
    },
  });
  tests.after(({ trpc }) => {
    console.log(`      access matrix on tRPC: ${trpc.calls} calls in ${trpc.requests} HTTP requests`);
  });
  return tests;
}
