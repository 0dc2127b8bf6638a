// Forks (issue 19): the purge of forks and of originals. A trashed fork still counts until the
// trash purge takes it; purging an original clears its forks' credit (cloningUuid).
import * as assert from 'uvu/assert';
import { JOBS } from '../../server/jobs';
import type { TTestServer } from '../support/helpers';
import { HULK } from '../support/community-sample';
import { countedForks, DAY, readItem as item, ownerFanAndOtherSuite, publish, readable, type TUser } from './fixtures';

/** A new session (tests that move the clock a month on outlive the first one). */
async function signIn(app: TTestServer, user: TUser): Promise<string> {
  const response = await app.rest('POST', '/api/user/signin', {
    body: { username: user.username, password: user.password },
  });
  assert.is(response.status, 200, response.text);
  return response.body.data.token;
}

const Purge = ownerFanAndOtherSuite('forks: the purge of forks and of originals');

Purge(
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

Purge.run();
