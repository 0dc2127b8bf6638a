/**
 * The native tRPC surface, its wire: the fast path (server/trpc-http/handler.ts) answers what tRPC's own
 * adapter answers, byte for byte where nothing differs by design; procedures without input, and the stored
 * answers of anonymous queries. Batches: trpc-surface.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTRPCClient, httpLink } from '@trpc/client';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import superjson from 'superjson';
import * as assert from 'uvu/assert';
import { createContext, type TContext } from '../../server/context';
import type { AppRouter } from '../../server/router';
import { appRouter } from '../../server/router';
import type { TTestServer } from '../support/helpers';
import { catalogSuite } from '../assembly/fixtures';
import { batchClient, LOADOUT } from './trpc-surface-fixtures';

const Wire = catalogSuite("tRPC wire: the fast path answers what tRPC's adapter answers", async (app) => ({
  user: await app.signUp(),
  reference: await serveReference(app),
}));
Wire.after(async ({ reference }) => reference.close());

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
