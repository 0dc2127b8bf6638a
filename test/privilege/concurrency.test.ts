// Grant while revoking (issue 35): grants, revokes and suspensions of one grant sent together, in one
// tRPC batch and as concurrent REST requests. Each is one transaction (db/transaction.ts), so every
// change that answered 200 and changed something is logged once, the log is a history that could
// have happened one change at a time, and the grant ends as its last entry says.
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { batchClient, statusOf } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { suite } from '../support/suite';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
type TAction = 'grant' | 'revoke' | 'suspend' | 'resume' | 'expiry';
const TYPE = 'smuggler_weekly_report_create' as const;

const Race = suite<{ app: TTestServer; admin: TUser }>('privileges: grant while revoking, per call');

Race.before(async (context) => {
  context.app = await startTestServer();
  context.admin = await signUpAdmin(context.app);
});
Race.after(async ({ app }) => app.stop());

/** Replays the log: each change must have been possible where it stands. The state it leaves: none, active or inactive. */
function replay(actions: TAction[]): 'none' | 'active' | 'inactive' {
  let state: 'none' | 'active' | 'inactive' = 'none';
  for (const action of actions) {
    if (action === 'grant') state = 'active';
    else {
      assert.not.equal(state, 'none', `${action} of a grant that was not there: ${actions.join(', ')}`);
      if (action === 'revoke') state = 'none';
      else if (action === 'suspend') state = 'inactive';
      else if (action === 'resume') state = 'active';
    }
  }
  return state;
}

async function check(app: TTestServer, admin: TUser, user: TUser, revokes: number[]): Promise<void> {
  const log = await app.rest('GET', `/api/privilege/list?view=log&userId=${user.id}&pageSize=100`, {
    token: admin.token,
  });
  const actions = (log.body.data.data as { action: TAction }[]).map((entry) => entry.action).reverse();
  assert.is(
    actions.filter((action) => action === 'revoke').length,
    revokes.filter((status) => status === 200).length,
    'one log entry for each revoke that succeeded',
  );
  const state = replay(actions);
  const grants = await app.rest('GET', `/api/privilege/user/${user.id}?includeInactive=true`, { token: admin.token });
  const status = grants.body.data.privileges[0]?.status ?? 'none';
  assert.is(status, state, `the grant is as its log's last entry says: ${actions.join(', ')}`);
}

Race('in one tRPC batch: grants, revokes and suspensions of one grant', async ({ app, admin }) => {
  for (let round = 0; round < 10; round++) {
    const user = await app.signUp();
    const ref = { userId: user.id, privilegeType: TYPE };
    const { client, sent } = batchClient(app.url, { token: admin.token, maxItems: 10 });
    const calls = Array.from({ length: 10 }, (_, index) => {
      if (index % 3 === 0) return { kind: 'grant', call: client.privilege.grant.mutate(ref) };
      if (index % 3 === 1) return { kind: 'revoke', call: client.privilege.revoke.mutate(ref) };
      return { kind: 'suspend', call: client.privilege.suspend.mutate({ ...ref, suspended: index % 2 === 0 }) };
    });
    const statuses = await Promise.all(calls.map(({ call }) => statusOf(call)));
    assert.is(sent.requests, 1, 'one batch');
    assert.ok(
      statuses.every((status) => status === 200 || status === 404),
      statuses.join(' '),
    );
    await check(
      app,
      admin,
      user,
      statuses.filter((_, index) => calls[index]!.kind === 'revoke'),
    );
  }
});

Race('as concurrent REST requests, and two revokes at once: one 200, one 404', async ({ app, admin }) => {
  for (let round = 0; round < 10; round++) {
    const user = await app.signUp();
    const body = { userId: user.id, privilegeType: TYPE };
    const send = (path: string, extra: Record<string, unknown> = {}) =>
      app
        .rest('POST', `/api/privilege/${path}`, { token: admin.token, body: { ...body, ...extra } })
        .then((r) => r.status);
    const kinds = ['grant', 'revoke', 'grant', 'suspend', 'revoke', 'grant', 'revoke', 'update-expiry'];
    const statuses = await Promise.all(
      kinds.map((kind) => (kind === 'update-expiry' ? send(kind, { expiryTime: null }) : send(kind))),
    );
    assert.ok(
      statuses.every((status) => status === 200 || status === 404),
      statuses.join(' '),
    );
    await check(
      app,
      admin,
      user,
      statuses.filter((_, index) => kinds[index] === 'revoke'),
    );
  }
  const user = await app.signUp();
  const body = { userId: user.id, privilegeType: TYPE };
  await app.rest('POST', '/api/privilege/grant', { token: admin.token, body });
  const both = await Promise.all(
    [0, 1].map(() => app.rest('POST', '/api/privilege/revoke', { token: admin.token, body }).then((r) => r.status)),
  );
  assert.equal(both.sort(), [200, 404]);
});

Race.run();
