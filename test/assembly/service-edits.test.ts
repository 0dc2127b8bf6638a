// Assembly service writes called in process (no HTTP): the field-by-field writes of an edit, its If-Match
// precondition, and loadout validation errors (on publish and on edit). service.test.ts covers ratings, likes,
// sort orders, forks and stored rows; the HTTP suites of this folder cover the routes on both surfaces.
import * as assert from 'uvu/assert';
import { itemEtag } from '../../server/domains/assembly/queries';
import { HULK } from '../support/community-sample';
import { BRIGANTINE, errorOf, inProcessSuite, readable } from './fixtures';

const Service = inProcessSuite('assembly services (in process): edits');

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

Service.run();
