// The input forms of the assembly calls (issue 18): the contract's form of publish and edit still
// accepted, the community web client's form accepted too (the same stored loadout), unknown fields
// refused with a 400 naming them, the client's sortField/sortOrder mapped onto our sorts and order, and the
// locked 200 answer of a private assembly read without its password (a wrong password is still a 403,
// and the guess limits still apply).
import { eq } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { assemblies } from '../../db/schema';
import {
  HULK,
  importCommunitySample,
  signUpAdmin,
  startTestServer,
  trpcError,
  type TTestServer,
} from '../support/helpers';
import { BRIGANTINE, publish, type TUser } from './fixtures';

/** BRIGANTINE in the web client's form (its `assembly.data`), with fields the catalog does not describe. */
const BRIGANTINE_CLIENT_DATA = {
  shipSlot: { id: 'brigantine' },
  weaponSlots: [{ id: 'culverin1' }, { id: 'demicannon1' }, { id: 'longGun1' }, { id: 'torpedo1' }, null],
  weaponDirections: ['leftSideWeapon', 'rightSideWeapon', 'frontWeapon', 'aftWeapon', null],
  secondaryWeaponSlots: [{ id: 'ballista1' }],
  armorSlot: { id: 'ironHusk1' },
  displaySlots: [{ id: 'firstAidStation' }, { id: 'culverinWorks1' }, { id: 'maintenanceForge1' }],
  weaponModifications: [{ slot: 0, perk: 'sharpened' }],
  __version: '0.2.0',
};

/** What the client's Publish view sends (src/views/assembly/Publish.vue:30-52, 99-117), for BRIGANTINE. */
function clientPublish(overrides: { visibility?: string; password?: string } = {}) {
  return {
    name: BRIGANTINE.name,
    description: BRIGANTINE.description,
    assembly: {
      visibility: overrides.visibility ?? 'publicly',
      tags: BRIGANTINE.tags,
      attr: {
        password: overrides.password ?? '',
        assemblyUseVersion: '0.2.0',
        language: 'en-US',
        isComment: true,
        isLike: true,
      },
      data: BRIGANTINE_CLIENT_DATA,
    },
    wheel: { attr: { wheelUseVersion: '0.1.0' }, data: { slots: [1, 2, 3] } },
    warehouse: { attr: { warehouseUseVersion: '0.1.0' }, data: null },
  };
}

const storedLoadout = async (app: TTestServer, uuid: string) =>
  await app.database.db
    .select({
      shipId: assemblies.shipId,
      weapons: assemblies.weapons,
      armor: assemblies.armor,
      furnitures: assemblies.furnitures,
      isPublic: assemblies.isPublic,
      tags: assemblies.tags,
    })
    .from(assemblies)
    .where(eq(assemblies.uuid, uuid))
    .get();

const Forms = suite<{ app: TTestServer; owner: TUser; other: TUser }>(
  "assembly input forms: the contract's and the web client's",
);

Forms.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.other = await context.app.signUp();
});
Forms.after(async ({ app }) => app.stop());

Forms(
  "publish: the contract's form is accepted on both surfaces; the answer carries the loadout in both forms",
  async ({ app, owner }) => {
    const created = await publish(app, owner.token, BRIGANTINE);
    assert.equal(
      [created.shipId, created.weapons, created.armor, created.furnitures],
      [BRIGANTINE.shipId, BRIGANTINE.weapons, BRIGANTINE.armor, BRIGANTINE.furnitures],
    );
    assert.is(created['assembly.uuid'], created.uuid);
    // The client's form of a loadout published in the contract's: built from it.
    assert.equal(created.assembly, {
      visibility: 'publicly',
      tags: ['pvp', 'broadside'],
      attr: {},
      data: {
        shipSlot: { id: 'brigantine' },
        weaponSlots: [{ id: 'culverin1' }, { id: 'demicannon1' }, { id: 'longGun1' }, { id: 'torpedo1' }],
        weaponDirections: ['leftSideWeapon', 'rightSideWeapon', 'frontWeapon', 'aftWeapon'],
        secondaryWeaponSlots: [{ id: 'ballista1' }],
        armorSlot: { id: 'ironHusk1' },
        displaySlots: [{ id: 'firstAidStation' }, { id: 'culverinWorks1' }, { id: 'maintenanceForge1' }],
      },
    });
    assert.equal(
      [created.wheel, created.warehouse],
      [
        { attr: {}, data: null },
        { attr: {}, data: null },
      ],
    );
    const viaTrpc = await app
      .trpc(owner.token)
      .assembly.publish.mutate({ ...BRIGANTINE, isPublic: false, password: 'secret-pass' });
    assert.is(viaTrpc.assembly.visibility, 'private');
  },
);

Forms(
  "publish: the client's form is accepted and stores the same loadout as the contract's; its extras are answered back",
  async ({ app, owner }) => {
    const contract = await publish(app, owner.token, BRIGANTINE);
    const client = await publish(app, owner.token, clientPublish());
    const [a, b] = [await storedLoadout(app, contract.uuid), await storedLoadout(app, client.uuid)];
    assert.equal(b, a, 'the same stored loadout, visibility and tags');
    assert.equal(
      [client.shipId, client.weapons, client.armor, client.furnitures],
      [contract.shipId, contract.weapons, contract.armor, contract.furnitures],
    );
    assert.equal(
      [client.name, client.description, client.tags],
      [BRIGANTINE.name, BRIGANTINE.description, ['pvp', 'broadside']],
    );
    // Kept verbatim: the client's loadout (with what the catalog does not describe), its settings without the password, wheel and warehouse.
    assert.equal(client.assembly.data, BRIGANTINE_CLIENT_DATA);
    assert.equal(client.assembly.attr, {
      assemblyUseVersion: '0.2.0',
      language: 'en-US',
      isComment: true,
      isLike: true,
    });
    assert.equal(client.wheel, { attr: { wheelUseVersion: '0.1.0' }, data: { slots: [1, 2, 3] } });
    assert.equal(client.warehouse, { attr: { warehouseUseVersion: '0.1.0' }, data: null });
    const read = await app.rest('GET', `/api/assembly/item?uuid=${client.uuid}`);
    assert.equal(read.body.data.assembly, client.assembly, 'read back as published');
    // The same on the native tRPC surface.
    const viaTrpc = await app.trpc(owner.token).assembly.publish.mutate(clientPublish() as never);
    assert.equal(await storedLoadout(app, viaTrpc.uuid), a);

    // A weapon without a direction cannot be placed: a 400 at its path.
    const data = { ...BRIGANTINE_CLIENT_DATA, weaponDirections: ['leftSideWeapon'] };
    const undirected = await app.rest('POST', '/api/assembly/publish', {
      token: owner.token,
      body: { ...clientPublish(), assembly: { ...clientPublish().assembly, data } },
    });
    assert.is(undirected.status, 400);
    assert.ok(
      undirected.body.data.issues.some((issue: { path: string }) => issue.path === 'assembly.data.weaponDirections[1]'),
      JSON.stringify(undirected.body.data.issues),
    );
    // The loadout given twice is refused.
    const twice = await app.rest('POST', '/api/assembly/publish', {
      token: owner.token,
      body: { ...clientPublish(), shipId: 'hulk', weapons: [] },
    });
    assert.is(twice.status, 400);
    assert.match(twice.body.message, /give the loadout once/);
  },
);

Forms(
  "publish and edit: the client's private visibility and attr.password make a password the contract's rules check",
  async ({ app, owner, other }) => {
    const locked = await publish(app, owner.token, clientPublish({ visibility: 'private', password: 'open-sesame' }));
    assert.is(locked.assembly.visibility, 'private');
    assert.is(locked.assembly.attr.password, undefined, 'never stored in attr, never answered');
    const url = `/api/assembly/item?uuid=${locked.uuid}`;
    assert.equal((await app.rest('GET', url, { token: other.token })).body.data, {
      uuid: locked.uuid,
      isVisibility: false,
      isPassword: true,
      isOwner: false,
    });
    assert.is(
      (await app.rest('GET', `${url}&password=open-sesame`, { token: other.token })).body.data.isVisibility,
      true,
    );
    const short = await app.rest('POST', '/api/assembly/publish', {
      token: owner.token,
      body: clientPublish({ visibility: 'private', password: 'abc' }),
    });
    assert.equal(
      [short.status, short.body.data.issues],
      [400, [{ path: 'assembly.attr.password', message: 'must be at least 4 characters' }]],
    );
    const publicWithPassword = await app.rest('POST', '/api/assembly/publish', {
      token: owner.token,
      body: clientPublish({ password: 'open-sesame' }),
    });
    assert.is(publicWithPassword.status, 400, 'a public assembly cannot have a password');
    // The edit form: '' leaves the password as it is, null removes it.
    const same = await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: {
        uuid: locked.uuid,
        name: 'Still locked',
        assembly: { visibility: 'private', attr: { password: '', isLike: false } },
      },
    });
    assert.is(same.status, 200, same.text);
    assert.is(
      (await app.rest('GET', `/api/assembly/attr?uuid=${locked.uuid}`, { token: owner.token })).body.data.data.password,
      true,
    );
    const removed = await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid: locked.uuid, assembly: { attr: { password: null } } },
    });
    assert.is(removed.status, 200, removed.text);
    assert.is(
      (await app.rest('GET', `/api/assembly/attr?uuid=${locked.uuid}`, { token: owner.token })).body.data.data.password,
      false,
    );
  },
);

Forms(
  "edit: the contract's {uuid, data} and the client's {uuid, name, description, assembly, wheel, warehouse}",
  async ({ app, owner }) => {
    const created = await publish(app, owner.token, clientPublish());
    // The client's form: the fields it sends, as on publish.
    const hulkData = {
      shipSlot: { id: 'hulk' },
      weaponSlots: [{ id: 'demicannon1' }],
      weaponDirections: ['leftSideWeapon'],
      displaySlots: [],
    };
    const edited = await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: {
        uuid: created.uuid,
        name: 'Client edit',
        description: 'new words',
        assembly: {
          visibility: 'publicly',
          tags: ['edited'],
          attr: { password: '', isShowItemName: true },
          data: hulkData,
        },
        wheel: { attr: { wheelUseVersion: '0.3.0' } },
      },
    });
    assert.is(edited.status, 200, edited.text);
    const view = edited.body.data;
    assert.equal(
      [view.name, view.description, view.tags, view.shipId, view.weapons, view.armor, view.furnitures],
      ['Client edit', 'new words', ['edited'], 'hulk', [{ slot: 'leftSideWeapon', itemId: 'demicannon1' }], null, []],
    );
    assert.equal(view.assembly.data, hulkData);
    assert.equal(view.assembly.attr, { isShowItemName: true });
    assert.equal(
      view.wheel,
      { attr: { wheelUseVersion: '0.3.0' }, data: null },
      'a part given replaces the stored one',
    );
    assert.equal(view.warehouse, { attr: { warehouseUseVersion: '0.1.0' }, data: null }, 'a part not given is kept');
    // The contract's form: only the fields in data; a loadout change drops the client's form of the old loadout.
    const contract = await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid: created.uuid, data: { shipId: 'brigantine', weapons: BRIGANTINE.weapons } },
    });
    assert.is(contract.status, 200, contract.text);
    assert.equal(contract.body.data.assembly.data.shipSlot, { id: 'brigantine' });
    assert.equal(contract.body.data.assembly.data.weaponDirections, [
      'leftSideWeapon',
      'rightSideWeapon',
      'frontWeapon',
      'aftWeapon',
    ]);
    assert.equal(contract.body.data.assembly.attr, { isShowItemName: true }, 'the settings stay');
    assert.is(contract.body.data.name, 'Client edit');
    // Both forms at once, or neither: a 400.
    const both = await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid: created.uuid, data: { name: 'x' }, name: 'y' },
    });
    assert.is(both.status, 400);
    const neither = await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: created.uuid } });
    assert.equal([neither.status, neither.body.data.issues], [400, [{ path: 'data', message: 'is required' }]]);
    // On tRPC too.
    const viaTrpc = await app.trpc(owner.token).assembly.edit.mutate({ uuid: created.uuid, name: 'tRPC client edit' });
    assert.is(viaTrpc.name, 'tRPC client edit');
  },
);

Forms(
  'an unknown field is a 400 naming it, on every input (bodies, nested objects, query strings) and both surfaces',
  async ({ app, owner }) => {
    const created = await publish(app, owner.token, HULK);
    const named = (response: { status: number; body: any }, key: string, path = '') => {
      assert.is(response.status, 400, JSON.stringify(response.body));
      assert.ok(response.body.message.includes(`Unrecognized key: "${key}"`), response.body.message);
      assert.equal(response.body.data.issues, [{ path, message: `Unrecognized key: "${key}"` }]);
    };
    named(
      await app.rest('POST', '/api/assembly/publish', { token: owner.token, body: { ...HULK, colour: 'red' } }),
      'colour',
    );
    named(
      await app.rest('POST', '/api/assembly/publish', {
        token: owner.token,
        body: { ...HULK, weapons: [{ slot: 'leftSideWeapon', itemId: 'demicannon1', count: 2 }] },
      }),
      'count',
      'weapons[0]',
    );
    named(
      await app.rest('POST', '/api/assembly/publish', {
        token: owner.token,
        body: { ...clientPublish(), assembly: { ...clientPublish().assembly, attr: { isGlowing: true } } },
      }),
      'isGlowing',
      'assembly.attr',
    );
    named(
      await app.rest('POST', '/api/assembly/publish', {
        token: owner.token,
        body: {
          ...clientPublish(),
          assembly: { ...clientPublish().assembly, data: { ...BRIGANTINE_CLIENT_DATA, sails: [] } },
        },
      }),
      'sails',
      'assembly.data',
    );
    named(
      await app.rest('POST', '/api/assembly/edit', {
        token: owner.token,
        body: { uuid: created.uuid, data: { name: 'x', colour: 'red' } },
      }),
      'colour',
      'data',
    );
    named(
      await app.rest('POST', '/api/assembly/edit', {
        token: owner.token,
        body: { uuid: created.uuid, name: 'x', colour: 'red' },
      }),
      'colour',
    );
    named(
      await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: created.uuid, hard: true } }),
      'hard',
    );
    named(
      await app.rest('POST', '/api/assembly/like', { token: owner.token, body: { uuid: created.uuid, twice: true } }),
      'twice',
    );
    named(
      await app.rest('POST', '/api/assembly/rate', {
        token: owner.token,
        body: { uuid: created.uuid, score: 5, weight: 2 },
      }),
      'weight',
    );
    named(await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}&colour=red`), 'colour');
    named(await app.rest('GET', `/api/assembly/attr?uuid=${created.uuid}&colour=red`), 'colour');
    named(await app.rest('GET', '/api/assembly/list?colour=red'), 'colour');
    named(await app.rest('GET', '/api/assembly/trash?colour=red', { token: owner.token }), 'colour');
    const trpc = await trpcError(app.trpc(owner.token).assembly.publish.mutate({ ...HULK, colour: 'red' } as never));
    assert.is(trpc.status, 400);
    assert.match(trpc.message, /Unrecognized key: "colour"/);
  },
);

Forms(
  "list: the client's sortField/sortOrder map onto sort and order; what we do not offer is a 400",
  async ({ app, owner, other }) => {
    const names = ['Sortmap old', 'Sortmap liked', 'Sortmap rated'];
    const uuids: string[] = [];
    for (const name of names) uuids.push((await publish(app, owner.token, { ...HULK, name, tags: ['sortmap'] })).uuid);
    await app.rest('POST', '/api/assembly/like', { token: other.token, body: { uuid: uuids[1] } });
    await app.rest('POST', '/api/assembly/rate', { token: other.token, body: { uuid: uuids[2], score: 5 } });
    const order = async (query: string) => {
      const response = await app.rest('GET', `/api/assembly/list?keyword=sortmap&${query}`);
      assert.is(response.status, 200, `${query}: ${response.text.slice(0, 200)}`);
      return response.body.data.data.map((item: { name: string }) => item.name);
    };
    for (const [sortField, sort] of [
      ['createdTime', 'latest'],
      ['likes', 'hottest'],
      ['rating', 'rating'],
      ['updatedTime', 'updated'],
    ]) {
      assert.equal(
        await order(`sortField=${sortField}&sortOrder=desc`),
        await order(`sort=${sort}`),
        `sortField=${sortField} is sort=${sort}`,
      );
      assert.equal(await order(`sortField=${sortField}&sort=${sort}`), await order(`sort=${sort}`), 'both, agreeing');
      assert.equal(
        await order(`sortField=${sortField}&sortOrder=asc`),
        (await order(`sort=${sort}`)).reverse(),
        `sortField=${sortField}&sortOrder=asc reverses it`,
      );
    }
    assert.is((await order('sortField=likes'))[0], 'Sortmap liked');
    assert.is((await order('sortField=rating'))[0], 'Sortmap rated');
    assert.is((await order('sortField=createdTime'))[0], 'Sortmap rated');
    // What the Browse view sends besides (src/views/assembly/Browse.vue:104-116): accepted, changing nothing.
    assert.equal(await order('isHasPassword=false&sortField=createdTime&sortOrder=desc'), await order('sort=latest'));
    assert.equal(await order('createdStart=&updatedEnd='), await order('sort=latest'), 'empty date ranges');
    assert.equal(
      await order('isHasPassword=true'),
      await order('sort=latest'),
      'lists hold no assembly with a password either way',
    );
    assert.equal(
      await order('createdStart=2024-01-01'),
      await order('sort=latest'),
      'a range that holds them all (list-order-ranges.test.ts has the rest)',
    );
    const refused = async (query: string, pattern: RegExp) => {
      const response = await app.rest('GET', `/api/assembly/list?${query}`);
      assert.is(response.status, 400, query);
      assert.match(response.body.message, pattern);
    };
    await refused('sortField=__proto__', /sortField: must be createdTime, likes, rating/);
    await refused('sortField=toString', /sortField: must be createdTime, likes, rating/);
    await refused('sortField=likes&sort=latest', /sortField: disagrees with sort=latest/);
    await refused('sortOrder=ascending', /sortOrder: must be desc or asc/);
    await refused('createdStart=2024-01-32', /createdStart: must be a date/);
    // tRPC: the same input.
    const viaTrpc = await app.trpc().assembly.list.query({ keyword: 'sortmap', sortField: 'likes', sortOrder: 'desc' });
    assert.is(viaTrpc.data[0]!.name, 'Sortmap liked');
  },
);

Forms.run();

const Guesses = suite<{ app: TTestServer; owner: TUser; other: TUser }>('assembly locked answer and the guess limits');

Guesses.before(async (context) => {
  context.app = await startTestServer({ RATE_LIMIT_ASSEMBLY_PASSWORD_CLIENT: 3 });
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.other = await context.app.signUp();
});
Guesses.after(async ({ app }) => app.stop());

Guesses(
  'locked answer: no guess spent, no view counted; wrong passwords are 403s until the guess limit (429)',
  async ({ app, owner, other }) => {
    const locked = await publish(app, owner.token, { ...HULK, isPublic: false, password: 'open-sesame' });
    const url = `/api/assembly/item?uuid=${locked.uuid}`;
    for (let i = 0; i < 15; i++)
      assert.is(
        (await app.rest('GET', url, { token: other.token })).body.data.isPassword,
        true,
        'asking without the password spends no guess',
      );
    const own = (await app.rest('GET', url, { token: owner.token })).body.data;
    assert.equal([own.isVisibility, own.isOwner, own.views], [true, true, 0], 'no view counted for a locked answer');
    // RATE_LIMIT_ASSEMBLY_PASSWORD_CLIENT (3 here) wrong guesses per client and assembly, then a 429.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await app.rest('GET', `${url}&password=guess-${i}`, { token: other.token })).status);
    assert.equal(statuses, [403, 403, 403, 429]);
    assert.is(
      (await app.rest('GET', `/api/assembly/attr?uuid=${locked.uuid}&password=guess-x`)).status,
      429,
      'the attr route shares the budget',
    );
    assert.equal(
      (await app.rest('GET', url)).body.data,
      { uuid: locked.uuid, isVisibility: false, isPassword: true, isOwner: false },
      'still answered locked',
    );
  },
);

Guesses.run();
