// Publishing a loadout (catalog and slot rules, input errors) and the attributes computed from the catalog, on both surfaces.
import { eq } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { assemblies } from '../../db/schema';
import { startTestServer, type TTestServer } from '../support/helpers';
import { COMMUNITY_SAMPLE, HULK, importCommunitySample } from '../support/community-sample';
import { trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { BRIGANTINE, publish, type TUser } from './fixtures';

const sample = COMMUNITY_SAMPLE;

const Publish = suite<{ app: TTestServer; owner: TUser }>('publish: catalog and slot rules');

Publish.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
});
Publish.after(async ({ app }) => app.stop());

Publish('publishes with defaults and returns the full assembly, on REST and tRPC', async ({ app, owner }) => {
  const created = await publish(app, owner.token, BRIGANTINE);
  assert.is(created.uuid.length, 36);
  assert.is(created.name, 'Brigantine all-rounder');
  assert.equal(created.ship, { id: 'brigantine', size: 'medium', archetype: 'dps' });
  assert.equal(created.weapons, BRIGANTINE.weapons);
  assert.is(created.armor, 'ironHusk1');
  assert.equal(created.furnitures, BRIGANTINE.furnitures);
  assert.equal(created.tags, ['pvp', 'broadside']);
  assert.is(created.assembly.visibility, 'publicly');
  assert.is(created['assembly.uuid'], created.uuid);
  // Whether it has a password: GET /assembly/attr's data.password.
  const hasPassword = async (uuid: string) =>
    (await app.rest('GET', `/api/assembly/attr?uuid=${uuid}`, { token: owner.token })).body.data.data.password;
  assert.is(await hasPassword(created.uuid), false);
  assert.equal([created.userId, created.username], [owner.id, owner.username]);
  assert.equal([created.likes, created.views], [0, 0]);
  assert.equal(created.rating, { average: null, count: 0, smoothed: 3 });
  assert.is(created.password, undefined);
  assert.is(created.passwordHash, undefined);
  const viaTrpc = await app
    .trpc(owner.token)
    .assembly.publish.mutate({ ...HULK, isPublic: false, password: 'secret-pass' });
  assert.is(viaTrpc.assembly.visibility, 'private');
  assert.is(await hasPassword(viaTrpc.uuid), true);
  assert.is(viaTrpc.armor, null);
  assert.equal(viaTrpc.furnitures, []);
  const stored = await app.database.db
    .select({ hash: assemblies.passwordHash })
    .from(assemblies)
    .where(eq(assemblies.uuid, viaTrpc.uuid))
    .get();
  assert.match(stored!.hash!, /^\$argon2id\$/);
});

Publish('401 without a token on both surfaces', async ({ app }) => {
  assert.is((await app.rest('POST', '/api/assembly/publish', { body: HULK })).status, 401);
  assert.is((await trpcError(app.trpc().assembly.publish.mutate(HULK))).status, 401);
});

Publish('unknown ids are a 400 naming them', async ({ app, owner }) => {
  const response = await app.rest('POST', '/api/assembly/publish', {
    token: owner.token,
    body: {
      ...BRIGANTINE,
      shipId: 'galleon9',
      armor: 'paperArmor',
      weapons: [{ slot: 'frontWeapon', itemId: 'laserGun' }],
    },
  });
  assert.is(response.status, 400);
  assert.match(response.body.message, /galleon9/);
  assert.match(response.body.message, /laserGun/);
  assert.match(response.body.message, /paperArmor/);
  assert.equal(
    response.body.data.issues.map((issue: { path: string }) => issue.path),
    ['shipId', 'weapons[0].itemId', 'armor'],
  );
  const viaTrpc = await trpcError(
    app.trpc(owner.token).assembly.publish.mutate({ ...HULK, furnitures: ['ghostFurniture'] }),
  );
  assert.is(viaTrpc.status, 400);
  assert.match(viaTrpc.message, /furnitures\[0\] "ghostFurniture"/);
});

Publish('slot rules: kind exists, count not exceeded, requiredSize met, item type fits', async ({ app, owner }) => {
  const cases: [Record<string, unknown>, RegExp, string][] = [
    [
      { ...HULK, weapons: [{ slot: 'auxiliaryWeapon', itemId: 'culverin1' }] },
      /no "auxiliaryWeapon" weapon slot/,
      'weapons[0].slot',
    ],
    [
      { ...HULK, weapons: [{ slot: 'ultimate', itemId: 'culverin1' }] },
      /weapons\[0\]\.slot: must be one of frontWeapon, leftSideWeapon/,
      'weapons[0].slot',
    ],
    [{ ...HULK, weapons: [{ slot: 'furniture', itemId: 'culverin1' }] }, /weapons\[0\]\.slot/, 'weapons[0].slot'],
    [
      {
        ...HULK,
        weapons: [
          { slot: 'leftSideWeapon', itemId: 'culverin1' },
          { slot: 'leftSideWeapon', itemId: 'bombard1' },
        ],
      },
      /2 weapons in "leftSideWeapon"; hull "hulk" has 1/,
      'weapons',
    ],
    [
      { ...HULK, weapons: [{ slot: 'frontWeapon', itemId: 'ballista1' }] },
      /needs a medium hull; "hulk" is small/,
      'weapons[0].itemId',
    ],
    [
      { ...HULK, furnitures: ['firstAidStation', 'culverinWorks1', 'maintenanceForge1'] },
      /3 furnitures; hull "hulk" has 2/,
      'furnitures',
    ],
    [{ ...HULK, armor: 'culverin1' }, /is a culverin, not armor/, 'armor'],
    [{ ...HULK, weapons: [{ slot: 'frontWeapon', itemId: 'ironHusk1' }] }, /not a weapon/, 'weapons[0].itemId'],
    [{ ...HULK, furnitures: ['grilledBeef'] }, /is a consumable, not furniture/, 'furnitures[0]'],
  ];
  for (const [body, message, path] of cases) {
    const response = await app.rest('POST', '/api/assembly/publish', { token: owner.token, body });
    assert.is(response.status, 400, JSON.stringify(body));
    assert.match(response.body.message, message);
    assert.is(response.body.data.issues[0].path, path);
  }
  // The same ballista fits the medium brigantine.
  const ok = await publish(app, owner.token, {
    ...HULK,
    shipId: 'brigantine',
    weapons: [{ slot: 'auxiliaryWeapon', itemId: 'ballista1' }],
  });
  assert.is(ok.shipId, 'brigantine');
});

Publish('input errors: missing fields, too many tags, password on a public assembly', async ({ app, owner }) => {
  const missing = await app.rest('POST', '/api/assembly/publish', {
    token: owner.token,
    body: { shipId: 'hulk', weapons: [] },
  });
  assert.is(missing.status, 400);
  assert.match(missing.body.message, /name/);
  const noWeapons = await app.rest('POST', '/api/assembly/publish', {
    token: owner.token,
    body: { name: 'x', shipId: 'hulk' },
  });
  assert.is(noWeapons.status, 400);
  assert.match(noWeapons.body.message, /weapons/);
  const tags = await app.rest('POST', '/api/assembly/publish', {
    token: owner.token,
    body: { ...HULK, tags: Array.from({ length: 11 }, (_, i) => `t${i}`) },
  });
  assert.is(tags.status, 400);
  assert.match(tags.body.message, /tags/);
  const longTag = await app.rest('POST', '/api/assembly/publish', {
    token: owner.token,
    body: { ...HULK, tags: ['x'.repeat(25)] },
  });
  assert.is(longTag.status, 400);
  const publicPassword = await app.rest('POST', '/api/assembly/publish', {
    token: owner.token,
    body: { ...HULK, password: 'secret-pass' },
  });
  assert.is(publicPassword.status, 400);
  assert.match(publicPassword.body.message, /password/);
  const badFlag = await app.rest('POST', '/api/assembly/publish', {
    token: owner.token,
    body: { ...HULK, isPublic: 'nope' },
  });
  assert.is(badFlag.status, 400);
  assert.match(badFlag.body.message, /isPublic/);
});

Publish.run();

const Attr = suite<{ app: TTestServer; admin: TUser; owner: TUser }>('attr: figures computed from the catalog');

Attr.before(async (context) => {
  context.app = await startTestServer();
  context.admin = await signUpAdmin(context.app);
  await importCommunitySample(context.app, context.admin);
  context.owner = await context.app.signUp();
});
Attr.after(async ({ app }) => app.stop());

Attr(
  'hull, armor, damage per side and total, range, weight, gear score, perks: hand-computed',
  async ({ app, owner }) => {
    const created = await publish(app, owner.token, BRIGANTINE);
    const response = await app.rest('GET', `/api/assembly/attr?uuid=${created.uuid}`);
    assert.is(response.status, 200, response.text);
    const attr = response.body.data;
    assert.equal(attr.hull, {
      id: 'brigantine',
      size: 'medium',
      archetype: 'dps',
      hitpoints: 40000,
      braceStrength: 8000,
      sailSpeed: { halfSail: 9, fullSail: 12, travelSail: 18 },
      cargo: { cargoSlots: 100, cargoMaxWeight: 90000 },
    });
    assert.equal(attr.armor, {
      itemId: 'ironHusk1',
      armor: 200,
      damageMitigation: { explosive: 0.17, flooding: 0, fire: 0, tearing: 0, piercing: 0 },
    });
    // left: culverin1 500 x 1 / 6 s = 83.33 per mount, x 8 gun ports = 666.67
    // right: demicannon1 152 x 4 / 3.5 s = 173.71, x 8 = 1389.71
    // front: longGun1 1167 / 7.2 s = 162.08, x 4 = 648.33; aft: torpedo1 750 / 4.5 s = 166.67, x 2 = 333.33
    // auxiliary: ballista1 460 / 1 s x 1 = 460; total 666.667 + 1389.714 + 648.333 + 333.333 + 460 = 3498.05
    assert.equal(attr.damagePerSecond, {
      front: 648.33,
      left: 666.67,
      right: 1389.71,
      aft: 333.33,
      auxiliary: 460,
      total: 3498.05,
    });
    const culverin = attr.weapons.find((weapon: { itemId: string }) => weapon.itemId === 'culverin1');
    assert.equal(culverin, {
      slot: 'leftSideWeapon',
      itemId: 'culverin1',
      type: 'culverin',
      gunPorts: 8,
      damagePerShot: 500,
      projectilesPerShot: 1,
      reloadSeconds: 6,
      damagePerSecond: 83.33,
      slotDamagePerSecond: 666.67,
      optimalRange: 600,
    });
    assert.equal(attr.optimalRange, { min: 250, max: 1000 });
    // weapons 500x8 + 500x8 + 500x4 + 500x2 + 750x1 = 11750; armor 500; furniture 250 + 200 + 80 = 530
    assert.is(attr.weight, 12780);
    // 7 + 7 + 7 + 21 + 21 (weapons) + 27 (armor) + 35 + 15 + 15 (furniture)
    assert.is(attr.gearScore, 155);
    assert.equal(
      attr.perks.map((perk: { perk: string; source: string }) => `${perk.source}:${perk.perk}`),
      [
        'hull:bullhorn',
        'weapon:piercing1',
        'weapon:arming',
        'weapon:flooding3',
        'weapon:draw',
        'weapon:piercing2',
        'furniture:firstAidStation',
        'furniture:culverinElementalDamage19',
        'furniture:repairSevereDmgOfHullOutOfCombat1',
      ],
    );
    assert.equal(attr.problems, []);
    const viaTrpc = await app.trpc().assembly.getAttributes.query({ uuid: created.uuid });
    assert.equal(viaTrpc.damagePerSecond, attr.damagePerSecond);
  },
);

Attr('problems appear when a re-imported catalog no longer fits the loadout', async ({ app, admin, owner }) => {
  const created = await publish(app, owner.token, {
    ...HULK,
    shipId: 'brigantine',
    weapons: [{ slot: 'auxiliaryWeapon', itemId: 'ballista1' }],
  });
  const changed = structuredClone(sample);
  changed.items.ballista1.requiredSize = 'large';
  await app.rest('POST', '/api/admin/catalog/import', { token: admin.token, body: changed });
  const attr = (await app.rest('GET', `/api/assembly/attr?uuid=${created.uuid}`)).body.data;
  assert.equal(attr.problems, [
    {
      code: 'hullTooSmall',
      path: 'weapons[0].itemId',
      message: '"ballista1" needs a large hull; "brigantine" is medium',
    },
  ]);
  await importCommunitySample(app, admin);
});

Attr(
  '400 for a bad uuid, 404 for an unknown one, 403 for a private one without its password',
  async ({ app, owner }) => {
    assert.is((await app.rest('GET', '/api/assembly/attr?uuid=short')).status, 400);
    assert.is((await app.rest('GET', '/api/assembly/attr')).status, 400);
    assert.is((await app.rest('GET', '/api/assembly/attr?uuid=00000000-0000-4000-8000-000000000000')).status, 404);
    const hidden = await publish(app, owner.token, { ...HULK, isPublic: false, password: 'open-sesame' });
    assert.is((await app.rest('GET', `/api/assembly/attr?uuid=${hidden.uuid}`)).status, 403);
    assert.is((await app.rest('GET', `/api/assembly/attr?uuid=${hidden.uuid}&password=open-sesame`)).status, 200);
    assert.is((await app.rest('GET', `/api/assembly/attr?uuid=${hidden.uuid}`, { token: owner.token })).status, 200);
    assert.is((await trpcError(app.trpc().assembly.getAttributes.query({ uuid: hidden.uuid }))).status, 403);
  },
);

Attr.run();
