// Client replay (issue 35): every call of src/assets/sripts/api/privilege_service.ts, sent as the client
// sends it (test/web-client/client-request.ts) against a server with the demo data, in the order
// src/views/user/admin/PrivilegeManagement.vue makes them, asserting each field the page reads. The
// service's calls no page makes are replayed too, with the fields their answers hold.
import * as assert from 'uvu/assert';
import { suite } from '../support/suite';
import { send, signIn, startDemoClient, type TDemoClient } from './client-request';

const Client = suite<TDemoClient>('web client: privilege management (privilege_service.ts)');

Client.before(startDemoClient);
Client.after(async ({ app }) => app.stop());

Client(
  "PrivilegeManagement.vue's save (:439-477): batch-grant smuggler, grant each type chosen, reload",
  async ({ app, captain, deckhandId }) => {
    // PrivilegeManagement.vue:457 → privilege_service.ts:119 `http.post('privilege/batch-grant', {data})`; the page reads nothing.
    const batch = await send(app, 'POST', 'privilege/batch-grant', {
      token: captain,
      data: { userIds: [deckhandId], privilegeType: 'smuggler' },
    });
    assert.is(batch.status, 200, batch.text);
    assert.equal(
      batch.body.data.grants.map((g: { privilegeType: string }) => g.privilegeType),
      ['smuggler'],
    );
    // :464 → privilege_service.ts:20 `http.post('privilege/grant', {data})`, once per type chosen.
    for (const privilegeType of ['smuggler_weekly_report_comment_create', 'smuggler_weekly_report_comment_update']) {
      const granted = await send(app, 'POST', 'privilege/grant', {
        token: captain,
        data: { userId: deckhandId, privilegeType },
      });
      assert.is(granted.status, 200, granted.text);
    }
    // A save again re-grants what is selected: nothing changes, nothing is logged twice.
    await send(app, 'POST', 'privilege/batch-grant', {
      token: captain,
      data: { userIds: [deckhandId], privilegeType: 'smuggler' },
    });
    // :471 loadUserPrivileges → :510 → privilege_service.ts:69 `http.get('privilege/user/${userId}', {params: {includeInactive: true}})`;
    // :513 `currentUserPrivileges.value = result.data.privileges` (the body's top level), then :516-518 reads
    // status and privilegeType, :268-278 and :604-619 privilegeType and expiryTime.
    const loaded = await send(app, 'GET', `privilege/user/${deckhandId}`, {
      token: captain,
      params: { includeInactive: true },
    });
    assert.is(loaded.status, 200, loaded.text);
    const privileges = loaded.body.privileges as { privilegeType: string; status: string; expiryTime: string | null }[];
    assert.equal(
      privileges.map((p) => [p.privilegeType, p.status, p.expiryTime]),
      [
        ['smuggler', 'active', null],
        ['smuggler_weekly_report_comment_create', 'active', null],
        ['smuggler_weekly_report_comment_update', 'active', null],
      ],
    );
    const log = await send(app, 'GET', 'privilege/list', {
      token: captain,
      params: { view: 'log', userId: deckhandId },
    });
    assert.is(log.body.data.pagination.total, 3, 'three changes, each once');
  },
);

Client(
  "PrivilegeManagement.vue's batch revoke (:560-587): revoke each selected type",
  async ({ app, captain, deckhandId }) => {
    // :572 → privilege_service.ts:36 `http.post('privilege/revoke', {data})`.
    const revoked = await send(app, 'POST', 'privilege/revoke', {
      token: captain,
      data: { userId: deckhandId, privilegeType: 'smuggler_weekly_report_comment_update' },
    });
    assert.is(revoked.status, 200, revoked.text);
    // :524-558 batchGrant grants each selected type again (:544 → privilege_service.ts:20).
    const regranted = await send(app, 'POST', 'privilege/grant', {
      token: captain,
      data: { userId: deckhandId, privilegeType: 'smuggler_weekly_report_comment_update' },
    });
    assert.is(regranted.status, 200);
    // Only admins manage privileges: the same page as deckhand is a 403.
    const deckhand = await signIn(app, 'deckhand');
    const refused = await send(app, 'POST', 'privilege/grant', {
      token: deckhand,
      data: { userId: deckhandId, privilegeType: 'smuggler_weekly_report_ownership' },
    });
    assert.equal([refused.status, refused.body.code], [403, 403]);
  },
);

Client(
  "privilege_service.ts's other calls (no page makes them): suspend, check, types, update-expiry, list, search, export",
  async ({ app, captain, deckhandId }) => {
    const ref = { userId: deckhandId, privilegeType: 'smuggler_weekly_report_comment_update' };
    // privilege_service.ts:52 `http.post('privilege/suspend', {data})`: the status PrivilegeManagement.vue:598 colours as inactive.
    const suspended = await send(app, 'POST', 'privilege/suspend', { token: captain, data: ref });
    assert.is(suspended.body.data.status, 'inactive');
    // :88 `http.get('privilege/check/${userId}/${privilegeType}')`.
    const check = await send(app, 'GET', `privilege/check/${deckhandId}/smuggler_weekly_report_comment_create`, {
      token: captain,
    });
    assert.equal([check.body.data.hasPrivilege, check.body.data.userId], [true, deckhandId]);
    // :103 `http.get('privilege/types')`: the tree the page hard-codes (:633-647), smuggler among the roots.
    const types = await send(app, 'GET', 'privilege/types');
    const byType = new Map(types.body.data.types.map((t: { type: string }) => [t.type, t]));
    assert.equal((byType.get('smuggler_weekly_report_ownership') as { children: string[] }).children, [
      'smuggler_weekly_report_create',
      'smuggler_weekly_report_update',
      'smuggler_weekly_report_delete',
      'smuggler_weekly_report_comment_create',
      'smuggler_weekly_report_comment_update',
      'smuggler_weekly_report_comment_delete',
    ]);
    assert.ok(byType.has('smuggler') && byType.has('blacklisted') && byType.has('freezed'));
    // :135 `http.post('privilege/update-expiry', {data})`: the expiryTime the page reads (:606).
    const expiryTime = new Date(app.clock.now().getTime() + 3 * 24 * 3600 * 1000).toISOString();
    const expiry = await send(app, 'POST', 'privilege/update-expiry', { token: captain, data: { ...ref, expiryTime } });
    assert.is(expiry.body.data.expiryTime, expiryTime);
    // :155 `http.get('privilege/list', {params})` with PaginationParams and userId, privilegeType, status.
    const list = await send(app, 'GET', 'privilege/list', {
      token: captain,
      params: { page: 1, pageSize: 10, userId: deckhandId, privilegeType: undefined, status: 'inactive' },
    });
    assert.equal(
      list.body.data.data.map((g: { privilegeType: string }) => g.privilegeType),
      [ref.privilegeType],
    );
    // :175 `http.get('privilege/search', {params: {keyword, privilegeType, ...params}})`.
    const search = await send(app, 'GET', 'privilege/search', {
      token: captain,
      params: { keyword: 'DECK', privilegeType: 'smuggler', page: 1, pageSize: 10 },
    });
    assert.equal(
      search.body.data.data.map((g: { username: string }) => g.username),
      ['deckhand'],
    );
    // :197 `http.get('privilege/export', {params})`: the body is the file (handleResponse hands it on as result.data).
    const exported = await send(app, 'GET', 'privilege/export', {
      token: captain,
      params: { format: 'json', userId: deckhandId },
    });
    assert.is(exported.status, 200);
    assert.is(exported.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(JSON.parse(exported.text).length, 3);
  },
);

Client(
  'smugglersReport.vue:371: the create button shows for the privilege the quartermaster holds',
  async ({ app }) => {
    // `authStore.checkPrivilegeGroup(authStore.user?.privilege, ['smugglersReportConnoisseur', 'admin', 'super', 'dev'])`,
    // `privilege` of the signed-in account (user_service.ts:22 sign-in, stored by stores/userAccountStore.ts:31-40).
    const signedIn = await send(app, 'POST', 'user/signin', {
      data: { username: 'quartermaster', password: 'tidewatch-demo' },
    });
    assert.ok(signedIn.body.data.privilege.includes('smugglersReportConnoisseur'), signedIn.text);
    const deckhand = await send(app, 'POST', 'user/signin', {
      data: { username: 'deckhand', password: 'tidewatch-demo' },
    });
    assert.not.ok(deckhand.body.data.privilege.includes('smugglersReportConnoisseur'));
  },
);

Client.run();
