// Opaque JSON (issue 31, item 1): the web client's JSON an assembly keeps verbatim (weapon modifications,
// wheel and warehouse data, ...) is plain JSON at most MAX_JSON_DEPTH levels deep, or a 400 naming the
// field, on both surfaces. An assembly stored before that rule with JSON nested 2,500 levels deep (5 KB)
// broke native tRPC for every reader (superjson's serializer ran out of stack): lists, items, the
// creator's list and a fork, whose write was committed before its answer failed. Every read answers it
// on both surfaces, and a fork, which would store it again, is refused before it writes.
import { eq } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { assemblies } from '../../db/schema';
import { jsonProblem, MAX_JSON_DEPTH } from '../../server/schemas';
import { startTestServer, type TTestServer } from '../support/helpers';
import { importCommunitySample } from '../support/community-sample';
import { trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { BRIGANTINE, publish, type TUser } from './fixtures';

/** An array nested `levels` deep: [[[...]]]. */
function nested(levels: number): unknown {
  return JSON.parse('['.repeat(levels) + ']'.repeat(levels));
}

/** The client form of a publish with `value` as its weapon modifications and its wheel's data. */
function clientForm(value: unknown) {
  return {
    name: 'Deep',
    assembly: { visibility: 'publicly', data: { shipSlot: { id: 'brigantine' }, weaponModifications: value } },
    wheel: { data: value },
  };
}

const Json = suite<{ app: TTestServer; user: TUser }>(
  'opaque JSON: depth and type at the input, every read answers on both surfaces',
);

Json.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.user = await context.app.signUp();
});

Json.after(async ({ app }) => {
  await app.stop();
});

Json(
  'jsonProblem: plain JSON up to the depth passes; deeper, holes, non-finite numbers and non-JSON values do not',
  () => {
    assert.is(jsonProblem(nested(MAX_JSON_DEPTH)), undefined);
    assert.is(jsonProblem({ a: [1, 'x', null, true, { b: {} }] }), undefined);
    assert.is(jsonProblem(nested(MAX_JSON_DEPTH + 1)), `must be JSON nested at most ${MAX_JSON_DEPTH} levels deep`);
    assert.is(jsonProblem(nested(100_000)), `must be JSON nested at most ${MAX_JSON_DEPTH} levels deep`);
    // biome-ignore lint/suspicious/noSparseArray: a sparse array is the input under test
    for (const value of [[1, , 2], Number.NaN, Infinity, new Date(), new Map(), 1n, undefined, () => 1]) {
      assert.ok(jsonProblem(value), String(value));
    }
  },
);

Json(
  'deeper than the limit, at the input: a 400 naming the field, nothing stored (REST and tRPC)',
  async ({ app, user }) => {
    const before = await app.database.db.$count(assemblies);
    for (const depth of [MAX_JSON_DEPTH + 1, 2500]) {
      const response = await app.rest('POST', '/api/assembly/publish', {
        token: user.token,
        body: clientForm(nested(depth)),
      });
      assert.is(response.status, 400, response.text);
      const paths = response.body.data.issues.map((issue: { path: string }) => issue.path);
      assert.ok(paths.includes('assembly.data.weaponModifications'), JSON.stringify(paths));
      assert.ok(paths.includes('wheel.data'), JSON.stringify(paths));
      assert.match(response.body.message, new RegExp(`nested at most ${MAX_JSON_DEPTH} levels deep`));
      // As tRPC's wire format carries it (superjson's own client would recurse on 2,500 levels before sending).
      const viaTrpc = await fetch(`${app.url}/trpc/assembly.publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
        body: JSON.stringify({ json: clientForm(nested(depth)) }),
      });
      assert.is(viaTrpc.status, 400);
      assert.match(await viaTrpc.text(), /weaponModifications: must be JSON nested at most/);
    }
    // A superjson client can send what JSON cannot carry: refused too, not stored as something else.
    for (const value of [new Date(0), new Map([['a', 1]]), 10n]) {
      const viaTrpc = await trpcError(app.trpc(user.token).assembly.publish.mutate(clientForm(value) as never));
      assert.is(viaTrpc.status, 400, String(value));
    }
    assert.is(await app.database.db.$count(assemblies), before);
    // At the limit it is kept and answered back as given.
    const atLimit = await publish(app, user.token, clientForm(nested(MAX_JSON_DEPTH)));
    const read = await app.trpc().assembly.getItem.query({ uuid: atLimit.uuid });
    assert.equal((read as { wheel: { data: unknown } }).wheel.data, nested(MAX_JSON_DEPTH));
  },
);

Json(
  'an assembly stored before the rule, 2,500 levels deep: lists, the item and the creator list answer on tRPC and REST; a fork is a 409 that writes nothing',
  async ({ app, user }) => {
    const legacy = await publish(app, user.token, { ...BRIGANTINE, name: 'Legacy deep' });
    const deep = nested(2500);
    const row = await app.database.db
      .select({ client: assemblies.client })
      .from(assemblies)
      .where(eq(assemblies.uuid, legacy.uuid))
      .get();
    const client = { ...JSON.parse(row!.client), wheel: { data: deep } };
    await app.database.db
      .update(assemblies)
      .set({ client: JSON.stringify(client) })
      .where(eq(assemblies.uuid, legacy.uuid));

    const anonymous = app.trpc();
    for (const sort of ['latest', 'hottest', 'rating', 'updated'] as const) {
      const list = await anonymous.assembly.list.query({ sort });
      assert.ok(
        list.data.some((item) => item.uuid === legacy.uuid),
        sort,
      );
    }
    const item = await anonymous.assembly.getItem.query({ uuid: legacy.uuid });
    assert.is(item.uuid, legacy.uuid);
    const mine = await app.trpc(user.token).user.assemblies.mine.query({});
    assert.ok(mine.data.some((entry) => entry.uuid === legacy.uuid));

    // A fork would store it again: refused (409) before anything is written, on both surfaces; no 500 after a commit.
    const fan = await app.signUp();
    const before = await app.database.db.$count(assemblies);
    const viaTrpc = await trpcError(app.trpc(fan.token).assembly.fork.mutate({ uuid: legacy.uuid }));
    assert.is(viaTrpc.status, 409);
    assert.match(viaTrpc.message, /nested deeper than 32 levels/);
    const viaRestFork = await app.rest('POST', '/api/assembly/fork', { token: fan.token, body: { uuid: legacy.uuid } });
    assert.is(viaRestFork.status, 409, viaRestFork.text);
    assert.is(await app.database.db.$count(assemblies), before);
    // A fork of an assembly within the limit is made as before.
    const fine = await publish(app, user.token, clientForm(nested(MAX_JSON_DEPTH)));
    assert.is((await app.trpc(fan.token).assembly.fork.mutate({ uuid: fine.uuid })).name, 'Deep');
    // What the client reads back is what was stored, on both surfaces.
    assert.equal((item as { wheel: { data: unknown } }).wheel.data, deep);
    const viaRest = await app.rest('GET', `/api/assembly/item?uuid=${legacy.uuid}`);
    assert.is(viaRest.status, 200);
  },
);

Json.run();
