// Client replay (issue 35): every call of src/assets/sripts/api/smugglers_service.ts, sent as the client
// sends it (test/web-client/client-request.ts) against a server with the demo data (the quartermaster
// holds every right over the reports; two weeks of reports are published), asserting each field the
// pages read: the account page src/views/user/account/smugglersReport.vue and the view page
// src/views/smugglers/View.vue. Where a page reads `data` as a list (`d.data` iterated, `d.data[0]`), the
// contract keeps `data` an object: the page's one-line change is in docs/compatibility.md, and the
// fields are asserted where the changed line reads them.
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { suite } from '../support/suite';
import { send, signIn } from './client-request';

const ALL_SEVEN = [
  'smuggler_weekly_report_ownership',
  'smuggler_weekly_report_create',
  'smuggler_weekly_report_update',
  'smuggler_weekly_report_delete',
  'smuggler_weekly_report_comment_create',
  'smuggler_weekly_report_comment_update',
  'smuggler_weekly_report_comment_delete',
];

const Client = suite<{ app: TTestServer; quartermaster: string; deckhand: string }>(
  "web client: the smugglers' weekly reports (smugglers_service.ts)",
);

Client.before(async (context) => {
  context.app = await startTestServer({ SEED_DEMO: true });
  context.quartermaster = await signIn(context.app, 'quartermaster');
  context.deckhand = await signIn(context.app, 'deckhand');
});
Client.after(async ({ app }) => app.stop());

/** The report fields the pages read (smugglersReport.vue:386-412, View.vue:133-152). */
function assertReport(report: Record<string, any>): void {
  assert.type(report.id, 'number');
  assert.type(report.title, 'string');
  assert.type(report.startTime, 'string');
  assert.type(report.endTime, 'string');
  assert.type(report.content, 'object');
  assert.type(report.commentCount, 'number');
  assert.type(report.isUserComment, 'boolean');
}

Client('View.vue: the report of now (:42) and its comments (:68)', async ({ app }) => {
  // View.vue:42 → smugglers_service.ts:137 `http.get('smugglers/reports/byTime', {params: {date: date ?? new Date()}})`
  // (axios sends a Date as its ISO string). The page reads `d.data[0]` (:45); the report is `data` itself.
  const now = await send(app, 'GET', 'smugglers/reports/byTime', { params: { date: app.clock.now().toISOString() } });
  assert.is(now.status, 200, now.text);
  const report = now.body.data;
  assertReport(report);
  assert.is(report.title, "Sainte-Anne's smugglers, this week");
  assert.equal(report.content.weekly[0], { id: 'culverin1', currency: 'silver', worth: 1000 });
  // View.vue:68 → smugglers_service.ts:234 `http.get('smugglers/reports/${reportId}/comments', {params: {page, pageSize}})`,
  // read as `d.data.data` (:71), each with username, createdTime, content (:189-199). Last week's has the quartermaster's.
  const lastWeek = await send(app, 'GET', 'smugglers/reports/byTime', {
    params: { date: new Date(new Date(report.startTime).getTime() - 1000).toISOString() },
  });
  const comments = await send(app, 'GET', `smugglers/reports/${lastWeek.body.data.id}/comments`, {
    params: { page: 1, pageSize: 10 },
  });
  const [first] = comments.body.data.data;
  assert.equal([first.username, typeof first.createdTime, typeof first.content], ['quartermaster', 'string', 'string']);
});

Client(
  'smugglersReport.vue: the rights (:70), the list (:103), create (:134), edit (:165), delete (:193)',
  async ({ app, quartermaster, deckhand }) => {
    // :70 → smugglers_service.ts:94 `http.post('smugglers/privileges/check', {data: {privileges}})`, read as `d.data.hasPrivilege` (:81).
    const holder = await send(app, 'POST', 'smugglers/privileges/check', {
      token: quartermaster,
      data: { privileges: ALL_SEVEN },
    });
    assert.is(holder.body.data.hasPrivilege, true);
    const none = await send(app, 'POST', 'smugglers/privileges/check', {
      token: deckhand,
      data: { privileges: ALL_SEVEN },
    });
    assert.is(none.body.data.hasPrivilege, false, 'the page shows the application card');
    // :134 → smugglers_service.ts:171 `http.post('smugglers/reports', {data: {title, content, startTime, endTime, status}})`,
    // the times as TimeFrame.vue:52-55 makes them (toISOString of the days chosen).
    const created = await send(app, 'POST', 'smugglers/reports', {
      token: quartermaster,
      data: {
        title: 'Next week',
        content: { inSeason: [], weekly: [{ id: 'culverin1', currency: 'silver', worth: 950 }], common: [] },
        startTime: new Date('2030-06-03').toISOString(),
        endTime: new Date('2030-06-10').toISOString(),
        status: 'published',
      },
    });
    assert.is(created.status, 200, created.text);
    const id = created.body.data.id;
    // :103 → smugglers_service.ts:113 `http.get('smugglers/reports', {params: {page, pageSize, status, search, sortBy, sortOrder}})`.
    // The page iterates `d.data` (:108, :382); the list is `data.data`, each item read at :386-412.
    const listed = await send(app, 'GET', 'smugglers/reports', {
      token: quartermaster,
      params: { page: 1, pageSize: 6, status: undefined, search: undefined, sortBy: 'createdTime', sortOrder: 'desc' },
    });
    assert.is(listed.status, 200, listed.text);
    const items = listed.body.data.data as Record<string, any>[];
    for (const item of items) assertReport(item);
    assert.is(items[0]!.id, id, 'newest first');
    const appraised = items.find((item) => item.title === "Sainte-Anne's smugglers, last week")!;
    assert.equal(
      [appraised.isUserComment, typeof appraised.userComment.content, appraised.commentCount],
      [true, 'string', 1],
    );
    // :165 → smugglers_service.ts:194 `http.put('smugglers/reports/${reportId}', {data: {title, content, status}})`.
    const edited = await send(app, 'PUT', `smugglers/reports/${id}`, {
      token: quartermaster,
      data: { title: 'Next week, revised', content: created.body.data.content, status: 'published' },
    });
    assert.equal([edited.status, edited.body.data.title], [200, 'Next week, revised']);
    // :193 → smugglers_service.ts:215 `http.del('smugglers/reports/${reportId}')` by its author: the report.
    const deleted = await send(app, 'DELETE', `smugglers/reports/${id}`, { token: quartermaster });
    assert.equal(deleted.body.data, { id, deleted: 'report', commentId: null });
  },
);

Client(
  "smugglersReport.vue's comment dialog: edit (:288), delete (:318), create (:257)",
  async ({ app, quartermaster }) => {
    const listed = await send(app, 'GET', 'smugglers/reports', {
      token: quartermaster,
      params: { page: 1, pageSize: 6 },
    });
    const report = (listed.body.data.data as Record<string, any>[]).find((item) => item.isUserComment)!;
    // :288 → smugglers_service.ts:280 `http.put('smugglers/reports/${reportId}/comments/${commentId}', {data: {content}})`,
    // the comment id from `selectedSmugglersReport.userComment.id` (:284).
    const edited = await send(app, 'PUT', `smugglers/reports/${report.id}/comments/${report.userComment.id}`, {
      token: quartermaster,
      data: { content: 'Skip the culverins this week.' },
    });
    assert.equal([edited.status, edited.body.data.content], [200, 'Skip the culverins this week.']);
    // :318 → smugglers_service.ts:299 delReportComment: `http.del('smugglers/reports/${reportId}')`, the report's id.
    // The caller is not the report's author: it is their comment that goes, and the report stays.
    const removed = await send(app, 'DELETE', `smugglers/reports/${report.id}`, { token: quartermaster });
    assert.equal(removed.body.data, { id: report.id, deleted: 'comment', commentId: report.userComment.id });
    assert.is((await send(app, 'GET', `smugglers/reports/${report.id}`)).status, 200);
    // :257 → smugglers_service.ts:257 `http.post('smugglers/reports/${reportId}/comments', {data: {content}})`.
    const added = await send(app, 'POST', `smugglers/reports/${report.id}/comments`, {
      token: quartermaster,
      data: { content: 'On second thought: buy them.' },
    });
    assert.equal([added.status, added.body.data.content], [200, 'On second thought: buy them.']);
  },
);

Client(
  "smugglers_service.ts's other calls (no page makes them): one report, publish, archive, my-reports",
  async ({ app, quartermaster }) => {
    const created = await send(app, 'POST', 'smugglers/reports', {
      token: quartermaster,
      data: {
        title: 'Draft week',
        content: {},
        startTime: '2030-07-01T00:00:00.000Z',
        endTime: '2030-07-08T00:00:00.000Z',
        status: 'draft',
      },
    });
    const id = created.body.data.id;
    // :156 `http.get('smugglers/reports/${reportId}')`: a draft for its author.
    const one = await send(app, 'GET', `smugglers/reports/${id}`, { token: quartermaster });
    assert.equal([one.status, one.body.data.status], [200, 'draft']);
    assert.is((await send(app, 'GET', `smugglers/reports/${id}`)).status, 404, 'nobody else sees a draft');
    // :314 `http.post('smugglers/reports/${reportId}/publish')` and :329 `.../archive`, without a body.
    const published = await send(app, 'POST', `smugglers/reports/${id}/publish`, { token: quartermaster });
    assert.is(published.body.data.status, 'published');
    const archived = await send(app, 'POST', `smugglers/reports/${id}/archive`, { token: quartermaster });
    assert.is(archived.body.data.status, 'archived');
    // :348 `http.get('smugglers/my-reports', {params: {page, pageSize, status}})`.
    const mine = await send(app, 'GET', 'smugglers/my-reports', {
      token: quartermaster,
      params: { page: 1, pageSize: 10, status: 'archived' },
    });
    assert.equal(
      mine.body.data.data.map((item: { id: number }) => item.id),
      [id],
    );
  },
);

Client.run();
