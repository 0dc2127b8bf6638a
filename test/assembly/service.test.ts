// Assembly service logic called in process (no HTTP): the rating formula, like and rate toggles, the
// field-by-field writes of an edit and its If-Match precondition, loadout validation errors, and the
// sort orders of both list paths (with and without a keyword). The HTTP suites of this folder cover
// the routes on both surfaces (status codes, headers, envelopes, access rules).
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { purgeTrash } from '../../server/domains/assembly/lifecycle';
import { itemEtag, rowsOf, selectRows } from '../../server/domains/assembly/queries';
import { ratingOf } from '../../server/domains/assembly/rating';
import { startInProcess, type TCaller, type TInProcessApp } from '../support/caller';
import { COMMUNITY_SAMPLE, HULK } from '../support/helpers';
import { BRIGANTINE, readable } from './fixtures';

interface TCtx {
  app: TInProcessApp;
  owner: TCaller;
  fans: TCaller[];
}

const Service = suite<TCtx>('assembly services (in process)');

Service.before(async (context) => {
  context.app = await startInProcess();
  const admin = (await context.app.signUp({ role: 'admin' })).caller;
  await admin.admin.catalog.import(COMMUNITY_SAMPLE);
  context.owner = (await context.app.signUp()).caller;
  context.fans = [(await context.app.signUp()).caller, (await context.app.signUp()).caller];
});
Service.after(({ app }) => {
  app.close();
});

type TFailure = Error & { code?: string; issues?: { path: string; message: string }[] };
const errorOf = async (call: Promise<unknown>): Promise<TFailure> => {
  try {
    await call;
  } catch (error) {
    return error as TFailure;
  }
  throw new Error('expected the call to fail');
};

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
  'edit writes only the fields given; tags are trimmed, lower-cased and deduplicated; password follows isPublic',
  async ({ app, owner }) => {
    const created = await owner.assembly.publish(BRIGANTINE);
    app.clock.advance(1000);
    const renamed = await owner.assembly.edit({ uuid: created.uuid, data: { name: '  Renamed  ' } });
    assert.is(renamed.name, 'Renamed');
    assert.ok(renamed.updatedTime > created.updatedTime);
    const { name: _name, updatedTime: _updatedAt, ...rest } = renamed;
    const { name: _before, updatedTime: _beforeAt, 'assembly.uuid': _published, ...restBefore } = created;
    assert.equal(rest, restBefore, 'every other field as it was');

    const tagged = await owner.assembly.edit({
      uuid: created.uuid,
      data: { tags: ['PvE', ' pve', 'Night Raid', 'night raid'] },
    });
    assert.equal(tagged.tags, ['pve', 'night raid']);
    const stripped = await owner.assembly.edit({
      uuid: created.uuid,
      data: { armor: null, furnitures: [], description: '' },
    });
    assert.equal(
      [stripped.armor, stripped.furnitures, stripped.description, stripped.weapons],
      [null, [], '', BRIGANTINE.weapons],
    );

    // Whether it has a password: GET /assembly/attr's data.password (the item answer never says it to its creator).
    const hasPassword = async () => (await owner.assembly.getAttributes({ uuid: created.uuid })).data.password;
    const locked = await owner.assembly.edit({
      uuid: created.uuid,
      data: { isPublic: false, password: 'open-sesame' },
    });
    assert.equal([locked.assembly.visibility, await hasPassword()], ['private', true]);
    const described = await owner.assembly.edit({ uuid: created.uuid, data: { description: 'still locked' } });
    assert.equal(
      [described.assembly.visibility, await hasPassword()],
      ['private', true],
      'an edit of another field keeps the password',
    );
    const opened = await owner.assembly.edit({ uuid: created.uuid, data: { isPublic: true } });
    assert.equal(
      [opened.assembly.visibility, await hasPassword()],
      ['publicly', false],
      'made public: the password goes',
    );
    const refused = await errorOf(owner.assembly.edit({ uuid: created.uuid, data: { password: 'open-sesame' } }));
    assert.equal(
      [refused.code, refused.issues],
      ['BAD_REQUEST', [{ path: 'password', message: 'only a private assembly (isPublic: false) can have a password' }]],
    );
  },
);

Service(
  'edit If-Match: a stale ETag is a 412 that writes nothing; the current one, a list holding it, or * pass',
  async ({ owner, fans }) => {
    const created = await owner.assembly.publish(HULK);
    const first = itemEtag(await owner.assembly.getItem({ uuid: created.uuid }));
    const edited = await owner.assembly.edit({ uuid: created.uuid, data: { name: 'Second' }, ifMatch: first });
    const second = itemEtag(edited);
    assert.is.not(second, first);
    const stale = await errorOf(owner.assembly.edit({ uuid: created.uuid, data: { name: 'Lost' }, ifMatch: first }));
    assert.is(stale.code, 'PRECONDITION_FAILED');
    assert.is(readable(await owner.assembly.getItem({ uuid: created.uuid })).name, 'Second', 'nothing written');
    assert.is(
      (await owner.assembly.edit({ uuid: created.uuid, data: { name: 'Third' }, ifMatch: `${first}, ${second}` })).name,
      'Third',
    );
    assert.is(
      (await owner.assembly.edit({ uuid: created.uuid, data: { name: 'Fourth' }, ifMatch: '*' })).name,
      'Fourth',
    );
    // A like changes the answer, so it changes the ETag; a view does not.
    const beforeLike = itemEtag(await owner.assembly.getItem({ uuid: created.uuid }));
    await fans[0]!.assembly.getItem({ uuid: created.uuid });
    assert.is(itemEtag(await owner.assembly.getItem({ uuid: created.uuid })), beforeLike, 'a view keeps the ETag');
    await fans[0]!.assembly.like({ uuid: created.uuid });
    assert.is(
      (await errorOf(owner.assembly.edit({ uuid: created.uuid, data: { name: 'x' }, ifMatch: beforeLike }))).code,
      'PRECONDITION_FAILED',
    );
  },
);

Service(
  'loadout validation: unknown ids first (every one named), else every slot rule broken, with issue paths',
  async ({ owner }) => {
    const unknown = await errorOf(
      owner.assembly.publish({
        ...HULK,
        shipId: 'galleon9',
        weapons: [{ slot: 'frontWeapon', itemId: 'laserGun' }],
        armor: 'paperArmor',
        furnitures: ['ghostFurniture'],
      }),
    );
    assert.is(unknown.code, 'BAD_REQUEST');
    assert.is(
      unknown.message,
      'Unknown catalog ids: shipId "galleon9", weapons[0].itemId "laserGun", armor "paperArmor", furnitures[0] "ghostFurniture"',
    );
    assert.equal(
      unknown.issues!.map((issue) => issue.path),
      ['shipId', 'weapons[0].itemId', 'armor', 'furnitures[0]'],
    );

    const broken = await errorOf(
      owner.assembly.publish({
        ...HULK,
        weapons: [
          { slot: 'leftSideWeapon', itemId: 'culverin1' },
          { slot: 'leftSideWeapon', itemId: 'ironHusk1' },
          { slot: 'frontWeapon', itemId: 'ballista1' },
        ],
        armor: 'culverin1',
      }),
    );
    assert.is(broken.code, 'BAD_REQUEST');
    assert.match(broken.message, /^Loadout does not fit the hull: /);
    assert.equal(
      broken.issues!.map((issue) => issue.path),
      ['weapons[1].itemId', 'weapons[2].itemId', 'weapons', 'armor'],
    );

    // An edit names the paths under data, against the loadout merged with the patch.
    const created = await owner.assembly.publish({
      ...HULK,
      shipId: 'brigantine',
      weapons: [{ slot: 'auxiliaryWeapon', itemId: 'ballista1' }],
    });
    const smaller = await errorOf(owner.assembly.edit({ uuid: created.uuid, data: { shipId: 'hulk' } }));
    assert.equal(
      smaller.issues!.map((issue) => issue.path),
      ['data.weapons[0].slot'],
    );
    const ghost = await errorOf(owner.assembly.edit({ uuid: created.uuid, data: { furnitures: ['ghostFurniture'] } }));
    assert.is(ghost.message, 'Unknown catalog ids: data.furnitures[0] "ghostFurniture"');
    assert.is(readable(await owner.assembly.getItem({ uuid: created.uuid })).shipId, 'brigantine', 'nothing written');
  },
);

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
