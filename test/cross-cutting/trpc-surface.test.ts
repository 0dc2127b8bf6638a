/**
 * The native tRPC surface as TypeScript front ends use it, its batches: the real @trpc/client with its
 * batch links. Calls of one batch run side by side; every acknowledged write must be there afterwards,
 * and every limit holds per call. The fast path against tRPC's own adapter: trpc-surface-wire.test.ts.
 */
import { createTRPCClient, httpBatchLink, httpBatchStreamLink, TRPCClientError } from '@trpc/client';
import { eq } from 'drizzle-orm';
import superjson from 'superjson';
import * as assert from 'uvu/assert';
import { mapCollections } from '../../db/schema';
import type { AppRouter } from '../../server/router';
import { catalogSuite } from '../assembly/fixtures';
import { serverSuite } from '../support/server-suite';
import { batchClient, LOADOUT } from './trpc-surface-fixtures';

const POINT = { title: 'Cove', latitude: 10, longitude: 20 };

async function settle<T>(
  call: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; status: number; message: string }> {
  try {
    return { ok: true, value: await call };
  } catch (error) {
    if (error instanceof TRPCClientError) return { ok: false, status: error.data?.httpStatus, message: error.message };
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------

const Isolation = catalogSuite('tRPC batches: calls run side by side, every acknowledged write stays', async (app) => ({
  owner: await app.signUp(),
  fan: await app.signUp(),
}));

for (const [name, link] of [
  ['httpBatchLink', httpBatchLink],
  ['httpBatchStreamLink', httpBatchStreamLink],
] as const) {
  Isolation(
    `${name}: delete, update and publish in one batch: each answer is what happened`,
    async ({ app, owner }) => {
      const client = batchClient(app, owner.token, link);
      const collection = await client.map.create.mutate({ title: 'Doomed', points: [POINT] });
      const [deleted, updated, published] = await Promise.all([
        settle(client.map.delete.mutate({ uuid: collection.uuid })),
        settle(client.map.update.mutate({ uuid: collection.uuid, title: 'Renamed' })),
        settle(client.assembly.publish.mutate(LOADOUT)),
      ]);
      assert.ok(deleted.ok, JSON.stringify(deleted));
      // The update ran after the delete (calls of a batch keep their order for the database): the collection is gone.
      assert.equal(updated.ok ? 'updated' : updated.status, 404);
      assert.ok(published.ok, JSON.stringify(published));
      const left = await app.database.db
        .select()
        .from(mapCollections)
        .where(eq(mapCollections.id, collection.uuid))
        .get();
      assert.is(left, undefined, 'the acknowledged delete holds');
      const item = await app.trpc().assembly.getItem.query({ uuid: published.ok ? published.value.uuid : '' });
      assert.is(item.isVisibility && item.name, LOADOUT.name, 'the acknowledged publish holds');
    },
  );

  Isolation(`${name}: two of each transactional mutation in one batch all succeed`, async ({ app, owner, fan }) => {
    const ownerClient = batchClient(app, owner.token, link);
    const target = await ownerClient.assembly.publish.mutate(LOADOUT);
    const other = await ownerClient.assembly.publish.mutate({ ...LOADOUT, name: 'Second' });
    const client = batchClient(app, fan.token, link);
    const answers = await Promise.all([
      settle(client.map.create.mutate({ title: 'One', points: [POINT] })),
      settle(client.map.create.mutate({ title: 'Two', points: [POINT, { ...POINT, title: 'Bay' }] })),
      settle(client.assembly.like.mutate({ uuid: target.uuid })),
      settle(client.assembly.like.mutate({ uuid: other.uuid })),
      settle(client.assembly.rate.mutate({ uuid: target.uuid, score: 4 })),
      settle(client.assembly.rate.mutate({ uuid: other.uuid, score: 2 })),
    ]);
    for (const answer of answers) assert.ok(answer.ok, JSON.stringify(answer));
    const mine = await client.map.listOwn.query({ pageSize: 100 });
    for (const title of ['One', 'Two'])
      assert.ok(
        mine.data.some((collection) => collection.title === title),
        `collection ${title} is stored`,
      );
    const [first, second] = await Promise.all([
      app.trpc().assembly.getItem.query({ uuid: target.uuid }),
      app.trpc().assembly.getItem.query({ uuid: other.uuid }),
    ]);
    assert.is(JSON.stringify(first).includes('"likes":1'), true, JSON.stringify(first));
    assert.is(JSON.stringify(second).includes('"likes":1'), true, JSON.stringify(second));
  });
}

Isolation(
  'stress: 120 transactional mutations over REST and tRPC batches at once, every acknowledged write verified',
  async ({ app, owner }) => {
    const client = batchClient(app, owner.token);
    const viaTrpc = Array.from({ length: 60 }, (_, i) =>
      settle(client.map.create.mutate({ title: `trpc-${i}`, points: [POINT, POINT] })),
    );
    const viaRest = Array.from({ length: 60 }, (_, i) =>
      app.rest('POST', '/api/map/collection', { token: owner.token, body: { title: `rest-${i}`, points: [POINT] } }),
    );
    const [trpcAnswers, restAnswers] = await Promise.all([Promise.all(viaTrpc), Promise.all(viaRest)]);
    const acknowledged = [
      ...trpcAnswers.flatMap((answer) => (answer.ok ? [{ uuid: answer.value.uuid, points: 2 }] : [])),
      ...restAnswers.flatMap((answer) =>
        answer.status === 200 ? [{ uuid: answer.body.data.uuid as string, points: 1 }] : [],
      ),
    ];
    assert.is(acknowledged.length, 120, 'every call answered 200');
    for (const { uuid, points } of acknowledged) {
      const stored = await app.rest('GET', `/api/map/collection/${uuid}`, { token: owner.token });
      assert.is(stored.status, 200);
      assert.is(stored.body.data.points.length, points);
    }
  },
);

Isolation.run();

// ---------------------------------------------------------------------------------------------

const Limits = serverSuite('tRPC batches: per-call budget and maximum batch size', {
  config: { RATE_LIMIT_GLOBAL: 25, TRPC_MAX_BATCH_SIZE: 10 },
});

Limits(
  "a batch larger than TRPC_MAX_BATCH_SIZE is one 400 in tRPC's error format, and costs nothing",
  async ({ app }) => {
    const paths = Array.from({ length: 11 }, () => 'health.get').join(',');
    const response = await fetch(`${app.url}/trpc/${paths}?batch=1`);
    assert.is(response.status, 400);
    const body = (await response.json()) as {
      error: { json: { message: string; data: { httpStatus: number; code: string } } };
    };
    assert.match(body.error.json.message, /11 calls exceeds the maximum of 10/);
    assert.is(body.error.json.data.httpStatus, 400);
    assert.is(body.error.json.data.code, 'BAD_REQUEST');
    // The real client maps the one error to every call of the batch.
    const client = createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: `${app.url}/trpc`, transformer: superjson, maxItems: 11 })],
    });
    const answers = await Promise.all(Array.from({ length: 11 }, () => settle(client.health.get.query())));
    for (const answer of answers) assert.equal(answer.ok ? 200 : answer.status, 400);
  },
);

Limits('the global per-client budget counts every call of a batch', async ({ app }) => {
  const client = batchClient(app, undefined);
  const first = await Promise.all(Array.from({ length: 10 }, () => settle(client.war.listSeasons.query())));
  assert.ok(first.every((answer) => answer.ok));
  const probe = await fetch(`${app.url}/trpc/health.get`);
  assert.is(probe.headers.get('ratelimit-remaining'), String(25 - 11));
  const second = await Promise.all(Array.from({ length: 10 }, () => settle(client.war.listSeasons.query())));
  assert.ok(second.every((answer) => answer.ok));
  // 21 spent: a batch of 10 would take the client to 31 of 25.
  const third = await Promise.all(Array.from({ length: 10 }, () => settle(client.war.listSeasons.query())));
  for (const answer of third) assert.equal(answer.ok ? 200 : answer.status, 429);
  const limited = await fetch(`${app.url}/trpc/health.get`);
  assert.ok(Number(limited.headers.get('retry-after')) >= 1);
});

Limits.run();
