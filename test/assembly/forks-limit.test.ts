// Forks (issue 19): the per-account fork limit (RATE_LIMIT_FORKS), one call at a time and N at once
// (one tRPC batch through httpBatchLink, concurrent REST); refused forks spend nothing.
import type { TRPCClientError } from '@trpc/client';
import * as assert from 'uvu/assert';
import type { AppRouter } from '../../server/router';
import { HULK } from '../support/community-sample';
import { batchClient, trpcError } from '../support/http-clients';
import { catalogSuite, countedForks, readItem as item, publish, UNKNOWN } from './fixtures';

const Limit = catalogSuite(
  'forks: the per-account fork limit',
  async (app) => {
    const owner = await app.signUp();
    return { owner, original: (await publish(app, owner.token, { ...HULK, name: 'Limited' })).uuid };
  },
  { RATE_LIMIT_FORKS: 3 },
);

Limit(
  'over RATE_LIMIT_FORKS: 429 with Retry-After; refused calls (404, 403) spend nothing',
  async ({ app, original }) => {
    const user = await app.signUp();
    const hidden = await publish(app, (await app.signUp()).token, { ...HULK, isPublic: false });
    // Refused before the limit: they do not spend it.
    assert.is(
      (await app.rest('POST', '/api/assembly/fork', { token: user.token, body: { uuid: UNKNOWN } })).status,
      404,
    );
    assert.is(
      (await app.rest('POST', '/api/assembly/fork', { token: user.token, body: { uuid: hidden.uuid } })).status,
      403,
    );
    for (let i = 0; i < 3; i++)
      assert.is(
        (await app.rest('POST', '/api/assembly/fork', { token: user.token, body: { uuid: original } })).status,
        200,
      );
    const over = await app.rest('POST', '/api/assembly/fork', { token: user.token, body: { uuid: original } });
    assert.is(over.status, 429, over.text);
    assert.is(over.body.data.key, 'request.rateLimited');
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    const overTrpc = await trpcError(app.trpc(user.token).assembly.fork.mutate({ uuid: original }));
    assert.is(overTrpc.status, 429);
    // Per account: another user still forks.
    assert.is(
      (await app.rest('POST', '/api/assembly/fork', { token: (await app.signUp()).token, body: { uuid: original } }))
        .status,
      200,
    );
    assert.equal(await countedForks(app, original), { stored: 4, counted: 4 });
  },
);

Limit(
  '10 forks in one tRPC batch, and 10 concurrent REST forks: exactly the limit is accepted, and counted',
  async ({ app, original }) => {
    const before = (await item(app, original)).forkCount;
    const batcher = await app.signUp();
    const { client, sent } = batchClient(app.url, { token: batcher.token, maxItems: 10 });
    const settled = await Promise.allSettled(
      Array.from({ length: 10 }, () => client.assembly.fork.mutate({ uuid: original })),
    );
    assert.is(sent.requests, 1, 'the ten forks went out as one batch');
    assert.is(settled.filter((result) => result.status === 'fulfilled').length, 3);
    for (const result of settled) {
      if (result.status === 'rejected') assert.is((result.reason as TRPCClientError<AppRouter>).data?.httpStatus, 429);
    }
    const racer = await app.signUp();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        app.rest('POST', '/api/assembly/fork', { token: racer.token, body: { uuid: original } }),
      ),
    );
    assert.equal(responses.map((response) => response.status).sort(), [...Array(3).fill(200), ...Array(7).fill(429)]);
    assert.is((await item(app, original)).forkCount, before + 6);
    assert.equal(await countedForks(app, original), { stored: before + 6, counted: before + 6 });
  },
);

Limit.run();
