// Issue 31: the nearby search reads who may see a point from `readable_by_anyone`, which the triggers of
// migration 0018 keep in the statement of each change. Every write path that changes visibility keeps
// the answers exact, for anonymous callers, a user a collection is shared with, and the owner, on both
// surfaces (REST over HTTP and the tRPC client): a collection made public or private, a point moved
// between collections (the move endpoints and the contract's embedded points), an orphan point made
// public or private, points created into a collection, deleted with it.
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { suite } from '../support/suite';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
const Visibility = suite<{ app: TTestServer; owner: TUser; friend: TUser }>(
  'map points nearby: visibility changes keep the answers exact',
);

const PLACE = { latitude: -20, longitude: -70 };
const near = (km: number) => ({ latitude: PLACE.latitude + km / 111.2, longitude: PLACE.longitude });

Visibility.before(async (context) => {
  context.app = await startTestServer();
  context.owner = await context.app.signUp();
  context.friend = await context.app.signUp();
});
Visibility.after(async ({ app }) => app.stop());

/** The titles each caller finds near PLACE, nearest first, asked over REST and over tRPC: both must agree. */
async function seen(app: TTestServer, token?: string): Promise<string[]> {
  const query = `latitude=${PLACE.latitude}&longitude=${PLACE.longitude}&radius=10&limit=100`;
  const overRest = await app.rest('GET', `/api/map/point/nearby?${query}`, { token });
  assert.is(overRest.status, 200, overRest.text);
  const overTrpc = await app.trpc(token).map.points.nearby.query({ ...PLACE, radius: 10, limit: 100 });
  const titles = overRest.body.data.points.map((point: { title: string }) => point.title);
  assert.equal(
    overTrpc.points.map((point) => point.title),
    titles,
    'REST and tRPC agree',
  );
  assert.equal([overRest.body.data.truncated, overTrpc.truncated], [false, false]);
  return titles;
}

Visibility(
  'every change of visibility shows in the next answer, for each caller, on both surfaces',
  async ({ app, owner, friend }) => {
    const trpc = app.trpc(owner.token);
    const expect = async (step: string, anyone: string[], friendSees: string[], ownerSees: string[]) => {
      assert.equal(await seen(app), anyone, `${step}: anonymous`);
      assert.equal(await seen(app, friend.token), friendSees, `${step}: the friend`);
      assert.equal(await seen(app, owner.token), ownerSees, `${step}: the owner`);
    };

    const hidden = await trpc.map.create.mutate({
      title: 'Hidden',
      isPublic: false,
      sharedUsers: [friend.username],
      points: [{ title: 'h1', ...near(1) }],
    });
    await expect('a private collection shared with the friend', [], ['h1'], ['h1']);
    await trpc.map.update.mutate({ uuid: hidden.uuid, isPublic: true });
    await expect('made public', ['h1'], ['h1'], ['h1']);
    await app.rest('PUT', `/api/map/collection/${hidden.uuid}`, { token: owner.token, body: { public: 0 } });
    await expect("made private again (the web client's form)", [], ['h1'], ['h1']);

    const orphan = await trpc.map.points.create.mutate({ title: 'o1', ...near(2) });
    await expect('a private orphan', [], ['h1'], ['h1', 'o1']);
    await trpc.map.points.update.mutate({ uuid: orphan.uuid, public: true });
    await expect('the orphan made public', ['o1'], ['h1', 'o1'], ['h1', 'o1']);
    await trpc.map.points.addToCollection.mutate({ uuid: hidden.uuid, pointUuids: [orphan.uuid] });
    await expect('moved into the private collection: as visible as it', [], ['h1', 'o1'], ['h1', 'o1']);

    const open = await trpc.map.create.mutate({ title: 'Open', points: [] });
    await trpc.map.points.addToCollection.mutate({ uuid: open.uuid, pointUuids: [orphan.uuid] });
    await expect('moved from the private collection into a public one', ['o1'], ['h1', 'o1'], ['h1', 'o1']);
    await trpc.map.points.removeFromCollection.mutate({ uuid: open.uuid, pointUuids: [orphan.uuid] });
    await expect('out of it: an orphan again, with its own flag (public)', ['o1'], ['h1', 'o1'], ['h1', 'o1']);
    await app.rest('PUT', `/api/map/point/${orphan.uuid}`, { token: owner.token, body: { public: 0 } });
    await expect('the orphan made private', [], ['h1'], ['h1', 'o1']);

    // The contract's embedded points: the owner's uuid moves h1 from Hidden into Open.
    await trpc.map.update.mutate({
      uuid: open.uuid,
      points: [{ uuid: hidden.points[0]!.uuid, title: 'h1', ...near(1) }],
    });
    await expect('h1 moved into Open by PUT points', ['h1'], ['h1'], ['h1', 'o1']);
    await trpc.map.points.create.mutate({ title: 'o2', ...near(3), collectionUuid: open.uuid });
    await trpc.map.points.create.mutate({ title: 'h2', ...near(4), collectionUuid: hidden.uuid, public: true });
    await expect('created into each collection', ['h1', 'o2'], ['h1', 'o2', 'h2'], ['h1', 'o1', 'o2', 'h2']);
    await trpc.map.create.mutate({
      title: 'Fresh',
      isPublic: true,
      points: [{ uuid: orphan.uuid, title: 'o1', ...near(2) }],
    });
    await expect(
      'a new public collection taking the private orphan',
      ['h1', 'o1', 'o2'],
      ['h1', 'o1', 'o2', 'h2'],
      ['h1', 'o1', 'o2', 'h2'],
    );

    await trpc.map.delete.mutate({ uuid: open.uuid });
    await expect('Open deleted with its points', ['o1'], ['o1', 'h2'], ['o1', 'h2']);
    await trpc.map.update.mutate({ uuid: hidden.uuid, isPublic: true, sharedUsers: [] });
    await expect('Hidden made public and no longer shared', ['o1', 'h2'], ['o1', 'h2'], ['o1', 'h2']);
  },
);

Visibility.run();
