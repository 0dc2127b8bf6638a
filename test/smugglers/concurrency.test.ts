// The check-then-write rules of the reports (issue 35), per call, in one tRPC batch and as concurrent
// REST requests (test/cross-cutting/limits-per-call.test.ts for the style): publish while deleting, the
// one comment a connoisseur may write on a report, and the comment write limit.
import * as assert from 'uvu/assert';
import { comments, smugglersReports } from '../../db/schema';
import { batchClient, statusOf } from '../support/http-clients';
import { suite } from '../support/suite';
import { report, setUpSmugglers, type TSmugglers } from './fixtures';
import { tally } from '../support/server-suite';

const LIMIT = 4;

const Races = suite<TSmugglers>("smugglers' reports: check-then-write rules, per call");
Races.before((context) => setUpSmugglers(context));
Races.after(async ({ app }) => app.stop());

Races(
  'publish while deleting: in one batch and at once over REST, the report ends deleted, the publish 200 or 404',
  async ({ app, author }) => {
    for (let round = 0; round < 5; round++) {
      const batched = await report(app, author, { status: 'draft' });
      const { client, sent } = batchClient(app.url, { token: author.token, maxItems: 10 });
      const [published, deleted, again] = await Promise.all([
        statusOf(client.smugglers.reports.publish.mutate({ id: batched })),
        statusOf(client.smugglers.reports.delete.mutate({ id: batched })),
        statusOf(client.smugglers.reports.archive.mutate({ id: batched })),
      ]);
      assert.is(sent.requests, 1, 'one batch');
      assert.is(deleted, 200);
      assert.ok([200, 404].includes(published!) && [200, 404].includes(again!), `${published} ${again}`);
      const concurrent = await report(app, author, { status: 'draft' });
      const statuses = await Promise.all(
        [`${concurrent}/publish`, `${concurrent}`, `${concurrent}/publish`].map((path, index) =>
          app
            .rest(index === 1 ? 'DELETE' : 'POST', `/api/smugglers/reports/${path}`, { token: author.token })
            .then((response) => response.status),
        ),
      );
      assert.is(statuses[1], 200);
      assert.ok(
        statuses.every((status) => status === 200 || status === 404),
        statuses.join(' '),
      );
    }
    const left = await app.database.db.select({ id: smugglersReports.id }).from(smugglersReports).all();
    assert.equal(left, [], 'no report outlived its deletion');
  },
);

Races(
  'one comment a connoisseur: five at once in one batch and five concurrent REST requests, one each',
  async ({ app, author, connoisseur }) => {
    const [a, b] = [await report(app, author), await report(app, author)];
    const { client, sent } = batchClient(app.url, { token: connoisseur.token, maxItems: 10 });
    const batched = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        statusOf(client.smugglers.comments.create.mutate({ id: a, content: `batched ${index}` })),
      ),
    );
    assert.is(sent.requests, 1);
    assert.equal(tally(batched), { 200: 1, 409: 4 });
    const concurrent = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        app
          .rest('POST', `/api/smugglers/reports/${b}/comments`, {
            token: connoisseur.token,
            body: { content: `rest ${index}` },
          })
          .then((response) => response.status),
      ),
    );
    assert.equal(tally(concurrent), { 200: 1, 409: 4 });
    const stored = await app.database.db.select({ targetId: comments.targetId }).from(comments).all();
    assert.equal(stored.map((row) => row.targetId).sort(), [String(a), String(b)].sort());
  },
);

Races.run();

const Limits = suite<TSmugglers>("smugglers' reports: the comment write limit, per call");
Limits.before((context) => setUpSmugglers(context, { RATE_LIMIT_COMMENTS: LIMIT }));
Limits.after(async ({ app }) => app.stop());

Limits(
  `the comment write limit (${LIMIT} per account): ten creates on ten reports in one batch, then over REST`,
  async ({ app, admin, author }) => {
    const ids = await Promise.all(Array.from({ length: 10 }, () => report(app, author)));
    const writer = await app.signUp();
    await app.rest('POST', '/api/privilege/grant', {
      token: admin.token,
      body: { userId: writer.id, privilegeType: 'smuggler_weekly_report_comment_create' },
    });
    const { client, sent } = batchClient(app.url, { token: writer.token, maxItems: 10 });
    const batched = await Promise.all(
      ids.map((id) => statusOf(client.smugglers.comments.create.mutate({ id, content: 'worth it' }))),
    );
    assert.is(sent.requests, 1);
    assert.equal(tally(batched), { 200: LIMIT, 429: 10 - LIMIT });
    const other = await app.signUp();
    await app.rest('POST', '/api/privilege/grant', {
      token: admin.token,
      body: { userId: other.id, privilegeType: 'smuggler_weekly_report_comment_create' },
    });
    const concurrent = await Promise.all(
      ids.map((id) =>
        app
          .rest('POST', `/api/smugglers/reports/${id}/comments`, { token: other.token, body: { content: 'worth it' } })
          .then((response) => response.status),
      ),
    );
    assert.equal(tally(concurrent), { 200: LIMIT, 429: 10 - LIMIT });
  },
);

Limits.run();
