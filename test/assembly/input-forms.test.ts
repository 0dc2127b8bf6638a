// The input forms of publish and edit (issue 18): the contract's form still accepted, the community web
// client's form accepted too (the same stored loadout), the client's private visibility and attr.password
// checked by the contract's password rules. Unknown fields: input-forms-unknown-keys.test.ts; the client's
// sortField/sortOrder: input-forms-list-sort.test.ts; the locked answer and the guess limits:
// input-forms-locked.test.ts.
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { assemblies } from '../../db/schema';
import type { TTestServer } from '../support/helpers';
import { BRIGANTINE, BRIGANTINE_CLIENT_DATA, clientPublish, ownerAndOtherSuite, publish } from './fixtures';

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

const Forms = ownerAndOtherSuite("assembly input forms: the contract's and the web client's");

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

Forms.run();
