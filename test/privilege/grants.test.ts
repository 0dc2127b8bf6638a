// Privileges (issue 35): grants on both surfaces, what they give through the tree (privilege[] on
// sign-in and user/me), expiry checked at use (no job), suspension, revocation, the log of changes,
// and every error status.
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { suite } from '../support/suite';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
const HOUR = 60 * 60 * 1000;
const REPORT = { title: 'A week', content: { weekly: [] }, startTime: '2026-01-05', endTime: '2026-01-12' };

const Grants = suite<{ app: TTestServer; admin: TUser }>('privileges: grants, the tree, expiry at use, the log');

Grants.before(async (context) => {
  context.app = await startTestServer();
  context.admin = await signUpAdmin(context.app);
});
Grants.after(async ({ app }) => app.stop());

const grant = (app: TTestServer, admin: TUser, body: Record<string, unknown>) =>
  app.rest('POST', '/api/privilege/grant', { token: admin.token, body });
const privilegesOf = async (app: TTestServer, user: TUser) =>
  (await app.rest('GET', '/api/user/me', { token: user.token })).body.data.privilege as string[];
const createReport = (app: TTestServer, user: TUser) =>
  app.rest('POST', '/api/smugglers/reports', { token: user.token, body: REPORT });

Grants(
  'a grant on REST and on tRPC gives its type and those below it, on sign-in and user/me',
  async ({ app, admin }) => {
    const user = await app.signUp();
    assert.equal(await privilegesOf(app, user), []);
    const granted = await grant(app, admin, { userId: user.id, privilegeType: 'smuggler_weekly_report_create' });
    assert.is(granted.status, 200, granted.text);
    assert.equal(
      [
        granted.body.data.privilegeType,
        granted.body.data.status,
        granted.body.data.grantedBy,
        granted.body.data.expiryTime,
      ],
      ['smuggler_weekly_report_create', 'active', admin.id, null],
    );
    // Through the tree: create holds the name the web client's create button looks for.
    assert.equal(await privilegesOf(app, user), ['smuggler_weekly_report_create', 'smugglersReportConnoisseur']);
    const other = await app.signUp();
    const viaTrpc = await app
      .trpc(admin.token)
      .privilege.grant.mutate({ userId: other.id, privilegeType: 'smuggler_weekly_report_ownership' });
    assert.equal([viaTrpc.privilegeType, viaTrpc.status], ['smuggler_weekly_report_ownership', 'active']);
    const signedIn = await app.rest('POST', '/api/user/signin', {
      body: { username: other.username, password: other.password },
    });
    assert.equal(signedIn.body.data.privilege, [
      'smuggler_weekly_report_ownership',
      'smuggler_weekly_report_create',
      'smugglersReportConnoisseur',
      'smuggler_weekly_report_update',
      'smuggler_weekly_report_delete',
      'smuggler_weekly_report_comment_create',
      'smuggler_weekly_report_comment_update',
      'smuggler_weekly_report_comment_delete',
    ]);
    // An admin holds every right by its role, and no account state.
    const adminRights = await privilegesOf(app, admin);
    assert.ok(adminRights.includes('smuggler') && adminRights.includes('smugglersReportConnoisseur'));
    assert.not.ok(adminRights.includes('blacklisted') || adminRights.includes('freezed'));
    // An account reads its own grants, on both surfaces, alike.
    const own = await app.rest('GET', `/api/privilege/user/${other.id}`, { token: other.token });
    assert.equal((own.body as any).privileges, own.body.data.privileges, 'privileges beside the envelope too');
    const ownTrpc = await app.trpc(other.token).privilege.user.query({ userId: other.id, includeInactive: false });
    assert.equal(JSON.parse(JSON.stringify(ownTrpc)), own.body.data);
    const check = await app
      .trpc(other.token)
      .privilege.check.query({ userId: other.id, privilegeType: 'smuggler_weekly_report_delete' });
    assert.is(check.hasPrivilege, true);
  },
);

Grants(
  'expiry is read at use: past it the right stops working, with no job; a new expiry brings it back',
  async ({ app, admin }) => {
    const user = await app.signUp();
    const expiryTime = new Date(app.clock.now().getTime() + HOUR).toISOString();
    const granted = await grant(app, admin, {
      userId: user.id,
      privilegeType: 'smuggler_weekly_report_create',
      expiryTime,
    });
    assert.is(granted.body.data.expiryTime, expiryTime);
    assert.is((await createReport(app, user)).status, 200);
    app.clock.advance(2 * HOUR);
    const refused = await createReport(app, user);
    assert.equal([refused.status, refused.body.data.privilegeType], [403, 'smuggler_weekly_report_create']);
    assert.equal(await privilegesOf(app, user), []);
    const listed = await app.rest('GET', `/api/privilege/user/${user.id}?includeInactive=true`, { token: admin.token });
    assert.equal(
      listed.body.data.privileges.map((p: { status: string }) => p.status),
      ['expired'],
    );
    const inForce = await app.rest('GET', `/api/privilege/user/${user.id}`, { token: admin.token });
    assert.equal(inForce.body.data.privileges, [], 'without includeInactive: grants in force only');
    // A grant again, without an expiry: the one past is not kept.
    const renewed = await grant(app, admin, { userId: user.id, privilegeType: 'smuggler_weekly_report_create' });
    assert.equal([renewed.body.data.status, renewed.body.data.expiryTime], ['active', null]);
    assert.is((await createReport(app, user)).status, 200);
  },
);

Grants(
  'suspend and resume; update-expiry; revoke; the log keeps each change once, in order',
  async ({ app, admin }) => {
    const user = await app.signUp();
    const ref = { userId: user.id, privilegeType: 'smuggler_weekly_report_create' as const };
    await grant(app, admin, ref);
    // The same grant again changes nothing and logs nothing (the web client's save re-grants what is selected).
    await grant(app, admin, ref);
    const suspended = await app.rest('POST', '/api/privilege/suspend', { token: admin.token, body: ref });
    assert.equal([suspended.status, suspended.body.data.status], [200, 'inactive']);
    assert.is((await app.rest('POST', '/api/privilege/suspend', { token: admin.token, body: ref })).status, 200);
    assert.is((await createReport(app, user)).status, 403, 'a suspended grant is not in force');
    const resumed = await app.trpc(admin.token).privilege.suspend.mutate({ ...ref, suspended: false });
    assert.is(resumed.status, 'active');
    assert.is((await createReport(app, user)).status, 200);
    const expiryTime = new Date(app.clock.now().getTime() + 24 * HOUR).toISOString();
    const expiry = await app.rest('POST', '/api/privilege/update-expiry', {
      token: admin.token,
      body: { ...ref, expiryTime },
    });
    assert.is(expiry.body.data.expiryTime, expiryTime);
    const revoked = await app.rest('POST', '/api/privilege/revoke', { token: admin.token, body: ref });
    assert.equal(revoked.body.data, { ...ref, revoked: true });
    assert.is((await createReport(app, user)).status, 403);
    const again = await app.rest('POST', '/api/privilege/revoke', { token: admin.token, body: ref });
    assert.equal(
      [again.status, again.body.message],
      [404, `User ${user.id} has no grant of smuggler_weekly_report_create`],
    );
    const log = await app.rest('GET', `/api/privilege/list?view=log&userId=${user.id}`, { token: admin.token });
    assert.equal(log.body.data.data.map((entry: { action: string }) => entry.action).reverse(), [
      'grant',
      'suspend',
      'resume',
      'expiry',
      'revoke',
    ]);
    assert.ok(log.body.data.data.every((entry: { actorName: string }) => entry.actorName === admin.username));
    const viaTrpc = await app.trpc(admin.token).privilege.list.query({ view: 'log', userId: user.id });
    assert.equal(JSON.parse(JSON.stringify(viaTrpc)), log.body.data);
  },
);

Grants('batch-grant: every account or none', async ({ app, admin }) => {
  const [a, b] = [await app.signUp(), await app.signUp()];
  const unknown = '00000000-0000-4000-8000-000000000001';
  const refused = await app.rest('POST', '/api/privilege/batch-grant', {
    token: admin.token,
    body: { userIds: [a.id, unknown, b.id], privilegeType: 'smuggler' },
  });
  assert.equal([refused.status, refused.body.data.key, refused.body.data.userId], [404, 'user.notFound', unknown]);
  assert.equal(await privilegesOf(app, a), [], 'nothing was granted');
  const granted = await app.rest('POST', '/api/privilege/batch-grant', {
    token: admin.token,
    body: { userIds: [a.id, b.id, a.id], privilegeType: 'smuggler' },
  });
  assert.equal(
    granted.body.data.grants.map((g: { userId: string }) => g.userId),
    [a.id, b.id],
  );
  assert.equal(await privilegesOf(app, b), ['smuggler']);
});

Grants('every error status, alike on REST and on tRPC', async ({ app, admin }) => {
  const user = await app.signUp();
  const cases: [Record<string, unknown>, number, string][] = [
    [{ userId: user.id, privilegeType: 'captain' }, 400, 'privilegeType'],
    [{ userId: user.id, privilegeType: 'smugglersReportConnoisseur' }, 400, 'privilegeType'],
    [{ userId: 'not-a-uuid', privilegeType: 'smuggler' }, 400, 'userId'],
    [{ userId: user.id, privilegeType: 'smuggler', expiryTime: '2020-01-01T00:00:00Z' }, 400, 'expiryTime'],
    [{ userId: user.id, privilegeType: 'smuggler', expiryTime: 'tomorrow' }, 400, 'expiryTime'],
    [{ userId: user.id, privilegeType: 'smuggler', role: 'admin' }, 400, ''],
    [{ userId: '00000000-0000-4000-8000-000000000002', privilegeType: 'smuggler' }, 404, ''],
    [{ userId: admin.id, privilegeType: 'freezed' }, 409, ''],
  ];
  for (const [body, status, field] of cases) {
    const rest = await grant(app, admin, body);
    assert.is(rest.status, status, `${JSON.stringify(body)}: ${rest.text}`);
    if (field)
      assert.ok(
        rest.body.data.issues.some((issue: { path: string }) => issue.path === field),
        rest.text,
      );
    const native = await trpcError(app.trpc(admin.token).privilege.grant.mutate(body as never));
    assert.equal([native.status, native.message], [status, rest.body.message]);
  }
  assert.is(
    (await app.rest('POST', '/api/privilege/grant', { body: { userId: user.id, privilegeType: 'smuggler' } })).status,
    401,
  );
  assert.is((await grant(app, user, { userId: user.id, privilegeType: 'smuggler' })).status, 403);
  const tooMany = await app.rest('POST', '/api/privilege/batch-grant', {
    token: admin.token,
    body: { userIds: Array.from({ length: 101 }, () => user.id), privilegeType: 'smuggler' },
  });
  assert.is(tooMany.status, 400);
  const deep = await app.rest('GET', '/api/privilege/list?page=200&pageSize=100', { token: admin.token });
  assert.is(deep.status, 400, 'past the list window');
  const others = await app.rest('GET', `/api/privilege/user/${admin.id}`, { token: user.token });
  assert.is(others.status, 403, "another account's privileges");
});

Grants(
  'freezing ends the sessions and refuses sign-in; revoking it lets the account in again',
  async ({ app, admin }) => {
    const user = await app.signUp();
    const before = await app.rest('GET', '/api/user/me', { token: user.token });
    assert.is(before.status, 200);
    await grant(app, admin, { userId: user.id, privilegeType: 'freezed' });
    const after = await app.rest('GET', '/api/user/me', { token: user.token });
    assert.equal([after.status, after.body.data.key], [401, 'user.tokenExpired']);
    const body = { username: user.username, password: user.password };
    assert.is((await app.rest('POST', '/api/user/signin', { body })).status, 403);
    await app.rest('POST', '/api/privilege/revoke', {
      token: admin.token,
      body: { userId: user.id, privilegeType: 'freezed' },
    });
    assert.is(
      (await app.rest('GET', '/api/user/me', { token: user.token })).status,
      401,
      'its old sessions were ended',
    );
    assert.is((await app.rest('POST', '/api/user/signin', { body })).status, 200);
  },
);

Grants('list and search: filters, a keyword of the username in any case or the whole id', async ({ app, admin }) => {
  const user = await app.signUp(`Searchable${Date.now() % 100000}`);
  await grant(app, admin, { userId: user.id, privilegeType: 'smuggler' });
  await grant(app, admin, { userId: user.id, privilegeType: 'smuggler_weekly_report_delete' });
  await app.rest('POST', '/api/privilege/suspend', {
    token: admin.token,
    body: { userId: user.id, privilegeType: 'smuggler_weekly_report_delete' },
  });
  const inactive = await app.rest('GET', `/api/privilege/list?status=inactive&userId=${user.id}`, {
    token: admin.token,
  });
  assert.equal(
    inactive.body.data.data.map((g: { privilegeType: string }) => g.privilegeType),
    ['smuggler_weekly_report_delete'],
  );
  assert.is(inactive.body.data.view, 'grants');
  const byName = await app.rest('GET', `/api/privilege/search?keyword=${user.username.slice(0, 8).toUpperCase()}`, {
    token: admin.token,
  });
  assert.ok(byName.body.data.data.every((g: { username: string }) => g.username.startsWith('Searchable')));
  assert.is(byName.body.data.pagination.total, 2);
  const byId = await app.rest('GET', `/api/privilege/search?keyword=${user.id}&privilegeType=smuggler`, {
    token: admin.token,
  });
  assert.equal(
    byId.body.data.data.map((g: { userId: string }) => g.userId),
    [user.id],
  );
  const wildcard = await app.rest('GET', '/api/privilege/search?keyword=%25', { token: admin.token });
  assert.is(wildcard.body.data.pagination.total, 0, '% is a character, not a wildcard');
});

Grants.run();
