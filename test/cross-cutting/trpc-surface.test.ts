/**
 * The native tRPC surface as TypeScript front ends use it: the real @trpc/client with its batch links.
 * Calls of one batch run side by side; every acknowledged write must be there afterwards, every limit
 * holds per call, and the fast path (server/trpc-http/handler.ts) answers what tRPC's own adapter
 * answers, byte for byte where nothing differs by design.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTRPCClient, httpBatchLink, httpBatchStreamLink, httpLink, TRPCClientError } from '@trpc/client';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import { eq } from 'drizzle-orm';
import superjson from 'superjson';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { mapCollections } from '../../db/schema';
import { createContext, type TContext } from '../../server/context';
import type { AppRouter } from '../../server/router';
import { appRouter } from '../../server/router';
import { HULK, importCommunitySample, signUpAdmin, startTestServer, type TTestServer } from '../support/helpers';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
type TLink = typeof httpBatchLink | typeof httpBatchStreamLink;

const LOADOUT = HULK;

const POINT = { title: 'Cove', latitude: 10, longitude: 20 };

function batchClient(app: TTestServer, token: string | undefined, link: TLink = httpBatchLink) {
  return createTRPCClient<AppRouter>({
    links: [
      link({
        url: `${app.url}/trpc`,
        transformer: superjson,
        maxItems: 10,
        headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
      }),
    ],
  });
}

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

async function withCatalog(app: TTestServer): Promise<void> {
  await importCommunitySample(app, await signUpAdmin(app));
}

// ---------------------------------------------------------------------------------------------

const Isolation = suite<{ app: TTestServer; owner: TUser; fan: TUser }>(
  'tRPC batches: calls run side by side, every acknowledged write stays',
);

Isolation.before(async (context) => {
  context.app = await startTestServer();
  await withCatalog(context.app);
  context.owner = await context.app.signUp();
  context.fan = await context.app.signUp();
});
Isolation.after(async ({ app }) => app.stop());

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

const Limits = suite<{ app: TTestServer }>('tRPC batches: per-call budget and maximum batch size');

Limits.before(async (context) => {
  context.app = await startTestServer({ RATE_LIMIT_GLOBAL: 25, TRPC_MAX_BATCH_SIZE: 10 });
});
Limits.after(async ({ app }) => app.stop());

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

// ---------------------------------------------------------------------------------------------

const Wire = suite<{ app: TTestServer; reference: { url: string; close: () => Promise<void> }; user: TUser }>(
  "tRPC wire: the fast path answers what tRPC's adapter answers",
);

/** The same router, database and services behind tRPC's own Node adapter: the reference. */
async function serveReference(app: TTestServer): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    void nodeHTTPRequestHandler({
      router: appRouter,
      req,
      res,
      path: url.pathname.slice('/trpc/'.length),
      createContext: () =>
        createContext({
          req,
          db: app.database.db,
          deps: app.app.deps,
          identity: { requestId: 'reference', clientIp: '127.0.0.1' },
        }),
      responseMeta: ({ ctx }) => ({ headers: (ctx as TContext | undefined)?.responseHeaders ?? {} }),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

Wire.before(async (context) => {
  context.app = await startTestServer();
  await withCatalog(context.app);
  context.user = await context.app.signUp();
  context.reference = await serveReference(context.app);
});
Wire.after(async ({ app, reference }) => {
  await reference.close();
  await app.stop();
});

const input = (value: unknown) => encodeURIComponent(JSON.stringify(superjson.serialize(value)));
const batchInput = (...values: unknown[]) =>
  encodeURIComponent(JSON.stringify(Object.fromEntries(values.map((value, i) => [i, superjson.serialize(value)]))));

Wire(
  'queries and mutations, single and batched, successes and errors: same status and body',
  async ({ app, reference, user }) => {
    const published = await app.trpc(user.token).assembly.publish.mutate(LOADOUT);
    const cases: { method: 'GET' | 'POST'; target: string; body?: string; token?: boolean }[] = [
      { method: 'GET', target: '/trpc/health.get' },
      { method: 'GET', target: `/trpc/assembly.getItem?input=${input({ uuid: published.uuid })}` },
      {
        method: 'GET',
        target: `/trpc/assembly.getItem?input=${input({ uuid: '00000000-0000-4000-8000-000000000000' })}`,
      },
      { method: 'GET', target: `/trpc/assembly.getItem?input=${input({ uuid: 'short' })}` },
      {
        method: 'GET',
        target: `/trpc/war.listSeasons,assembly.getItem,user.me?batch=1&input=${batchInput(undefined, { uuid: published.uuid }, undefined)}`,
      },
      { method: 'GET', target: `/trpc/user.me,user.me?batch=1&input=${batchInput(undefined, undefined)}`, token: true },
      { method: 'GET', target: `/trpc/assembly.list?input=${input({ pageSize: 500 })}` },
      {
        method: 'POST',
        target: '/trpc/map.create',
        body: JSON.stringify(superjson.serialize({ title: '' })),
        token: true,
      },
      {
        method: 'POST',
        target: '/trpc/map.create?batch=1',
        body: JSON.stringify({ 0: superjson.serialize({ title: '' }) }),
      },
      {
        method: 'POST',
        target: '/trpc/assembly.rate?batch=1',
        body: JSON.stringify({ 0: superjson.serialize({ uuid: published.uuid, score: 9 }) }),
        token: true,
      },
      // What the fast path leaves to the adapter, through the app: the same answers as from the adapter alone.
      { method: 'GET', target: '/trpc/no.such.procedure' },
      { method: 'GET', target: '/trpc/map.create' },
      { method: 'GET', target: '/trpc/assembly.getItem?input=%7Bnot-json' },
      { method: 'GET', target: `/trpc/assembly.getItem,map.create?batch=1&input=${batchInput({}, {})}` },
      { method: 'POST', target: '/trpc/health.get', body: '{}' },
      // Inputs the transformer refuses (trpc-input.test.ts): the same plain 400 whichever reads them.
      { method: 'GET', target: '/trpc/assembly.list?input=null' },
      {
        method: 'GET',
        target: `/trpc/assembly.list?input=${encodeURIComponent('{"json":{"page":1},"meta":{"values":{"page":"bigint"}}}')}`,
      },
      {
        method: 'POST',
        target: '/trpc/map.create?batch=1',
        body: JSON.stringify({ 0: { json: { title: 'x' }, meta: { values: { title: ['undefined'] } } } }),
        token: true,
      },
      {
        method: 'GET',
        target: `/trpc/assembly.list,war.listSeasons?batch=1&input=${encodeURIComponent('{"0":null}')}`,
      },
      // Access is checked before the input is read: without a token, a 401.
      { method: 'POST', target: '/trpc/map.create', body: 'null' },
    ];
    // Both answer every case (an item read counts a view each time): compare all but the view count and request ids.
    const comparable = (text: string) => text.replace(/"requestId":"[^"]*"/g, '').replace(/"views":\d+/g, '');
    for (const call of cases) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (call.method === 'GET') delete headers['content-type'];
      if (call.token) headers.authorization = `Bearer ${user.token}`;
      const [ours, theirs] = await Promise.all(
        [app.url, reference.url].map((base) =>
          fetch(`${base}${call.target}`, { method: call.method, headers, body: call.body }),
        ),
      );
      const [oursText, theirsText] = await Promise.all([ours!.text(), theirs!.text()]);
      assert.is(ours!.status, theirs!.status, `${call.method} ${call.target}: ${oursText} / ${theirsText}`);
      assert.is(comparable(oursText), comparable(theirsText), `${call.method} ${call.target}`);
      assert.is(ours!.headers.get('content-type'), theirs!.headers.get('content-type'));
    }
  },
);

Wire(
  "a procedure without input is called without input, on the wire and in the client's type",
  async ({ app, user }) => {
    const health = await fetch(`${app.url}/trpc/health.get`);
    assert.is(health.status, 200);
    assert.is((await app.trpc().health.get.query()).status, 'ok');
    const me = await app.trpc(user.token).user.me.query();
    assert.is(me.username, user.username);
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${app.url}/trpc`, transformer: superjson })],
    });
    assert.ok(Array.isArray((await client.war.listSeasons.query()).items));
    // Inputs whose every field is optional are optional themselves.
    assert.is((await client.assembly.list.query()).pagination.page, 1);
    assert.is((await client.drop.listHistory.query()).pagination.pageSize, 10);
    const optionalButRequired = Object.entries(
      appRouter._def.procedures as unknown as Record<
        string,
        { _def: { inputs: { safeParse(v: unknown): { success: boolean } }[] } }
      >,
    )
      .filter(([, procedure]) => {
        const input = procedure._def.inputs[0];
        return input?.safeParse({}).success && !input.safeParse(undefined).success;
      })
      .map(([path]) => path);
    assert.equal(optionalButRequired, [], 'procedures that accept {} but not a missing input');
  },
);

Wire(
  'anonymous queries are answered from stored answers, dropped by the writes that change them',
  async ({ app, user }) => {
    const target = `${app.url}/trpc/assembly.list?input=${input({ pageSize: 5 })}`;
    const first = await fetch(target);
    assert.is(first.headers.get('age'), null, 'computed');
    const firstText = await first.text();
    // The read cache stores what is offered twice (its doorkeeper): the second call is computed again, and stored.
    assert.is((await fetch(target)).headers.get('age'), null, 'computed again');
    app.clock.advance(5_000);
    const second = await fetch(target);
    assert.is(second.headers.get('age'), '5', 'stored, 5 s old');
    assert.is(await second.text(), firstText);
    // In a batch too, beside a call that is never stored (a signed-in one would not be: see below).
    const batch = await batchClient(app, undefined).assembly.list.query({ pageSize: 5 });
    assert.equal(
      superjson.serialize(batch).json,
      (JSON.parse(firstText) as { result: { data: { json: unknown } } }).result.data.json,
    );
    // A signed-in caller is never served a stored answer.
    const signedIn = await fetch(target, { headers: { authorization: `Bearer ${user.token}` } });
    assert.is(signedIn.headers.get('age'), null);
    // A publish invalidates the list scope: the next anonymous call is computed again and shows it.
    await app.trpc(user.token).assembly.publish.mutate({ ...LOADOUT, name: 'Fresh one' });
    const after = await fetch(target);
    assert.is(after.headers.get('age'), null);
    assert.match(await after.text(), /Fresh one/);
  },
);

Wire.run();
