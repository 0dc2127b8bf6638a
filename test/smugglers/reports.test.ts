// The smugglers' weekly reports (issue 35) on both surfaces: writes by the holders of the rights, drafts
// seen by their author and the admins only, opaque JSON content, the list, my-reports, byTime, and
// every error status.
import * as assert from 'uvu/assert';
import { trpcError } from '../support/http-clients';
import { suite } from '../support/suite';
import { report, setUpSmugglers, type TSmugglers, WEEK } from './fixtures';

const Reports = suite<TSmugglers>("smugglers' reports: writes, drafts, reads, byTime");
Reports.before((context) => setUpSmugglers(context));
Reports.after(async ({ app }) => app.stop());

Reports('create on REST and on tRPC: the content is stored and answered as given', async ({ app, author }) => {
  const content = {
    weekly: [{ id: 'culverin1', currency: 'silver', worth: 1000 }],
    note: '🏴‍☠️ <b>not html</b>',
    deep: [[[{ a: null }]]],
  };
  const rest = await app.rest('POST', '/api/smugglers/reports', {
    token: author.token,
    body: { title: '  Week 10  ', content, ...WEEK },
  });
  assert.is(rest.status, 200, rest.text);
  const created = rest.body.data;
  assert.equal(
    [created.title, created.content, created.status, created.startTime, created.endTime, created.createdBy],
    ['Week 10', content, 'draft', WEEK.startTime, WEEK.endTime, author.id],
  );
  assert.equal([created.commentCount, created.isUserComment, created.userComment], [0, false, null]);
  const native = await app.trpc(author.token).smugglers.reports.create.mutate({
    title: 'Week 11',
    content,
    startTime: '2026-03-09',
    endTime: '2026-03-16',
    status: 'published',
  });
  assert.equal([native.content, native.startTime, native.status], [content, '2026-03-09T00:00:00.000Z', 'published']);
  const read = await app.rest('GET', `/api/smugglers/reports/${native.id}`);
  assert.equal(read.body.data, JSON.parse(JSON.stringify({ ...native, updatedTime: read.body.data.updatedTime })));
  const readNative = await app.trpc().smugglers.reports.get.query({ id: native.id });
  assert.equal(JSON.parse(JSON.stringify(readNative)), read.body.data);
});

Reports(
  'a draft is seen by its author and the admins only; everyone else gets a 404',
  async ({ app, admin, author, ordinary }) => {
    const draft = await report(app, author, { status: 'draft', title: 'Secret draft' });
    for (const [who, token, status] of [
      ['anonymous', undefined, 404],
      ['ordinary', ordinary.token, 404],
      ['author', author.token, 200],
      ['admin', admin.token, 200],
    ] as const) {
      assert.is((await app.rest('GET', `/api/smugglers/reports/${draft}`, { token })).status, status, who);
      const listed = await app.rest('GET', '/api/smugglers/reports?pageSize=100', { token });
      const titles = listed.body.data.data.map((r: { title: string }) => r.title);
      assert.is(titles.includes('Secret draft'), status === 200, `${who} in the list`);
    }
    assert.is((await app.rest('GET', `/api/smugglers/reports/${draft}/comments`, { token: author.token })).status, 404);
    const ownDrafts = await app.rest('GET', '/api/smugglers/reports?status=draft', { token: ordinary.token });
    assert.is(ownDrafts.body.data.pagination.total, 0, "status=draft: one's own drafts");
    const mine = await app.rest('GET', '/api/smugglers/my-reports?status=draft', { token: author.token });
    assert.ok(mine.body.data.data.some((r: { id: number }) => r.id === draft));
    const native = await trpcError(app.trpc(ordinary.token).smugglers.reports.get.query({ id: draft }));
    assert.equal([native.status, native.message], [404, `Smugglers report ${draft} not found`]);
  },
);

Reports(
  'update, publish, archive: its author or an admin with the right; the range is checked as it would be',
  async ({ app, admin, author, connoisseur }) => {
    const id = await report(app, author, { status: 'draft' });
    const renamed = await app.rest('PUT', `/api/smugglers/reports/${id}`, {
      token: author.token,
      body: { title: 'Renamed' },
    });
    assert.equal([renamed.status, renamed.body.data.title, renamed.body.data.status], [200, 'Renamed', 'draft']);
    const published = await app.trpc(author.token).smugglers.reports.publish.mutate({ id });
    assert.is(published.status, 'published');
    const archived = await app.rest('POST', `/api/smugglers/reports/${id}/archive`, { token: admin.token });
    assert.is(archived.body.data.status, 'archived');
    const otherRights = await app.rest('PUT', `/api/smugglers/reports/${id}`, {
      token: connoisseur.token,
      body: { title: 'Mine' },
    });
    assert.is(otherRights.status, 403, 'no right to update reports');
    const reversed = await app.rest('PUT', `/api/smugglers/reports/${id}`, {
      token: author.token,
      body: { endTime: '2026-03-01T00:00:00Z' },
    });
    assert.equal([reversed.status, reversed.body.data.issues[0].path], [400, 'endTime']);
    const nothing = await app.rest('PUT', `/api/smugglers/reports/${id}`, { token: author.token, body: {} });
    assert.match(nothing.body.message, /give at least one of title, content, status, startTime, endTime/);
    const unknown = await app.rest('POST', '/api/smugglers/reports/999999/publish', { token: author.token });
    assert.equal([unknown.status, unknown.body.message], [404, 'Smugglers report 999999 not found']);
  },
);

Reports(
  'another holder of the rights may not change or delete your report (403); an admin may',
  async ({ app, admin, author }) => {
    const id = await report(app, author);
    const rival = await app.signUp();
    await app.rest('POST', '/api/privilege/grant', {
      token: admin.token,
      body: { userId: rival.id, privilegeType: 'smuggler_weekly_report_ownership' },
    });
    const refused = await app.rest('PUT', `/api/smugglers/reports/${id}`, {
      token: rival.token,
      body: { title: 'Mine now' },
    });
    assert.equal(
      [refused.status, refused.body.message],
      [403, 'Only its author or an admin may change or delete a report'],
    );
    const deleted = await app.rest('DELETE', `/api/smugglers/reports/${id}`, { token: admin.token });
    assert.equal(deleted.body.data, { id, deleted: 'report', commentId: null });
    assert.is((await app.rest('GET', `/api/smugglers/reports/${id}`)).status, 404);
  },
);

Reports('every 400 of a report write names its field, alike on REST and on tRPC', async ({ app, author }) => {
  const good = { title: 'Fine', content: {}, ...WEEK };
  const deep = JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`);
  const cases: [Record<string, unknown>, string][] = [
    [{ ...good, title: '' }, 'title'],
    [{ ...good, title: 'a\u0007b' }, 'title'],
    [{ ...good, title: 'x'.repeat(201) }, 'title'],
    [{ ...good, content: deep }, 'content'],
    [{ ...good, content: { text: 'x'.repeat(200_001) } }, 'content'],
    [{ title: 'Fine', ...WEEK }, 'content'],
    [{ ...good, startTime: 'last monday' }, 'startTime'],
    [{ ...good, endTime: '2026-03-01T00:00:00Z' }, 'endTime'],
    [{ ...good, endTime: '2027-06-01T00:00:00Z' }, 'endTime'],
    [{ ...good, status: 'secret' }, 'status'],
    [{ ...good, createdBy: 'someone' }, ''],
  ];
  for (const [body, field] of cases) {
    const rest = await app.rest('POST', '/api/smugglers/reports', { token: author.token, body });
    assert.is(rest.status, 400, `${field}: ${rest.text.slice(0, 200)}`);
    if (field)
      assert.ok(
        rest.body.data.issues.some((issue: { path: string }) => issue.path === field),
        rest.text.slice(0, 300),
      );
    const native = await trpcError(app.trpc(author.token).smugglers.reports.create.mutate(body as never));
    assert.equal([native.status, native.message], [400, rest.body.message]);
  }
  assert.is((await app.rest('GET', '/api/smugglers/reports/x1')).status, 400, 'an id is a number');
  assert.is(
    (await app.rest('GET', '/api/smugglers/reports?page=2000&pageSize=10')).status,
    400,
    'past the list window',
  );
});

Reports('the list: published and archived, search, sorting, pages; my-reports', async ({ app, author, ordinary }) => {
  const fresh = await app.signUp();
  const a = await report(app, author, { title: 'Zebra crossing' });
  const b = await report(app, author, { title: 'zebra stripes', status: 'archived' });
  app.clock.advance(1000);
  await app.rest('PUT', `/api/smugglers/reports/${a}`, { token: author.token, body: { content: { weekly: [] } } });
  const found = await app.rest('GET', '/api/smugglers/reports?search=ZEBRA&sortBy=updatedTime', {
    token: ordinary.token,
  });
  assert.equal(
    found.body.data.data.map((r: { id: number }) => r.id),
    [a, b],
  );
  const oldest = await app.rest('GET', '/api/smugglers/reports?search=zebra&sortOrder=asc&pageSize=1&page=2');
  assert.equal(
    [oldest.body.data.data.map((r: { id: number }) => r.id), oldest.body.data.pagination.totalPages],
    [[b], 2],
  );
  const archived = await app.trpc().smugglers.reports.list.query({ status: 'archived', search: 'zebra' });
  assert.equal(
    archived.data.map((r) => r.id),
    [b],
  );
  const none = await app.rest('GET', '/api/smugglers/my-reports', { token: fresh.token });
  assert.equal(none.body.data, { data: [], pagination: { page: 1, pageSize: 10, total: 0, totalPages: 0 } });
  assert.is((await app.rest('GET', '/api/smugglers/my-reports')).status, 401);
});

Reports(
  'byTime: the published report whose range holds the date, the latest start of several, else the latest one',
  async ({ app, author }) => {
    const first = await report(app, author, { startTime: '2030-01-07', endTime: '2030-01-14' });
    const longer = await report(app, author, { startTime: '2030-01-01', endTime: '2030-01-31' });
    await report(app, author, { startTime: '2030-01-07', endTime: '2030-01-14', status: 'draft' });
    const at = async (date?: string) =>
      (await app.rest('GET', `/api/smugglers/reports/byTime${date ? `?date=${encodeURIComponent(date)}` : ''}`)).body
        .data.id;
    assert.is(await at('2030-01-10T12:00:00.000Z'), first, 'of the two holding it, the one that starts last');
    assert.is(await at('2030-01-20'), longer);
    assert.is(await at('2031-05-01T00:00:00Z'), first, 'none holds it: the one that starts last');
    const native = await app.trpc().smugglers.reports.byTime.query({ date: '2030-01-20' });
    assert.is(native.id, longer);
    const bad = await app.rest('GET', '/api/smugglers/reports/byTime?date=yesterday');
    assert.equal([bad.status, bad.body.data.issues[0].path], [400, 'date']);
  },
);

Reports.run();
