/**
 * The shared set-up of the hostile-input suites (hostile-input*.test.ts): a test server with the
 * demo catalog, a published assembly, a map collection and point, a user and an admin, the endpoints
 * of the OpenAPI document, and the tally of what was sent. The values fuzzed are in
 * hostile-input-values.ts, sending them in hostile-input-sending.ts, the database digest in
 * hostile-input-digest.ts.
 */
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { setRole } from '../../server/domains/user/account';
import { readDemoCatalog } from '../../server/seed/assemblies';
import { DEMO_SUBSCRIPTION_CATALOG } from '../../server/seed/subscription';
import { startTestServer, type TTestServer } from '../support/helpers';
import { documentOperations, type TDocumentOperation } from '../support/openapi-operations';
import { skippedUnderSqld } from '../support/sqld';
import { suite } from '../support/suite';
import { TrpcSurface } from '../support/surface-trpc';
import type { TSurface } from '../support/surfaces';
import { fingerprint } from './hostile-input-digest';

interface TTally {
  inputs: number;
  requests: Record<TSurface, number>;
  refusedWrites: Record<TSurface, number>;
  endpoints: number;
}

export type TOperation = TDocumentOperation;

export interface THostile {
  app: TTestServer;
  trpc: TrpcSurface;
  operations: TOperation[];
  userToken: string;
  adminToken: string;
  tally: TTally;
}

/**
 * A suite of hostile inputs: its own test server, set up as above, stopped after it with a tally of
 * what was sent. Its `run` skips the suite under TEST_DATABASE=sqld: its database digest after every
 * fuzzed write is ~40 queries; over HTTP that is 100,000+ round trips.
 */
export function hostileSuite(name: string) {
  const hostile = suite<THostile>(name);
  hostile.before(async (context) => {
    const app = await startTestServer();
    context.app = app;
    context.trpc = new TrpcSurface(app);
    // Importing the community data set (accepted for an empty body) makes the database about forty times
    // larger (its codex and catalog), and the digest after every write reads all of it: fuzzed last, so
    // the writes before it are checked against a small database.
    const operations = documentOperations((await app.rest('GET', '/api/openapi.json')).body);
    const growsTheDatabase = (operation: TOperation) => operation.key === 'POST /admin/community-data/import';
    context.operations = [
      ...operations.filter((operation) => !growsTheDatabase(operation)),
      ...operations.filter(growsTheDatabase),
    ];
    const user = await app.signUp();
    const admin = await app.signUp();
    await setRole({ db: app.database.db }, { username: admin.username, role: 'admin' });
    context.userToken = user.token;
    context.adminToken = admin.token;
    await app.rest('POST', '/api/admin/catalog/import', {
      token: admin.token,
      body: readDemoCatalog() as Record<string, unknown>,
    });
    await app.rest('POST', '/api/admin/subscription/import', {
      token: admin.token,
      body: DEMO_SUBSCRIPTION_CATALOG as unknown as Record<string, unknown>,
    });
    await app.rest('POST', '/api/assembly/publish', {
      token: user.token,
      body: { name: 'Fuzz target', shipId: 'cutter', weapons: [{ slot: 'frontWeapon', itemId: 'culverin1' }] },
    });
    // The digest sees a write, down to one field of one row, and only the content counts: the checks
    // of refused writes (WriteWatch) rest on it.
    const before = await fingerprint(app);
    await app.rest('POST', '/api/map/collection', { token: user.token, body: { title: 'Fuzz map' } });
    const after = await fingerprint(app);
    assert.is.not(after, before, 'a write changes the digest');
    await app.database.db.run(sql`update map_collections set title = 'Fuzz map!' where title = 'Fuzz map'`);
    assert.is.not(await fingerprint(app), after, 'one field of one row');
    await app.database.db.run(sql`update map_collections set title = 'Fuzz map' where title = 'Fuzz map!'`);
    assert.is(await fingerprint(app), after, 'the same content, the same digest');
    await app.rest('POST', '/api/map/point', {
      token: user.token,
      body: { title: 'Fuzz point', latitude: 0.6, longitude: -0.6, public: 1 },
    });
    context.tally = { inputs: 0, requests: { REST: 0, tRPC: 0 }, refusedWrites: { REST: 0, tRPC: 0 }, endpoints: 0 };
  });
  hostile.after(async ({ app, trpc, tally }) => {
    console.log(
      `      hostile input: ${tally.endpoints} endpoints, ${tally.inputs} inputs; REST ${tally.requests.REST} requests, ` +
        `tRPC ${tally.requests.tRPC} calls in ${trpc.requests} HTTP requests (${trpc.rawCalls} as raw wire requests: inputs the superjson client refuses); ` +
        `refused writes verified to change nothing: ` +
        `REST ${tally.refusedWrites.REST}, tRPC ${tally.refusedWrites.tRPC}`,
    );
    await app.stop();
  });
  const runSuite = hostile.run;
  return Object.assign(hostile, {
    run: () => {
      const reason =
        'its database digest after every fuzzed write is ~40 queries; over HTTP that is 100,000+ round trips (the suite runs on both file drivers)';
      if (!skippedUnderSqld(name, reason)) runSuite();
    },
  });
}
