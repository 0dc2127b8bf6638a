// A report's comments (issue 35): the comment mechanism on target type smugglersReport, at the report's
// paths and at the generic ones, with the rights of the privilege tree, one comment a connoisseur, the
// captcha, and DELETE smugglers/reports/{id}, which the web client sends for a report and for a comment:
// it deletes a report only for its author or an admin (who never comment on it), a commenter's own
// comment otherwise, and a repeated call never deletes the report.
import * as assert from 'uvu/assert';
import { openSvgAnswer } from '../../server/domains/captcha/service';
import { trpcError } from '../support/http-clients';
import { suite } from '../support/suite';
import { report, setUpSmugglers, type TSmugglers } from './fixtures';

const HMAC_KEY = 'smugglers-comments-key-0123456789';

const Comments = suite<TSmugglers>("smugglers' reports: comments");
Comments.before((context) => setUpSmugglers(context, { CAPTCHA_HMAC_KEY: HMAC_KEY }));
Comments.after(async ({ app }) => app.stop());

const comment = (app: TSmugglers['app'], token: string, id: number, content = 'Buy the culverins') =>
  app.rest('POST', `/api/smugglers/reports/${id}/comments`, { token, body: { content } });

Comments('before any report is published, byTime is a 404', async ({ app }) => {
  const none = await app.rest('GET', '/api/smugglers/reports/byTime');
  assert.equal([none.status, none.body.message], [404, 'No smugglers report is published yet']);
});

Comments(
  'create, list, edit and delete on REST and on tRPC; the list of reports shows your comment',
  async ({ app, author, connoisseur }) => {
    const id = await report(app, author);
    const created = await comment(app, connoisseur.token, id, '  Two culverins\r\nare a bargain  ');
    assert.is(created.status, 200, created.text);
    assert.equal(
      [created.body.data.content, created.body.data.targetType, created.body.data.targetId, created.body.data.username],
      ['Two culverins\nare a bargain', 'smugglersReport', String(id), connoisseur.username],
    );
    const listed = await app.rest('GET', `/api/smugglers/reports/${id}/comments`);
    assert.equal(
      listed.body.data.data.map((c: { id: string }) => c.id),
      [created.body.data.id],
    );
    const native = await app.trpc().smugglers.comments.list.query({ id });
    assert.equal(JSON.parse(JSON.stringify(native)), listed.body.data);
    const reports = await app.rest('GET', '/api/smugglers/reports?pageSize=100', { token: connoisseur.token });
    const entry = reports.body.data.data.find((r: { id: number }) => r.id === id);
    assert.equal(
      [entry.commentCount, entry.isUserComment, entry.userComment.id, entry.userComment.content],
      [1, true, created.body.data.id, 'Two culverins\nare a bargain'],
    );
    const edited = await app
      .trpc(connoisseur.token)
      .smugglers.comments.edit.mutate({ id, commentId: created.body.data.id, content: 'One is enough' });
    assert.is(edited.content, 'One is enough');
    const mine = await app.rest('GET', '/api/user/comments', { token: connoisseur.token });
    assert.equal(
      [mine.body.data.data[0].target.type, mine.body.data.data[0].target.name],
      ['smugglersReport', 'Weekly wares'],
      'your comments list it, under the report title',
    );
    const removed = await app.rest('DELETE', `/api/smugglers/reports/${id}/comments/${created.body.data.id}`, {
      token: connoisseur.token,
    });
    assert.equal(removed.body.data, { id: created.body.data.id, deleted: true });
  },
);

Comments(
  'one comment a connoisseur (409); the author and the admins do not comment (403); no right: 403',
  async ({ app, admin, author, connoisseur, ordinary }) => {
    const id = await report(app, author);
    assert.is((await comment(app, connoisseur.token, id)).status, 200);
    const second = await comment(app, connoisseur.token, id, 'Again');
    assert.equal(
      [second.status, second.body.message],
      [409, 'You have already commented on this smugglers report: edit your comment instead'],
    );
    for (const [who, token] of [
      ['author', author.token],
      ['admin', admin.token],
      ['ordinary', ordinary.token],
    ] as const) {
      const refused = await comment(app, token, id);
      assert.is(refused.status, 403, who);
      const native = await trpcError(app.trpc(token).smugglers.comments.create.mutate({ id, content: 'x' }));
      assert.equal([native.status, native.message], [403, refused.body.message], who);
    }
    // The generic endpoint holds the same rules: it is the same mechanism.
    const generic = await app.rest('POST', '/api/comment', {
      token: ordinary.token,
      body: { targetType: 'smugglersReport', targetId: String(id), content: 'Sneaky' },
    });
    assert.equal([generic.status, generic.body.data.privilegeType], [403, 'smuggler_weekly_report_comment_create']);
    const draft = await report(app, author, { status: 'draft' });
    assert.is((await comment(app, connoisseur.token, draft)).status, 404, 'a draft takes no comment');
    const empty = await comment(app, connoisseur.token, id, ' \n ');
    assert.equal([empty.status, empty.body.data.issues[0].path], [400, 'content']);
    const control = await comment(app, connoisseur.token, id, 'a\u0000b');
    assert.is(control.status, 400);
  },
);

Comments("a comment of another report is a 404 at this report's paths", async ({ app, author, connoisseur }) => {
  const [a, b] = [await report(app, author), await report(app, author)];
  const onA = (await comment(app, connoisseur.token, a)).body.data.id;
  const edit = await app.rest('PUT', `/api/smugglers/reports/${b}/comments/${onA}`, {
    token: connoisseur.token,
    body: { content: 'Moved' },
  });
  assert.equal([edit.status, edit.body.message], [404, `Comment ${onA} not found`]);
  const remove = await app.rest('DELETE', `/api/smugglers/reports/${b}/comments/${onA}`, { token: connoisseur.token });
  assert.is(remove.status, 404);
});

Comments(
  "DELETE smugglers/reports/{id}: a commenter's own comment, never the report, however often it is sent",
  async ({ app, author, connoisseur }) => {
    const id = await report(app, author);
    const mine = (await comment(app, connoisseur.token, id)).body.data.id;
    // smugglersReport.vue:318 delReportComment(reportId) → smugglers_service.ts:299 DELETE smugglers/reports/{id}.
    const first = await app.rest('DELETE', `/api/smugglers/reports/${id}`, { token: connoisseur.token });
    assert.equal(first.body.data, { id, deleted: 'comment', commentId: mine });
    // A double click: the second call finds no comment, and is no deletion of the report.
    const again = await app.rest('DELETE', `/api/smugglers/reports/${id}`, { token: connoisseur.token });
    assert.is(again.status, 404);
    const native = await trpcError(app.trpc(connoisseur.token).smugglers.reports.delete.mutate({ id }));
    assert.equal([native.status, native.message], [404, again.body.message]);
    assert.is((await app.rest('GET', `/api/smugglers/reports/${id}`)).status, 200, 'the report is still there');
    // Its author deletes the report, its comments with it.
    const another = (await comment(app, connoisseur.token, id)).body.data.id;
    const byAuthor = await app.rest('DELETE', `/api/smugglers/reports/${id}`, { token: author.token });
    assert.equal(byAuthor.body.data, { id, deleted: 'report', commentId: null });
    const gone = await app.rest('POST', '/api/comment/edit', {
      token: connoisseur.token,
      body: { id: another, content: 'x' },
    });
    assert.is(gone.status, 404, 'its comments went with it');
  },
);

Comments('the captcha: verified when given, once only', async ({ app, author, connoisseur }) => {
  const [a, b] = [await report(app, author), await report(app, author)];
  const { hash } = (await app.rest('GET', '/api/captcha')).body.data;
  const captcha = { captchaType: 'svg', encryptCaptcha: hash, response: openSvgAnswer(HMAC_KEY, hash)!.text };
  const first = await app.rest('POST', `/api/smugglers/reports/${a}/comments`, {
    token: connoisseur.token,
    body: { content: 'With a captcha', captcha },
  });
  assert.is(first.status, 200, first.text);
  const reused = await app.rest('POST', `/api/smugglers/reports/${b}/comments`, {
    token: connoisseur.token,
    body: { content: 'Again', captcha },
  });
  assert.equal([reused.status, reused.body.data.key], [400, 'captcha.wrong']);
});

Comments.run();
