// Stored answers of anonymous item reads (issue 22): replayed around the live view count on both
// surfaces, every read counted once whatever the interleaving, dropped with the assembly's entry.
import { eq, sql } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { assemblyViews } from '../../db/schema';
import { startTestServer, type TTestServer } from '../support/helpers';
import { HULK, importCommunitySample } from '../support/community-sample';
import { batchClient } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { storedViewsOf } from '../support/stored-views';
import { publish, readable, type TUser } from './fixtures';

const Stored = suite<{ app: TTestServer; owner: TUser; other: TUser }>(
  'item: stored answers around the live view count',
);

Stored.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.other = await context.app.signUp();
});
Stored.after(async ({ app }) => app.stop());

/** An answer's data without its view count: what replays must keep exactly. */
const withoutViews = (data: Record<string, unknown>) => JSON.stringify({ ...data, views: undefined });

const trpcGet = (app: TTestServer, uuid: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/trpc/assembly.getItem?input=${encodeURIComponent(JSON.stringify({ json: { uuid } }))}`, {
    headers,
  });

Stored(
  'an anonymous read is replayed around its view count: same bytes otherwise, same ETag, Age, each read counted',
  async ({ app, owner }) => {
    const created = await publish(app, owner.token, HULK);
    const url = `/api/assembly/item?uuid=${created.uuid}`;
    const first = await app.rest('GET', url);
    assert.is(first.headers.get('age'), null, 'built by the procedure');
    assert.is(first.body.data.views, 1);
    const second = await app.rest('GET', url);
    assert.is(
      second.headers.get('age'),
      null,
      'built again, and stored: a one-off read stores nothing (the read cache admits a value on its second offer)',
    );
    assert.is(second.body.data.views, 2);
    const third = await app.rest('GET', url);
    assert.is(third.headers.get('age'), '0', 'replayed');
    assert.is(third.body.data.views, 3);
    assert.is(withoutViews(third.body.data), withoutViews(first.body.data));
    assert.is(third.headers.get('etag'), first.headers.get('etag'));
    assert.is(third.headers.get('cache-control'), first.headers.get('cache-control'));
    assert.is(third.headers.get('content-length'), String(Buffer.byteLength(third.text)));
    app.clock.advance(2_000);
    const fourth = await app.rest('GET', url);
    assert.is(fourth.headers.get('age'), '2');
    assert.is(fourth.body.data.views, 4);

    // A conditional read answered 304 from the stored answer still counts.
    const notModified = await app.rest('GET', url, { headers: { 'if-none-match': first.headers.get('etag')! } });
    assert.is(notModified.status, 304);
    assert.is(notModified.headers.get('age'), '2');
    assert.is((await app.rest('GET', url)).body.data.views, 6);

    // Native tRPC: its own stored item (from the cached view; stored on its second offer), the same count.
    const viaTrpc = await trpcGet(app, created.uuid);
    assert.is(viaTrpc.headers.get('age'), null);
    assert.is(((await viaTrpc.json()) as any).result.data.json.views, 7);
    assert.is((await trpcGet(app, created.uuid)).headers.get('age'), null);
    const replayedTrpc = await trpcGet(app, created.uuid);
    assert.is(replayedTrpc.headers.get('age'), '0');
    assert.is(((await replayedTrpc.json()) as any).result.data.json.views, 9);
    await app.app.deps.views.flush(app.database.db);
    assert.equal(await storedViewsOf(app.database.db, [created.uuid]), [9]);
  },
);

Stored(
  'ten reads in one tRPC batch and twenty concurrent REST reads: each counted once, each count answered once',
  async ({ app, owner }) => {
    const created = await publish(app, owner.token, HULK);
    const url = `/api/assembly/item?uuid=${created.uuid}`;
    // Stored on both surfaces first (the view, then each answer), so that what follows is replayed.
    await app.rest('GET', url);
    await app.rest('GET', url);
    await trpcGet(app, created.uuid);
    const { client, sent } = batchClient(app.url);
    const batched = await Promise.all(
      Array.from({ length: 10 }, () => client.assembly.getItem.query({ uuid: created.uuid })),
    );
    assert.is(sent.requests, 1, 'one HTTP request');
    const concurrent = await Promise.all(Array.from({ length: 20 }, () => app.rest('GET', url)));
    assert.ok(
      concurrent.some((response) => response.headers.get('age') !== null),
      'replayed',
    );
    const counts = [
      ...batched.map((item) => readable(item).views),
      ...concurrent.map((response) => response.body.data.views as number),
    ].sort((a, b) => a - b);
    assert.equal(
      counts,
      Array.from({ length: 30 }, (_, i) => i + 4),
      'views 4 to 33, none twice',
    );
    await app.app.deps.views.flush(app.database.db);
    assert.equal(await storedViewsOf(app.database.db, [created.uuid]), [33]);
  },
);

Stored(
  'signed-in, force and password reads are not replayed; the creator is never counted',
  async ({ app, owner, other }) => {
    const created = await publish(app, owner.token, HULK);
    const url = `/api/assembly/item?uuid=${created.uuid}`;
    await app.rest('GET', url);
    await app.rest('GET', url);
    assert.is((await app.rest('GET', url)).headers.get('age'), '0');
    const signedIn = await app.rest('GET', url, { token: other.token });
    assert.is(signedIn.headers.get('age'), null);
    assert.is(signedIn.body.data.views, 4);
    const byCreator = await app.rest('GET', url, { token: owner.token });
    assert.is(byCreator.body.data.views, 4, 'the creator does not count');
    assert.is(byCreator.body.data.isOwner, true);
    const forced = await app.rest('GET', `${url}&force=true`);
    assert.is(forced.headers.get('age'), null);
    assert.is(forced.body.data.views, 5);
    const trpcSignedIn = await trpcGet(app, created.uuid, { authorization: `Bearer ${other.token}` });
    assert.is(trpcSignedIn.headers.get('age'), null);
    assert.is((await app.rest('GET', url)).body.data.views, 7);
  },
);

Stored('an edit, a like and a trash drop the stored answers at once', async ({ app, owner, other }) => {
  const created = await publish(app, owner.token, HULK);
  const url = `/api/assembly/item?uuid=${created.uuid}`;
  const before = await app.rest('GET', url);
  await app.rest('GET', url);
  await trpcGet(app, created.uuid);
  assert.is((await app.rest('GET', url)).headers.get('age'), '0');

  const edited = await app.rest('POST', '/api/assembly/edit', {
    token: owner.token,
    body: { uuid: created.uuid, data: { name: 'Renamed brawler' } },
  });
  assert.is(edited.status, 200, edited.text);
  const afterEdit = await app.rest('GET', url);
  assert.is(afterEdit.headers.get('age'), null);
  assert.is(afterEdit.body.data.name, 'Renamed brawler');
  assert.is.not(afterEdit.headers.get('etag'), before.headers.get('etag'));
  const trpcAfterEdit = await trpcGet(app, created.uuid);
  assert.is(trpcAfterEdit.headers.get('age'), null);
  assert.is(((await trpcAfterEdit.json()) as any).result.data.json.name, 'Renamed brawler');

  await app.rest('GET', url);
  assert.is((await app.rest('GET', url)).headers.get('age'), '0');
  assert.is(
    (await app.rest('POST', '/api/assembly/like', { token: other.token, body: { uuid: created.uuid } })).status,
    200,
  );
  const afterLike = await app.rest('GET', url);
  assert.is(afterLike.headers.get('age'), null);
  assert.is(afterLike.body.data.likes, 1);

  await app.rest('GET', url);
  assert.is((await app.rest('GET', url)).headers.get('age'), '0');
  assert.is(
    (await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: created.uuid } })).status,
    200,
  );
  assert.is((await app.rest('GET', url)).status, 404);
  assert.is((await trpcGet(app, created.uuid)).status, 404);
});

Stored(
  'a uuid in upper case is answered by the service, never stored under a key its invalidation would miss',
  async ({ app, owner }) => {
    const created = await publish(app, owner.token, HULK);
    const upper = `/api/assembly/item?uuid=${created.uuid.toUpperCase()}`;
    for (let i = 1; i <= 3; i++) {
      const read = await app.rest('GET', upper);
      assert.is(read.headers.get('age'), null);
      assert.is(read.body.data.views, i);
    }
    assert.is(
      (
        await app.rest('POST', '/api/assembly/edit', {
          token: owner.token,
          body: { uuid: created.uuid, data: { name: 'Upper brawler' } },
        })
      ).status,
      200,
    );
    assert.is((await app.rest('GET', upper)).body.data.name, 'Upper brawler');
  },
);

Stored(
  'after a flush, the first read asks the database again and learns the views written elsewhere',
  async ({ app, owner }) => {
    const created = await publish(app, owner.token, HULK);
    const url = `/api/assembly/item?uuid=${created.uuid}`;
    await app.rest('GET', url);
    await app.rest('GET', url);
    // The first flush writes the two views; the second, with nothing pending, forgets the count.
    await app.app.deps.views.flush(app.database.db);
    await app.app.deps.views.flush(app.database.db);
    // Another instance wrote 10 views.
    await app.database.db
      .update(assemblyViews)
      .set({ views: sql`${assemblyViews.views} + 10` })
      .where(eq(assemblyViews.assemblyId, sql`(select id from assemblies where uuid = ${created.uuid})`));
    const relearned = await app.rest('GET', url);
    assert.is(relearned.headers.get('age'), null, 'not replayed: the count was forgotten');
    assert.is(relearned.body.data.views, 13);
    const replayed = await app.rest('GET', url);
    assert.is(replayed.headers.get('age'), '0', 'the stored answer outlived the count');
    assert.is(replayed.body.data.views, 14);
  },
);

Stored.run();
