// Assembly service logic called in process (no HTTP): the rating formula, like and rate toggles, the sort orders
// of both list paths (with and without a keyword), fork credit and its purge, and the decoding of stored rows.
// service-edits.test.ts covers the writes (edit, If-Match, loadout validation). The HTTP suites of this folder
// cover the routes on both surfaces (status codes, headers, envelopes, access rules).
import * as assert from 'uvu/assert';
import { purgeTrash } from '../../server/domains/assembly/lifecycle';
import { rowsOf, selectRows } from '../../server/domains/assembly/queries';
import { ratingOf } from '../../server/domains/assembly/rating';
import type { TCaller } from '../support/caller';
import { HULK } from '../support/community-sample';
import { BRIGANTINE, errorOf, inProcessSuite, readable } from './fixtures';

const Service = inProcessSuite('assembly services (in process)');

Service('ratingOf: plain mean, and the smoothed (sum + 15) / (count + 5), both rounded to 0.01', () => {
  assert.equal(ratingOf(0, 0), { average: null, count: 0, smoothed: 3 });
  assert.equal(ratingOf(5, 1), { average: 5, count: 1, smoothed: 3.33 });
  assert.equal(ratingOf(10, 2), { average: 5, count: 2, smoothed: 3.57 });
  assert.equal(ratingOf(2, 1), { average: 2, count: 1, smoothed: 2.83 });
  assert.equal(ratingOf(7, 3), { average: 2.33, count: 3, smoothed: 2.75 });
  // Many votes pull the smoothed mean towards the plain one.
  assert.equal(ratingOf(400, 100), { average: 4, count: 100, smoothed: 3.95 });
});

Service(
  'rate: one score per user, rating again replaces it; the totals are over every user',
  async ({ owner, fans }) => {
    const [a, b] = fans as [TCaller, TCaller];
    const { uuid } = await owner.assembly.publish(HULK);
    assert.equal(await a.assembly.rate({ uuid, score: 5 }), {
      uuid,
      yourScore: 5,
      rating: { average: 5, count: 1, smoothed: 3.33 },
    });
    assert.equal(
      (await a.assembly.rate({ uuid, score: 1 })).rating,
      { average: 1, count: 1, smoothed: 2.67 },
      'replaced, not added',
    );
    // 1 + 4 over two votes: (5 + 15) / 7 = 2.86
    assert.equal((await b.assembly.rate({ uuid, score: 4 })).rating, { average: 2.5, count: 2, smoothed: 2.86 });
    assert.equal(
      readable(await owner.assembly.getItem({ uuid })).rating,
      { average: 2.5, count: 2, smoothed: 2.86 },
      'the item agrees (its cache was dropped)',
    );
    const own = await errorOf(owner.assembly.rate({ uuid, score: 5 }));
    assert.equal([own.code, own.message], ['FORBIDDEN', 'You cannot like or rate your own assembly']);
  },
);

Service('like: idempotent both ways, counted over every user', async ({ owner, fans }) => {
  const [a, b] = fans as [TCaller, TCaller];
  const { uuid } = await owner.assembly.publish(HULK);
  assert.equal(await a.assembly.like({ uuid }), { uuid, liked: true, likes: 1 });
  assert.equal(
    await a.assembly.like({ uuid, like: true }),
    { uuid, liked: true, likes: 1 },
    'a second like is the same like',
  );
  assert.equal((await b.assembly.like({ uuid })).likes, 2);
  assert.equal(await a.assembly.like({ uuid, like: false }), { uuid, liked: false, likes: 1 });
  assert.equal(
    await a.assembly.like({ uuid, like: false }),
    { uuid, liked: false, likes: 1 },
    'unliking twice changes nothing',
  );
  assert.is(readable(await owner.assembly.getItem({ uuid })).likes, 1);
});

Service(
  'sort orders: the keyword path (ranked candidates) and the plain list (index walk) agree; rating ties go to more votes, then the newest',
  async ({ owner, fans }) => {
    const publish = async (name: string) => (await owner.assembly.publish({ ...HULK, name, tags: ['sortcheck'] })).uuid;
    const unrated = await publish('Sort unrated');
    const threeOnce = await publish('Sort one three');
    const fiveOnce = await publish('Sort one five');
    await publish('Sort newest unrated');
    await fans[0]!.assembly.rate({ uuid: threeOnce, score: 3 });
    await fans[0]!.assembly.rate({ uuid: fiveOnce, score: 5 });
    await fans[1]!.assembly.like({ uuid: unrated });
    // smoothed: one five 3.33; one three (3 + 15) / 6 = 3, level with the unrated ones (15 / 5) but with a vote.
    const names = async (sort: 'latest' | 'hottest' | 'rating', keyword?: string) =>
      (await owner.assembly.list({ sort, keyword, pageSize: 100 })).data
        .filter((item) => item.tags.includes('sortcheck'))
        .map((item) => item.name);
    const expected = {
      latest: ['Sort newest unrated', 'Sort one five', 'Sort one three', 'Sort unrated'],
      rating: ['Sort one five', 'Sort one three', 'Sort newest unrated', 'Sort unrated'],
    };
    assert.equal(await names('latest'), expected.latest);
    assert.equal(await names('latest', 'sortcheck'), expected.latest);
    assert.equal(await names('rating'), expected.rating);
    assert.equal(await names('rating', 'sortcheck'), expected.rating);
    const hottest = await names('hottest');
    assert.is(hottest[0], 'Sort unrated', 'a like outweighs minutes of age');
    assert.equal(await names('hottest', 'sortcheck'), hottest);
  },
);

Service(
  "fork: a copy credited to its direct parent; counted for others' forks only; the purge keeps the count and clears the credit",
  async ({ app, owner, fans }) => {
    const [a, b] = fans as [TCaller, TCaller];
    const original = await owner.assembly.publish({ ...HULK, name: 'Service fork' });
    const child = await a.assembly.fork({ uuid: original.uuid });
    const grandchild = await b.assembly.fork({ uuid: child.uuid });
    const own = await owner.assembly.fork({ uuid: original.uuid });
    assert.equal(
      [child.cloningUuid, grandchild.cloningUuid, own.cloningUuid],
      [original.uuid, child.uuid, original.uuid],
    );
    assert.equal([child.name, child.weapons, child.forkCount], ['Service fork', original.weapons, 0]);
    const count = async (uuid: string) => readable(await app.anonymous.assembly.getItem({ uuid })).forkCount;
    assert.equal([await count(original.uuid), await count(child.uuid)], [1, 1]);
    // The child is trashed: still counted; purged: taken off, and its fork's credit cleared.
    await a.assembly.delete({ uuid: child.uuid });
    assert.is(await count(original.uuid), 1);
    app.clock.advance(31 * 24 * 60 * 60 * 1000);
    const { uuids } = await purgeTrash({ ...app.deps, db: app.database.db });
    assert.ok(uuids.includes(child.uuid));
    assert.is(await count(original.uuid), 0);
    assert.is(readable(await app.anonymous.assembly.getItem({ uuid: grandchild.uuid })).cloningUuid, null);
    assert.is(readable(await app.anonymous.assembly.getItem({ uuid: own.uuid })).cloningUuid, original.uuid);
  },
);

Service(
  "rowsOf decodes the driver's values of every row exactly as drizzle's .all() does, every field",
  async ({ app, owner, fans }) => {
    const fan = fans[0]!;
    const forked = await fan.assembly.fork({
      uuid: (await owner.assembly.publish({ ...HULK, name: 'Rows original', tags: ['rows'] })).uuid,
    });
    await owner.assembly.publish({ ...BRIGANTINE, name: 'Rows private', isPublic: false, password: 'rows-secret' });
    const trashed = await owner.assembly.publish({ ...HULK, name: 'Rows trashed', description: 'soon gone' });
    await owner.assembly.delete({ uuid: trashed.uuid });
    await fans[1]!.assembly.rate({ uuid: forked.uuid, score: 4 });
    await owner.assembly.like({ uuid: forked.uuid, like: true });
    await app.anonymous.assembly.getItem({ uuid: forked.uuid });
    await app.deps.views.flush(app.database.db);

    const { db } = app.database;
    const decoded = rowsOf(await selectRows(db).values());
    assert.equal(decoded, await selectRows(db).all());
    assert.ok(decoded.length >= 4);
    // Every field is exercised: each holds a value in some row (no avatar was set in this suite).
    const alwaysNull = Object.keys(decoded[0]!).filter((key) =>
      decoded.every((row) => row[key as keyof typeof row] === null),
    );
    assert.equal(alwaysNull, ['creatorAvatar']);
    assert.instance(decoded[0]!.createdAt, Date);
    assert.type(decoded[0]!.isPublic, 'boolean');
  },
);

Service.run();
