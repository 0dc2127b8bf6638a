// Forks (issue 19): POST /assembly/fork on both surfaces, the fork's credit (cloningUuid) and the
// original's forkCount on items and lists, access rules, the fork limit, N forks at once (one tRPC
// batch through httpBatchLink, concurrent REST), and the purge of forks and of originals.
import type { TRPCClientError } from '@trpc/client';
import { eq, sql } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { assemblies } from '../../db/schema';
import { JOBS } from '../../server/jobs';
import type { AppRouter } from '../../server/router';
import {
  batchClient,
  HULK,
  importCommunitySample,
  signUpAdmin,
  startTestServer,
  trpcError,
  type TTestServer,
} from '../support/helpers';
import { DAY, publish, readable, type TUser } from './fixtures';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** The item as anyone reads it (REST, no token): forkCount and cloningUuid. */
async function item(app: TTestServer, uuid: string, token?: string) {
  const response = await app.rest('GET', `/api/assembly/item?uuid=${uuid}`, { token });
  assert.is(response.status, 200, response.text);
  return readable(response.body.data);
}

/** What fork_count must be: the forks by other users that are not purged, counted from the rows. */
async function countedForks(app: TTestServer, uuid: string): Promise<{ stored: number; counted: number }> {
  const row = await app.database.db
    .select({ id: assemblies.id, creatorId: assemblies.creatorId, forkCount: assemblies.forkCount })
    .from(assemblies)
    .where(eq(assemblies.uuid, uuid))
    .get();
  const counted = await app.database.db.get<{ n: number }>(
    sql`select count(*) as n from assemblies where cloned_from_id = ${row!.id} and creator_id <> ${row!.creatorId}`,
  );
  return { stored: row!.forkCount, counted: Number(counted?.n ?? 0) };
}

/** A new session (tests that move the clock a month on outlive the first one). */
async function signIn(app: TTestServer, user: TUser): Promise<string> {
  const response = await app.rest('POST', '/api/user/signin', {
    body: { username: user.username, password: user.password },
  });
  assert.is(response.status, 200, response.text);
  return response.body.data.token;
}

const Forks = suite<{ app: TTestServer; owner: TUser; fan: TUser; other: TUser }>(
  'forks: POST /assembly/fork, cloningUuid, forkCount',
);

Forks.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.fan = await context.app.signUp();
  context.other = await context.app.signUp();
});
Forks.after(async ({ app }) => app.stop());

Forks(
  'a fork copies the assembly to the caller with credit; the original counts it (item and list), on REST and tRPC',
  async ({ app, owner, fan, other }) => {
    const original = await publish(app, owner.token, {
      ...HULK,
      name: 'Forkable brawler',
      description: 'Close and personal',
      tags: ['brawler'],
    });
    // The original's item is cached by this read: the fork must drop it.
    assert.equal([(await item(app, original.uuid)).forkCount, (await item(app, original.uuid)).cloningUuid], [0, null]);
    const forked = await app.rest('POST', '/api/assembly/fork', { token: fan.token, body: { uuid: original.uuid } });
    assert.is(forked.status, 200, forked.text);
    const fork = forked.body.data;
    assert.is.not(fork.uuid, original.uuid);
    assert.is(fork['assembly.uuid'], fork.uuid);
    assert.equal(
      [
        fork.cloningUuid,
        fork.userId,
        fork.isOwner,
        fork.name,
        fork.description,
        fork.tags,
        fork.weapons,
        fork.shipId,
        fork.likes,
        fork.views,
        fork.forkCount,
        fork.assembly.visibility,
      ],
      [
        original.uuid,
        fan.id,
        true,
        'Forkable brawler',
        'Close and personal',
        ['brawler'],
        original.weapons,
        'hulk',
        0,
        0,
        0,
        'publicly',
      ],
    );
    assert.equal(fork.assembly.data, original.assembly.data, "the web client's loadout form is copied");
    assert.is((await item(app, fork.uuid)).cloningUuid, original.uuid, "the fork's item credits the original");
    assert.is((await item(app, original.uuid)).forkCount, 1, "the original's cached item was dropped");
    // tRPC: another user's fork.
    const viaTrpc = await app.trpc(other.token).assembly.fork.mutate({ uuid: original.uuid });
    assert.equal(
      [viaTrpc.cloningUuid, viaTrpc.userId, viaTrpc['assembly.uuid']],
      [original.uuid, other.id, viaTrpc.uuid],
    );
    assert.is(readable(await app.trpc().assembly.getItem.query({ uuid: original.uuid })).forkCount, 2);
    // Lists show forkCount too (a cached page is dropped by the fork).
    const listed = (await app.rest('GET', '/api/assembly/list?keyword=forkable')).body.data.data;
    assert.equal(listed.find((entry: { uuid: string }) => entry.uuid === original.uuid).forkCount, 2);
    // A fork of a fork credits its direct parent only.
    const grandchild = (await app.rest('POST', '/api/assembly/fork', { token: other.token, body: { uuid: fork.uuid } }))
      .body.data;
    assert.is(grandchild.cloningUuid, fork.uuid);
    assert.equal([(await item(app, fork.uuid)).forkCount, (await item(app, original.uuid)).forkCount], [1, 2]);
    // Your own: allowed and credited, not counted.
    const own = await app.rest('POST', '/api/assembly/fork', { token: owner.token, body: { uuid: original.uuid } });
    assert.is(own.status, 200, own.text);
    assert.equal([own.body.data.cloningUuid, own.body.data.isOwner], [original.uuid, true]);
    assert.is((await item(app, original.uuid)).forkCount, 2);
    assert.equal(await countedForks(app, original.uuid), { stored: 2, counted: 2 });
    // The fork is its creator's to change; the original is untouched.
    const renamed = await app.rest('POST', '/api/assembly/edit', {
      token: fan.token,
      body: { uuid: fork.uuid, data: { name: 'My brawler' } },
    });
    assert.equal([renamed.status, renamed.body.data.cloningUuid], [200, original.uuid]);
    assert.is((await item(app, original.uuid)).name, 'Forkable brawler');
    assert.is(
      (
        await app.rest('POST', '/api/assembly/edit', {
          token: owner.token,
          body: { uuid: fork.uuid, data: { name: 'Mine' } },
        })
      ).status,
      403,
    );
  },
);

Forks(
  'private originals: 403 without the password (or with a wrong one); with it, or as the creator, a private fork only its creator reads',
  async ({ app, owner, fan, other }) => {
    const hidden = await publish(app, owner.token, { ...HULK, isPublic: false, password: 'open-sesame' });
    const closed = await publish(app, owner.token, { ...HULK, isPublic: false });
    for (const body of [
      { uuid: hidden.uuid },
      { uuid: hidden.uuid, password: 'wrong-guess' },
      { uuid: closed.uuid },
      { uuid: closed.uuid, password: 'open-sesame' },
    ]) {
      const refused = await app.rest('POST', '/api/assembly/fork', { token: fan.token, body });
      assert.is(refused.status, 403, JSON.stringify(body));
      assert.is(refused.body.data.key, 'request.forbidden');
    }
    assert.is((await trpcError(app.trpc(fan.token).assembly.fork.mutate({ uuid: hidden.uuid }))).status, 403);
    assert.is((await trpcError(app.trpc(fan.token).assembly.fork.mutate({ uuid: closed.uuid }))).status, 403);
    const fork = await app.rest('POST', '/api/assembly/fork', {
      token: fan.token,
      body: { uuid: hidden.uuid, password: 'open-sesame' },
    });
    assert.is(fork.status, 200, fork.text);
    assert.equal([fork.body.data.assembly.visibility, fork.body.data.cloningUuid], ['private', hidden.uuid]);
    // Private, without a password: its new creator reads it, nobody else (the original's password does not open it).
    assert.is((await item(app, fork.body.data.uuid, fan.token)).isOwner, true);
    assert.is(
      (await app.rest('GET', `/api/assembly/item?uuid=${fork.body.data.uuid}`, { token: other.token })).status,
      403,
    );
    assert.is(
      (await app.rest('GET', `/api/assembly/item?uuid=${fork.body.data.uuid}&password=open-sesame`)).status,
      403,
    );
    const viaTrpc = await app.trpc(other.token).assembly.fork.mutate({ uuid: hidden.uuid, password: 'open-sesame' });
    assert.equal([viaTrpc.assembly.visibility, viaTrpc.cloningUuid, viaTrpc.isOwner], ['private', hidden.uuid, true]);
    // The creator forks without the password, the closed one too.
    for (const uuid of [hidden.uuid, closed.uuid]) {
      const own = await app.trpc(owner.token).assembly.fork.mutate({ uuid });
      assert.equal([own.assembly.visibility, own.cloningUuid], ['private', uuid]);
    }
    assert.equal(await countedForks(app, hidden.uuid), { stored: 2, counted: 2 });
    assert.equal(await countedForks(app, closed.uuid), { stored: 0, counted: 0 });
    // The credit names a private original; reading it still takes its password.
    assert.is(
      (await app.rest('GET', `/api/assembly/item?uuid=${hidden.uuid}`, { token: other.token })).body.data.isVisibility,
      false,
    );
  },
);

Forks(
  'errors: 400 bad input, 401 without a token, 404 unknown or trashed, on both surfaces',
  async ({ app, owner, fan }) => {
    const { uuid } = await publish(app, owner.token, HULK);
    const trashed = await publish(app, owner.token, HULK);
    await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: trashed.uuid } });
    for (const [label, body] of [
      ['uuid', {}],
      ['uuid', { uuid: 'nope' }],
      ['Unrecognized', { uuid, cloningUuid: uuid }],
      ['password', { uuid, password: 'x'.repeat(300) }],
    ] as const) {
      const response = await app.rest('POST', '/api/assembly/fork', { token: fan.token, body });
      assert.is(response.status, 400, `${label}: ${response.text}`);
      assert.match(response.text, label);
      assert.is(response.body.data.key, 'request.bad');
    }
    assert.is((await trpcError(app.trpc(fan.token).assembly.fork.mutate({ uuid: 'nope' }))).status, 400);
    assert.is(
      (await trpcError(app.trpc(fan.token).assembly.fork.mutate({ uuid, extra: 1 } as { uuid: string }))).status,
      400,
    );
    const anonymous = await app.rest('POST', '/api/assembly/fork', { body: { uuid } });
    assert.equal([anonymous.status, anonymous.body.data.key], [401, 'user.invalid']);
    assert.is((await trpcError(app.trpc().assembly.fork.mutate({ uuid }))).status, 401);
    for (const target of [UNKNOWN, trashed.uuid]) {
      const missing = await app.rest('POST', '/api/assembly/fork', { token: fan.token, body: { uuid: target } });
      assert.equal([missing.status, missing.body.data.key], [404, 'request.notFound']);
      assert.is((await trpcError(app.trpc(fan.token).assembly.fork.mutate({ uuid: target }))).status, 404);
      // The creator of a trashed assembly cannot fork it either: restore it first.
      assert.is(
        (await app.rest('POST', '/api/assembly/fork', { token: owner.token, body: { uuid: target } })).status,
        404,
      );
    }
    assert.equal(await countedForks(app, uuid), { stored: 0, counted: 0 }, 'refused forks change nothing');
  },
);

Forks('10 forks in one tRPC batch and 10 concurrent REST forks add exactly 20', async ({ app, owner }) => {
  const original = await publish(app, owner.token, { ...HULK, name: 'Popular' });
  const batcher = await app.signUp();
  const { client, sent } = batchClient(app.url, { token: batcher.token, maxItems: 10 });
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => client.assembly.fork.mutate({ uuid: original.uuid })),
  );
  assert.is(sent.requests, 1, 'the ten forks went out as one batch');
  assert.is(new Set(answers.map((answer) => answer.uuid)).size, 10);
  assert.ok(answers.every((answer) => answer.cloningUuid === original.uuid));
  assert.is((await item(app, original.uuid)).forkCount, 10);
  const users = await Promise.all(Array.from({ length: 5 }, () => app.signUp()));
  const responses = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      app.rest('POST', '/api/assembly/fork', { token: users[i % 5]!.token, body: { uuid: original.uuid } }),
    ),
  );
  assert.equal(
    responses.map((response) => response.status),
    Array(10).fill(200),
  );
  assert.is((await item(app, original.uuid)).forkCount, 20);
  assert.equal(await countedForks(app, original.uuid), { stored: 20, counted: 20 });
});

Forks(
  "purge: a trashed fork still counts until purged; purging an original clears its forks' credit",
  async ({ app, owner, fan, other }) => {
    const original = await publish(app, owner.token, { ...HULK, name: 'Parent' });
    const kept = (await app.rest('POST', '/api/assembly/fork', { token: other.token, body: { uuid: original.uuid } }))
      .body.data;
    const binned = (await app.rest('POST', '/api/assembly/fork', { token: fan.token, body: { uuid: original.uuid } }))
      .body.data;
    const ownBinned = (
      await app.rest('POST', '/api/assembly/fork', { token: owner.token, body: { uuid: original.uuid } })
    ).body.data;
    assert.is((await item(app, original.uuid)).forkCount, 2);
    for (const [token, uuid] of [
      [fan.token, binned.uuid],
      [owner.token, ownBinned.uuid],
    ] as const) {
      assert.is((await app.rest('POST', '/api/assembly/delete', { token, body: { uuid } })).status, 200);
    }
    assert.is((await item(app, original.uuid)).forkCount, 2, 'a trashed fork may come back: it still counts');
    const job = JOBS.find((candidate) => candidate.name === 'assembly-trash-purge')!;
    app.clock.advance(31 * DAY);
    const first = (await job.run(app.database.db, app.app.deps)) as { uuids: string[] };
    assert.ok(first.uuids.includes(binned.uuid) && first.uuids.includes(ownBinned.uuid));
    // Read through the cache (filled above): the purge dropped the original's item.
    assert.is(
      (await item(app, original.uuid)).forkCount,
      1,
      'the purged fork by another user is taken off; the own one was never counted',
    );
    assert.equal(await countedForks(app, original.uuid), { stored: 1, counted: 1 });
    // The original goes: its fork's credit is cleared (its cached item dropped), the fork stays.
    // (31 days on, the sessions of before have expired.)
    const ownerToken = await signIn(app, owner);
    const otherToken = await signIn(app, other);
    assert.is(
      (await item(app, kept.uuid)).cloningUuid,
      original.uuid,
      'credited while the original is in the trash too',
    );
    assert.is(
      (await app.rest('POST', '/api/assembly/delete', { token: ownerToken, body: { uuid: original.uuid } })).status,
      200,
    );
    assert.is((await item(app, kept.uuid)).cloningUuid, original.uuid);
    app.clock.advance(31 * DAY);
    const second = (await job.run(app.database.db, app.app.deps)) as { uuids: string[] };
    assert.ok(second.uuids.includes(original.uuid), JSON.stringify(second));
    assert.is((await item(app, kept.uuid)).cloningUuid, null);
    assert.is(readable(await app.trpc(otherToken).assembly.getItem.query({ uuid: kept.uuid })).cloningUuid, null);
    // A fork and its original purged together: nothing left to count, nothing fails.
    const ownerAgain = await signIn(app, owner);
    const fanAgain = await signIn(app, fan);
    const parent = await publish(app, ownerAgain, { ...HULK, name: 'Both go' });
    const child = (await app.rest('POST', '/api/assembly/fork', { token: fanAgain, body: { uuid: parent.uuid } })).body
      .data;
    assert.is(
      (await app.rest('POST', '/api/assembly/delete', { token: fanAgain, body: { uuid: child.uuid } })).status,
      200,
    );
    assert.is(
      (await app.rest('POST', '/api/assembly/delete', { token: ownerAgain, body: { uuid: parent.uuid } })).status,
      200,
    );
    app.clock.advance(31 * DAY);
    const third = (await job.run(app.database.db, app.app.deps)) as { uuids: string[] };
    assert.ok(third.uuids.includes(parent.uuid) && third.uuids.includes(child.uuid));
  },
);

Forks.run();

const Limit = suite<{ app: TTestServer; owner: TUser; original: string }>('forks: the per-account fork limit');

Limit.before(async (context) => {
  context.app = await startTestServer({ RATE_LIMIT_FORKS: 3 });
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.original = (await publish(context.app, context.owner.token, { ...HULK, name: 'Limited' })).uuid;
});
Limit.after(async ({ app }) => app.stop());

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
