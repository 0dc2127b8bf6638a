// Map service logic called in process (no HTTP): who sees a collection, who may change it, how points
// are replaced and ordered. test/map/map.test.ts covers the routes on both surfaces (status codes,
// Cache-Control of private collections, the envelope).
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { errorCodeOf, startInProcess, type TCaller, type TInProcessApp } from '../support/caller';

interface TCtx {
  app: TInProcessApp;
  author: { caller: TCaller; id: string; username: string };
  other: { caller: TCaller; id: string; username: string };
}

const Collections = suite<TCtx>('map services (in process)');

Collections.before(async (context) => {
  context.app = await startInProcess();
  context.author = await context.app.signUp();
  context.other = await context.app.signUp();
});

Collections.after(({ app }) => app.close());

Collections(
  'a private collection exists only for its author; a public one for everyone',
  async ({ app, author, other }) => {
    const secret = await author.caller.map.create({ title: 'Secret', isPublic: false });
    const open = await author.caller.map.create({ title: 'Open' });
    assert.is(open.public, 1, 'public unless said otherwise');
    assert.equal([open.userId, open.username], [author.id, author.username]);
    assert.is((await author.caller.map.get({ uuid: secret.uuid })).title, 'Secret');
    assert.is(await errorCodeOf(other.caller.map.get({ uuid: secret.uuid })), 'NOT_FOUND');
    assert.is(await errorCodeOf(app.anonymous.map.get({ uuid: secret.uuid })), 'NOT_FOUND');
    assert.is((await app.anonymous.map.get({ uuid: open.uuid })).title, 'Open');
    // Writes: a hidden collection stays hidden (404); a visible one is refused (403).
    assert.is(await errorCodeOf(other.caller.map.update({ uuid: secret.uuid, title: 'Mine' })), 'NOT_FOUND');
    assert.is(await errorCodeOf(other.caller.map.update({ uuid: open.uuid, title: 'Mine' })), 'FORBIDDEN');
    assert.is(await errorCodeOf(other.caller.map.delete({ uuid: open.uuid })), 'FORBIDDEN');
    // Made private, the public one disappears for others too.
    await author.caller.map.update({ uuid: open.uuid, isPublic: false });
    assert.is(await errorCodeOf(app.anonymous.map.get({ uuid: open.uuid })), 'NOT_FOUND');
  },
);

Collections(
  'points keep their order and their given uuids; an update with points replaces the whole set',
  async ({ author }) => {
    const given = '7a1f4c2e-5b3d-4e6f-8a9b-0c1d2e3f4a5b';
    const created = await author.caller.map.create({
      title: 'Route',
      points: [
        { title: 'b', latitude: 1, longitude: 1 },
        { uuid: given, title: 'a', latitude: 2, longitude: 2, tags: ['x'] },
      ],
    });
    assert.equal(
      created.points.map((point) => point.title),
      ['b', 'a'],
    );
    assert.is(created.points[1]!.uuid, given);
    assert.equal(created.points[0]!.tags, []);
    assert.is(created.points[0]!.description, null);
    assert.is(created.pointCount, 2);
    const renamed = await author.caller.map.update({ uuid: created.uuid, title: 'Route 2' });
    assert.is(renamed.pointCount, 2, 'no points given: the points stay');
    const replaced = await author.caller.map.update({
      uuid: created.uuid,
      points: [{ title: 'c', latitude: 3, longitude: 3 }],
    });
    assert.equal(
      replaced.points.map((point) => point.title),
      ['c'],
    );
    assert.is(replaced.pointCount, 1);
    assert.is(replaced.title, 'Route 2');
    const duplicate = await errorCodeOf(
      author.caller.map.update({
        uuid: created.uuid,
        points: [
          { uuid: given, title: 'd', latitude: 0, longitude: 0 },
          { uuid: given, title: 'e', latitude: 0, longitude: 0 },
        ],
      }),
    );
    assert.is(duplicate, 'BAD_REQUEST');
  },
);

Collections("own collections: only the caller's, newest change first, paged", async ({ app }) => {
  const me = await app.signUp();
  const first = await me.caller.map.create({ title: 'First' });
  app.clock.advance(1000);
  await me.caller.map.create({ title: 'Second', isPublic: false });
  app.clock.advance(1000);
  await me.caller.map.update({ uuid: first.uuid, description: 'touched' });
  const page = await me.caller.map.listOwn({ page: 1, pageSize: 1 });
  assert.equal(
    page.data.map((item) => item.title),
    ['First'],
  );
  assert.equal(
    (await me.caller.map.listOwn({ page: 2, pageSize: 1 })).data.map((item) => item.title),
    ['Second'],
  );
  assert.equal(
    (await me.caller.map.listOwn()).data.map((item) => [item.title, item.public]),
    [
      ['First', 1],
      ['Second', 0],
    ],
  );
  await me.caller.map.delete({ uuid: first.uuid });
  assert.equal(
    (await me.caller.map.listOwn()).data.map((item) => item.title),
    ['Second'],
  );
});

Collections.run();
