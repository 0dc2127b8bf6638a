/** The REST adapter's own parts, held to what tRPC's adapter gives: request targets, procedure calls, serialised answers. */
import type { AnyProcedure, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { z } from 'zod';
import { createContextInner } from '../../server/context';
import { AppError, toPublicError } from '../../server/errors';
import { authedProcedure, publicProcedure, router } from '../../server/trpc';
import type { TAuth } from '../../server/auth';
import { procedureCall } from '../../server/rest/procedure-call';
import { transformer } from '../../server/transformer';
import { splitRequestTarget } from '../../server/rest/url';

const Url = suite('request target split (fast path of the REST adapter)');

Url('gives exactly what WHATWG URL parsing gives, fast path or not', () => {
  const targets = [
    '/',
    '/api/assembly/list',
    '/api/assembly/list?page=2&keyword=a%20b+c',
    '/api/../x',
    '/api/./x',
    '/api/x/..',
    '//evil/x',
    '/api/x/',
    '/api/%41',
    '/api/x#frag',
    '/api/x?q=1#f',
    '/api/openapi.json',
    '/a\\b',
    '/api/x..y',
    '/.hidden',
    "/api/a'b",
    '/api/a|b',
    '/api/a{b}',
    '/api/[x]',
    '/api/a;b=c:d@e',
    '',
    'http://other.example/api/x?y=1',
    '/api/é',
    '/api/x?a=%zz&a=2',
  ];
  for (const target of targets) {
    const url = new URL(target, 'http://localhost');
    const split = splitRequestTarget(target);
    assert.is(split.pathname, url.pathname, target);
    assert.equal([...new URLSearchParams(split.search)], [...url.searchParams], target);
  }
});

Url('plain targets keep their raw query string', () => {
  assert.equal(splitRequestTarget('/api/drop/12?refresh=1&x=a+b'), {
    pathname: '/api/drop/12',
    search: 'refresh=1&x=a+b',
  });
  assert.equal(splitRequestTarget('/api/health'), { pathname: '/api/health', search: '' });
});

Url.run();

const Chain = suite('REST procedure calls (server/rest/procedure-call.ts) give what tRPC gives');

/** A router using our own builders: validators, the auth middleware (it extends ctx) and each way a call can fail. */
function chainRouter() {
  return router({
    echo: publicProcedure
      .input(z.object({ n: z.coerce.number().int().min(1) }))
      .output(z.object({ doubled: z.number(), requestId: z.string() }))
      .query(({ input, ctx }) => ({
        doubled: input.n * 2,
        requestId: ctx.requestId,
        dropped: 'not in the output schema',
      })),
    whoami: authedProcedure
      .output(z.object({ user: z.string(), session: z.string() }))
      .query(({ ctx }) => ({ user: ctx.user.username, session: ctx.sessionId })),
    refused: publicProcedure.query(() => {
      throw new AppError('CONFLICT', 'taken', { data: { field: 'name' } });
    }),
    crashed: publicProcedure.query(() => {
      throw new Error('database on fire');
    }),
    badOutput: publicProcedure
      .output(z.object({ ok: z.boolean() }))
      .query(() => ({ ok: 'yes' }) as unknown as { ok: boolean }),
    silent: publicProcedure.use((() => undefined) as never).query(() => 'never reached'),
  });
}

/** What the REST handler passes to a procedure: the context (without a database: these procedures use none) and a lazy input. */
function callOptions(path: string, input: unknown, auth: TAuth | null) {
  return {
    path,
    getRawInput: async () => input,
    ctx: createContextInner({ db: undefined as never, deps: undefined as never, auth, requestId: 'req-1' }),
    type: 'query' as const,
    signal: undefined,
    batchIndex: 0,
  };
}

async function outcome(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return { data: await call() };
  } catch (error) {
    const described = toPublicError(error, 'req-1');
    return {
      error: {
        status: described.status,
        message: described.message,
        data: described.data,
        code: (error as TRPCError).code,
      },
    };
  }
}

Chain('same data, ctx, validation and errors as the procedure called through tRPC', async () => {
  const procedures = chainRouter()._def.procedures as Record<string, AnyProcedure>;
  const signedIn = { user: { id: 'u1', username: 'Anne' }, sessionId: 's1' } as unknown as TAuth;
  // [procedure, raw input, session, the status both must come to]
  const cases: [string, unknown, TAuth | null, number][] = [
    ['echo', { n: '21' }, null, 200],
    ['echo', { n: '0' }, null, 400],
    ['echo', {}, null, 400],
    ['whoami', undefined, signedIn, 200],
    ['whoami', undefined, null, 401],
    ['refused', undefined, null, 409],
    ['crashed', undefined, null, 500],
    ['badOutput', undefined, null, 500],
    ['silent', undefined, null, 500],
  ];
  for (const [path, input, auth, status] of cases) {
    const viaTrpc = await outcome(() => procedures[path]!(callOptions(path, input, auth)));
    const viaRest = await outcome(() => procedureCall(procedures[path]!)(callOptions(path, input, auth)));
    const label = `${path} ${JSON.stringify(input)}`;
    assert.equal(viaRest, viaTrpc, label);
    assert.is((viaRest as { error?: { status: number } }).error?.status ?? 200, status, label);
  }
  assert.equal(await outcome(() => procedureCall(procedures.echo!)(callOptions('echo', { n: 4 }, null))), {
    data: { doubled: 8, requestId: 'req-1' },
  });
  assert.equal(await outcome(() => procedureCall(procedures.refused!)(callOptions('refused', undefined, null))), {
    error: { status: 409, message: 'taken', data: { field: 'name', key: 'request.conflict' }, code: 'CONFLICT' },
  });
});

Chain.run();

const Wire = suite('tRPC answers (server/transformer.ts) are what superjson would send');

Wire('plain JSON is sent as { json } unwalked; anything superjson annotates still goes through superjson', () => {
  const shared = { name: 'shared', color: '#fff' };
  const values: unknown[] = [
    {
      items: [{ uuid: 'a', tags: ['x'], rating: { average: null, count: 0, smoothed: 3 } }],
      pagination: { page: 1, total: 1 },
      truncated: false,
    },
    [1, 'two', true, null, { nested: [[]] }],
    'text',
    0,
    -1.5,
    Object.assign(Object.create(null) as object, { bare: 'prototype-less object' }),
    // superjson annotates all of these; the transformer must hand them to it.
    { at: new Date(0) },
    { missing: undefined },
    { n: Number.NaN },
    { n: Number.POSITIVE_INFINITY },
    { n: -0 },
    { big: 10n },
    { map: new Map([['k', 1]]) },
    { set: new Set([1]) },
    // biome-ignore lint/suspicious/noSparseArray: a sparse array is the input under test
    [1, , 3],
    { twice: [shared, shared] },
    undefined,
  ];
  for (const value of values) {
    const label = String(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
    const wire = JSON.stringify(transformer.output.serialize(value));
    // The same bytes on the wire, so a client decoding with superjson gets the same value.
    assert.is(wire, JSON.stringify(superjson.serialize(value)), label);
  }
  const plain = { list: [{ id: 1 }] };
  assert.is((transformer.output.serialize(plain) as { json: unknown }).json, plain, 'a plain answer is not copied');
  let deep: unknown = 'leaf';
  for (let level = 0; level < 100; level++) deep = [deep];
  assert.is(
    JSON.stringify(transformer.output.serialize(deep)),
    JSON.stringify(superjson.serialize(deep)),
    'very deep nesting falls back to superjson',
  );
});

Wire.run();
