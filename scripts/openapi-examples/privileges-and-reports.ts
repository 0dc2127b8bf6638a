// The examples of privileges and the smugglers' weekly reports (issue 35): the admin grants the
// deckhand the comment rights, the quartermaster (who holds every right over the reports) writes,
// publishes and archives a report and reads the lists, the deckhand comments; the changes of the
// grant, the list, search and export; deletions last.
import type { Recorder } from './recorder';

const COMMENT_RIGHTS = [
  'smuggler_weekly_report_comment_create',
  'smuggler_weekly_report_comment_update',
  'smuggler_weekly_report_comment_delete',
];

export async function recordPrivileges(r: Recorder, admin: string, user: string, quartermaster: string) {
  await r.call('GET /privilege/types');
  const me = await r.call('GET /user/me', { token: user });
  await r.call('POST /privilege/batch-grant', {
    token: admin,
    body: { userIds: [me.userId], privilegeType: 'smuggler' },
  });
  for (const privilegeType of COMMENT_RIGHTS)
    await r.call('POST /privilege/grant', { token: admin, body: { userId: me.userId, privilegeType } });
  const ref = { userId: me.userId, privilegeType: 'smuggler_weekly_report_comment_update' };
  await r.call('POST /privilege/update-expiry', {
    token: admin,
    body: { ...ref, expiryTime: '2026-06-01T00:00:00.000Z' },
  });
  await r.call('GET /privilege/user/{userId}', {
    token: admin,
    parameters: { userId: me.userId, includeInactive: true },
  });
  await r.call('GET /privilege/check/{userId}/{privilegeType}', {
    token: user,
    parameters: { userId: me.userId, privilegeType: 'smuggler_weekly_report_comment_create' },
  });
  await r.call('GET /privilege/list', {
    token: admin,
    parameters: { view: 'grants', privilegeType: 'smuggler', status: 'active', page: 1, pageSize: 2 },
  });
  await r.otherParameters('GET /privilege/list', { token: admin, parameters: { userId: me.userId } });
  await r.call('GET /privilege/search', {
    token: admin,
    parameters: { keyword: 'deck', privilegeType: 'smuggler', page: 1, pageSize: 2 },
  });
  await r.call('GET /privilege/export', {
    token: admin,
    parameters: { format: 'csv', view: 'grants', userId: me.userId, privilegeType: 'smuggler', status: 'active' },
    raw: true,
  });
  await recordReports(r, user, quartermaster);
  await r.call('POST /privilege/suspend', { token: admin, body: { ...ref, suspended: true } });
  await r.call('POST /privilege/revoke', { token: admin, body: ref });
}

async function recordReports(r: Recorder, user: string, quartermaster: string) {
  await r.call('POST /smugglers/privileges/check', {
    token: quartermaster,
    body: { privileges: ['smuggler_weekly_report_ownership', 'smuggler_weekly_report_create'] },
  });
  await r.call('GET /smugglers/reports/byTime', { parameters: { date: '2026-05-01T12:00:00.000Z' } });
  const report = await r.call('POST /smugglers/reports', {
    token: quartermaster,
    body: {
      title: "Sainte-Anne's smugglers, next week",
      content: { inSeason: [], weekly: [{ id: 'culverin1', currency: 'silver', worth: 950 }], common: [] },
      startTime: '2026-05-04T00:00:00.000Z',
      endTime: '2026-05-11T00:00:00.000Z',
      status: 'draft',
    },
  });
  await r.call('PUT /smugglers/reports/{id}', {
    token: quartermaster,
    parameters: { id: report.id },
    body: { title: "Sainte-Anne's smugglers, week 19" },
  });
  await r.call('POST /smugglers/reports/{id}/publish', { token: quartermaster, parameters: { id: report.id } });
  await r.call('GET /smugglers/reports/{id}', { parameters: { id: report.id } });
  const comment = await r.call('POST /smugglers/reports/{id}/comments', {
    token: user,
    parameters: { id: report.id },
    body: { content: 'The culverins are a bargain at 950.' },
  });
  await r.call('PUT /smugglers/reports/{id}/comments/{commentId}', {
    token: user,
    parameters: { id: report.id, commentId: comment.id },
    body: { content: 'The culverins are a bargain at 950: buy two.' },
  });
  await r.call('GET /smugglers/reports/{id}/comments', { parameters: { id: report.id, page: 1, pageSize: 2 } });
  await r.call('GET /smugglers/reports', {
    token: user,
    parameters: { page: 1, pageSize: 2, sortBy: 'createdTime', sortOrder: 'desc' },
  });
  await r.otherParameters('GET /smugglers/reports', { parameters: { status: 'published', search: 'smugglers' } });
  await r.call('GET /smugglers/my-reports', {
    token: quartermaster,
    parameters: { page: 1, pageSize: 2, status: 'published' },
  });
  await r.call('POST /smugglers/reports/{id}/archive', { token: quartermaster, parameters: { id: report.id } });
  await r.call('DELETE /smugglers/reports/{id}/comments/{commentId}', {
    token: user,
    parameters: { id: report.id, commentId: comment.id },
  });
  await r.call('DELETE /smugglers/reports/{id}', { token: quartermaster, parameters: { id: report.id } });
}
