// The list's reachable window (issue 16): page × pageSize up to MAX_LIST_WINDOW answers, beyond it a 400
// naming the limit, on REST, natively through tRPC and in the OpenAPI document. The sorts and exact totals:
// list-bounds-sorts.test.ts; a keyword with a shipType: list-bounds-search.test.ts; the query plans:
// list-bounds-plans.test.ts.
import * as assert from 'uvu/assert';
import { MAX_LIST_WINDOW } from '../../server/domains/assembly/schemas';
import { HULK } from '../support/community-sample';
import { trpcError } from '../support/http-clients';
import { catalogSuite, publish } from './fixtures';

const Window = catalogSuite('list: the reachable window (page × pageSize)', async (app) => {
  const owner = await app.signUp();
  for (let i = 0; i < 3; i++) await publish(app, owner.token, { ...HULK, name: `Window ${i}`, tags: ['windowed'] });
  return { owner };
});

const LIMIT_MESSAGE = new RegExp(`page × pageSize must be at most ${MAX_LIST_WINDOW}`);

Window(
  `up to page × pageSize = ${MAX_LIST_WINDOW} answers; beyond it is a 400 naming the limit, on REST`,
  async ({ app }) => {
    const deepest = await app.rest('GET', `/api/assembly/list?pageSize=100&page=${MAX_LIST_WINDOW / 100}&sort=hottest`);
    assert.is(deepest.status, 200, deepest.text);
    assert.equal(deepest.body.data.data, [], 'an empty page within the window, as before');
    assert.equal(deepest.body.data.pagination, { page: MAX_LIST_WINDOW / 100, pageSize: 100, total: 3, totalPages: 1 });
    for (const query of [
      `pageSize=100&page=${MAX_LIST_WINDOW / 100 + 1}`,
      'page=500001&sort=hottest', // the request of issue 16
      `pageSize=20&page=${MAX_LIST_WINDOW / 20 + 1}&sort=rating&shipType=small`,
      `pageSize=1&page=${MAX_LIST_WINDOW + 1}&keyword=windowed`,
    ]) {
      const response = await app.rest('GET', `/api/assembly/list?${query}`);
      assert.is(response.status, 400, `${query}: ${response.text}`);
      assert.equal([response.body.code, response.body.data.issues[0].path], [400, 'page']);
      assert.match(response.body.message, LIMIT_MESSAGE);
      assert.match(response.body.message, /^Invalid input: page: /);
    }
    // The limit is in the OpenAPI document, on the page parameter and in the operation's description.
    const operation = JSON.stringify(
      ((await app.rest('GET', '/api/openapi.json')).body as unknown as { paths: Record<string, unknown> }).paths[
        '/assembly/list'
      ],
    );
    assert.match(operation, new RegExp(`page × pageSize must be at most ${MAX_LIST_WINDOW}`));
    assert.match(operation, new RegExp(`first ${MAX_LIST_WINDOW} results: page × pageSize above that is a 400`));
  },
);

Window('the same 400 natively through tRPC', async ({ app }) => {
  const within = await app.trpc().assembly.list.query({ page: MAX_LIST_WINDOW / 50, pageSize: 50, sort: 'rating' });
  assert.is(within.pagination.total, 3);
  const rest = await app.rest('GET', `/api/assembly/list?pageSize=50&page=${MAX_LIST_WINDOW / 50 + 1}&sort=rating`);
  const failure = await trpcError(
    app.trpc().assembly.list.query({ page: MAX_LIST_WINDOW / 50 + 1, pageSize: 50, sort: 'rating' }),
  );
  assert.is(failure.status, 400);
  assert.is(failure.message, rest.body.message, 'the same message on both surfaces');
  assert.equal(failure.data.issues, rest.body.data.issues);
});

Window.run();
