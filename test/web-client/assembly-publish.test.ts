// Client replay: the community web client's assembly writes (GlowProw/website), sent as it sends them
// (test/web-client/client-request.ts), against a server with the demo data: publish, then edit, settings
// and delete as the workshop does, and an unknown field refused by name. Each test names the client's call
// (src/assets/sripts/api/assembly_service.ts) and the view that reads the answer, and asserts every field
// that view reads. docs/compatibility.md ("Assemblies") lists the same fields.
import * as assert from 'uvu/assert';
import { assemblySuite, assertDetail } from './assembly-fixtures';
import { send } from './client-request';

const Client = assemblySuite('web client: assemblies (publish, edit, settings, delete)');

/** What the Publish view sends (src/views/assembly/Publish.vue:30-52, filled from the workshop's draft at 99-117). */
function publishData() {
  return {
    uuid: 'draft-1700000000000',
    name: 'Client brigantine',
    description: 'Published the way the web client does',
    assembly: {
      visibility: 'publicly',
      tags: ['client', 'broadside'],
      attr: { password: '', assemblyUseVersion: '0.0.2', language: 'zh-CN', isComment: true, isLike: true },
      data: {
        shipSlot: { id: 'brigantine' },
        ultimateSlot: { id: 'someUltimate' },
        shipUpgradeSlot: { id: 'someUpgrade' },
        weaponDirections: ['leftSideWeapon', 'rightSideWeapon', 'frontWeapon', 'aftWeapon'],
        weaponModifications: [[{ type: 'barrel', value: null }], [], [], []],
        weaponSlots: [{ id: 'culverin2' }, { id: 'culverin2' }, { id: 'longGun1' }, { id: null }],
        armorSlot: { id: 'bronzeBulwark1' },
        secondaryWeaponSlots: [{ id: 'ballista1' }],
        secondaryWeaponModifications: [[]],
        displaySlots: [{ id: 'firstAidStation' }, { id: null }],
        __version: '0.0.2',
      },
    },
    wheel: { attr: { wheelUseVersion: '0.0.1' }, data: { wheel: [1, 2, 3], __version: '0.0.1' } },
    warehouse: { attr: { warehouseUseVersion: '0.0.1' }, data: null },
  };
}

Client('publish, then edit, settings and delete, as the workshop does', async ({ app, captain }) => {
  // assembly_service.ts:18-20 `http.post('assembly/publish', {data})`, called by Publish.vue:204; read at
  // Publish.vue:212-218 (`d.data['assembly.uuid']`, `d.code`).
  const sent = publishData();
  const published = await send(app, 'POST', 'assembly/publish', { token: captain, data: sent });
  assert.is(published.status, 200, published.text);
  assert.is(published.body.code, 200, 'Publish.vue:218 basic.tips.200');
  const uuid = published.body.data['assembly.uuid'];
  assert.match(uuid, /^[0-9a-f-]{36}$/, 'Publish.vue:213-214');
  assert.is.not(uuid, sent.uuid, "the draft's uuid is not the assembly's");

  // The detail page it goes to (Publish.vue:214 → Detail.vue) reads back what was sent.
  const item = (await send(app, 'GET', 'assembly/item', { params: { uuid } })).body.data;
  assertDetail(item, {
    name: 'Client brigantine',
    username: 'captain',
    isOwner: false,
    shipId: 'brigantine',
    visibility: 'publicly',
  });
  assert.equal(item.assembly.data, sent.assembly.data, "the client's loadout, verbatim");
  assert.equal(
    item.assembly.attr,
    { assemblyUseVersion: '0.0.2', language: 'zh-CN', isComment: true, isLike: true },
    'the settings, without the password',
  );
  assert.equal(item.wheel, sent.wheel);
  assert.equal(item.warehouse, sent.warehouse);
  assert.equal(item.tags, ['client', 'broadside']);
  // Our loadout, from theirs: weaponSlots[i] in weaponDirections[i], empty slots skipped.
  assert.equal(item.weapons, [
    { slot: 'leftSideWeapon', itemId: 'culverin2' },
    { slot: 'rightSideWeapon', itemId: 'culverin2' },
    { slot: 'frontWeapon', itemId: 'longGun1' },
    { slot: 'auxiliaryWeapon', itemId: 'ballista1' },
  ]);
  assert.equal([item.armor, item.furnitures], ['bronzeBulwark1', ['firstAidStation']]);

  // assembly_service.ts:67-70 `http.post('assembly/edit', {data})`, called by Publish.vue:171 with the
  // whole publishData (its uuid now the assembly's); read at Publish.vue:172-181 (`d.code`).
  const edit = {
    ...publishData(),
    uuid,
    name: 'Client brigantine, private',
    assembly: {
      ...publishData().assembly,
      visibility: 'private',
      attr: { ...publishData().assembly.attr, password: 'deck-secret' },
    },
  };
  const edited = await send(app, 'POST', 'assembly/edit', { token: captain, data: edit });
  assert.is(edited.status, 200, edited.text);
  assert.is(edited.body.code, 200);
  const locked = (await send(app, 'GET', 'assembly/item', { params: { uuid } })).body.data;
  assert.equal(locked, { uuid, isVisibility: false, isPassword: true, isOwner: false }, 'private with a password now');
  assert.is(
    (await send(app, 'GET', 'assembly/item', { params: { uuid, password: 'deck-secret' } })).body.data.name,
    'Client brigantine, private',
  );

  // src/components/AssemblySettingPanel.vue:68 `getAssemblyAttr(id)` (assembly_service.ts:96-101); read at
  // AssemblySettingPanel.vue:71 (`Object.assign(settingData, d.data.data)`: assembly.visibility, assembly.attr, wheel.attr, warehouse.attr).
  const settings = await send(app, 'GET', 'assembly/attr', { token: captain, params: { uuid } });
  assert.is(settings.status, 200, settings.text);
  assert.equal(settings.body.data.data, {
    assembly: {
      visibility: 'private',
      attr: { assemblyUseVersion: '0.0.2', language: 'zh-CN', isComment: true, isLike: true, password: '' },
    },
    wheel: { attr: { wheelUseVersion: '0.0.1' } },
    warehouse: { attr: { warehouseUseVersion: '0.0.1' } },
    password: true,
  });

  // src/components/AssmblySettingWidget.vue:80 `deleteAssembly(uuid)` (assembly_service.ts:80-86: body {uuid}); read at 81-85 (`d.code`).
  const deleted = await send(app, 'POST', 'assembly/delete', { token: captain, data: { uuid } });
  assert.is(deleted.status, 200, deleted.text);
  assert.is(deleted.body.code, 200);
  assert.is((await send(app, 'GET', 'assembly/item', { params: { uuid } })).status, 404);
});

Client('a field the client does not send is refused by name (unknown fields are a 400)', async ({ app, captain }) => {
  const response = await send(app, 'POST', 'assembly/publish', {
    token: captain,
    data: { ...publishData(), colour: 'red' },
  });
  assert.is(response.status, 400);
  assert.equal(response.body.data.issues, [{ path: '', message: 'Unrecognized key: "colour"' }]);
});

Client.run();
