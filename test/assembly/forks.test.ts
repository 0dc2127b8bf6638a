// Forks (issue 19): POST /assembly/fork on both surfaces, the fork's credit (cloningUuid) and the
// original's forkCount on items and lists, access rules, errors, N forks at once (one tRPC batch
// through httpBatchLink, concurrent REST). The fork limit is in forks-limit.test.ts, the purge of
// forks and of originals in forks-purge.test.ts.
import * as assert from 'uvu/assert';
import { HULK } from '../support/community-sample';
import { batchClient, trpcError } from '../support/http-clients';
import { countedForks, readItem as item, ownerFanAndOtherSuite, publish, readable, UNKNOWN } from './fixtures';

const Forks = ownerFanAndOtherSuite('forks: POST /assembly/fork, cloningUuid, forkCount');

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

Forks.run();
