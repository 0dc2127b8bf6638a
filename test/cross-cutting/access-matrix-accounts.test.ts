/**
 * The access matrix's rows of account states (issue 35), over every endpoint of the OpenAPI document,
 * on REST and on its procedure over native tRPC (batched, as a front end sends calls): a blacklisted
 * account's every write is a 403 (data.key user.blacklisted) and none of its reads is; a frozen
 * account's token works nowhere (401, as an invalid one) and it cannot sign in (403 user.frozen).
 * One check does it all (the base procedures of server/trpc.ts), so an endpoint added later is held
 * to it without a line here.
 */
import * as assert from 'uvu/assert';
import { privilegeGrants } from '../../db/schema';
import { startTestServer, type TTestServer } from '../support/helpers';
import { trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { documentOperations, type TDocumentOperation } from '../support/openapi-operations';
import { differences, Findings } from '../support/surface-compare';
import { TrpcSurface } from '../support/surface-trpc';
import { procedureOf, restCall } from '../support/surfaces';
import { suite } from '../support/suite';

const PLACEHOLDER = '00000000-0000-4000-8000-000000000000';
type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

const Matrix = suite<{
  app: TTestServer;
  trpc: TrpcSurface;
  operations: TDocumentOperation[];
  blacklisted: TUser;
  frozen: TUser;
}>('access matrix: account states on every endpoint, on REST and native tRPC');

async function giveState(app: TTestServer, user: TUser, type: 'blacklisted' | 'freezed', by: TUser): Promise<void> {
  await app.database.db
    .insert(privilegeGrants)
    .values({ userId: user.id, type, grantedBy: by.id, grantedAt: app.clock.now() })
    .run();
}

Matrix.before(async (context) => {
  const app = await startTestServer();
  context.app = app;
  context.trpc = new TrpcSurface(app);
  context.operations = documentOperations((await app.rest('GET', '/api/openapi.json')).body);
  const admin = await signUpAdmin(app);
  context.blacklisted = await app.signUp();
  context.frozen = await app.signUp();
  // Written straight to the table: the sessions stay, so the check at use is what refuses them.
  await giveState(app, context.blacklisted, 'blacklisted', admin);
  await giveState(app, context.frozen, 'freezed', admin);
});
Matrix.after(async ({ app }) => app.stop());

Matrix(
  'a blacklisted account: every write but signing out is a 403 user.blacklisted, no read is, alike on REST and on tRPC',
  async ({ app, trpc, operations: all, blacklisted }) => {
    const findings = new Findings();
    // Signing out ends the session the other calls need: it is asked last, below.
    const operations = all.filter((operation) => operation.key !== 'POST /user/signout');
    const writes = operations.filter((operation) => procedureOf(operation).type === 'mutation');
    const reads = operations.filter((operation) => procedureOf(operation).type === 'query');
    assert.ok(writes.length >= 40, `${writes.length} writes`);
    const twins = await Promise.all(
      operations.map((operation) => trpc.call(operation, blacklisted.token, {}, PLACEHOLDER, 'httpBatchLink')),
    );
    for (const [index, operation] of operations.entries()) {
      const response = await restCall(app, operation, blacklisted.token, {}, PLACEHOLDER);
      const refused = response.status === 403 && (response.data as { key?: string })?.key === 'user.blacklisted';
      if (writes.includes(operation))
        findings.expect(refused, `${operation.key} on REST`, `${response.status} ${response.text.slice(0, 160)}`);
      else findings.expect(!refused, `${operation.key} (a read) on REST`, 'refused as a write');
      findings.add(`${operation.key}, tRPC vs REST`, differences(response, twins[index]!, { data: 'skip' }));
    }
    findings.assertNone();
    console.log(`      ${writes.length} writes refused, ${reads.length} reads answered, on each surface`);
    // It may still end its session, on either surface.
    const signin = { username: blacklisted.username, password: blacklisted.password };
    const second = (await app.rest('POST', '/api/user/signin', { body: signin })).body.data.token as string;
    assert.equal(await app.trpc(second).user.signout.mutate(), {});
    assert.is((await app.rest('GET', '/api/user/me', { token: second })).status, 401);
    const signout = await app.rest('POST', '/api/user/signout', { token: blacklisted.token });
    assert.is(signout.status, 200, signout.text);
    assert.is((await app.rest('GET', '/api/user/me', { token: blacklisted.token })).status, 401);
  },
);

Matrix(
  'a frozen account: its token is refused on every token endpoint (401), alike on REST and on tRPC',
  async ({ app, trpc, operations, frozen }) => {
    const findings = new Findings();
    const secured = operations.filter((operation) => operation.secured);
    const twins = await Promise.all(
      secured.map((operation) => trpc.call(operation, frozen.token, {}, PLACEHOLDER, 'httpBatchLink')),
    );
    for (const [index, operation] of secured.entries()) {
      const response = await restCall(app, operation, frozen.token, {}, PLACEHOLDER);
      findings.expect(
        response.status === 401 && (response.data as { key?: string })?.key === 'user.tokenExpired',
        `${operation.key} on REST`,
        `${response.status} ${response.text.slice(0, 160)}`,
      );
      findings.add(`${operation.key}, tRPC vs REST`, differences(response, twins[index]!));
    }
    findings.assertNone();
  },
);

Matrix('a frozen account cannot sign in: 403 user.frozen, once its password is right', async ({ app, frozen }) => {
  const body = { username: frozen.username, password: frozen.password };
  const rest = await app.rest('POST', '/api/user/signin', { body });
  assert.equal([rest.status, rest.body.data.key], [403, 'user.frozen']);
  const native = await trpcError(app.trpc().user.signin.mutate(body));
  assert.equal([native.status, native.data.key, native.message], [403, 'user.frozen', rest.body.message]);
  // A wrong password says nothing of the state.
  const wrong = await app.rest('POST', '/api/user/signin', { body: { ...body, password: 'not the password' } });
  assert.equal([wrong.status, wrong.body.data.key], [401, 'signin.wrong']);
});

Matrix.run();
