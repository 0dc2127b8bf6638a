// Client replay: the community web client's assembly reads (GlowProw/website), sent as it sends them
// (test/web-client/client-request.ts), against a server with the demo data: the detail page (anonymous,
// as the creator, the private one behind its password), the share link and the workshop. Each test names
// the client's call (src/assets/sripts/api/assembly_service.ts) and the view that reads the answer, and
// asserts every field that view reads. docs/compatibility.md ("Assemblies") lists the same fields.
import * as assert from 'uvu/assert';
import { DEMO_ASSEMBLY_PASSWORD } from '../../server/seed/assemblies';
import { assemblySuite, assertClientLoadout, assertDetail, demoUuid } from './assembly-fixtures';
import { send } from './client-request';

const Client = assemblySuite('web client: assemblies (detail, share, workshop)');

Client('detail: GET assembly/item?uuid=…, anonymous and as the creator', async ({ app, captain }) => {
  // assembly_service.ts:46-57 (params {uuid, password}; its `data: {force}` body is not sent on a GET),
  // called by src/views/assembly/Detail.vue:93-96 (password from the route's query: absent here).
  const uuid = await demoUuid(app, 'Brigantine broadside');
  const anonymous = await send(app, 'GET', 'assembly/item', { params: { uuid, password: undefined } });
  assert.is(anonymous.status, 200, anonymous.text);
  assertDetail(anonymous.body.data, {
    name: 'Brigantine broadside',
    username: 'captain',
    isOwner: false,
    shipId: 'brigantine',
    visibility: 'publicly',
  });
  assert.is(
    anonymous.body.data.description,
    'Long-range pressure with culverins on both sides; the ballista finishes.',
  );
  const own = await send(app, 'GET', 'assembly/item', { token: captain, params: { uuid } });
  assertDetail(own.body.data, {
    name: 'Brigantine broadside',
    username: 'captain',
    isOwner: true,
    shipId: 'brigantine',
    visibility: 'publicly',
  });
});

Client(
  'detail of the private demo assembly: the locked 200 shows the password prompt; with ?password=… the content',
  async ({ app, captain }) => {
    const uuid = await demoUuid(app, 'Cutter rocket raider');
    // Detail.vue:333-345: `isPassword` and not `isVisibility` shows the password form (no content is read).
    const locked = await send(app, 'GET', 'assembly/item', { token: captain, params: { uuid } });
    assert.is(locked.status, 200, locked.text);
    assert.equal(locked.body.data, { uuid, isVisibility: false, isPassword: true, isOwner: false });
    const opened = await send(app, 'GET', 'assembly/item', {
      token: captain,
      params: { uuid, password: DEMO_ASSEMBLY_PASSWORD },
    });
    assert.is(opened.status, 200, opened.text);
    assertDetail(opened.body.data, {
      name: 'Cutter rocket raider',
      username: 'deckhand',
      isOwner: false,
      shipId: 'cutter',
      visibility: 'private',
    });
    // A wrong password: the envelope's numeric code, which the view translates (Detail.vue:102-105).
    const wrong = await send(app, 'GET', 'assembly/item', { params: { uuid, password: 'guess' } });
    assert.equal([wrong.status, wrong.body.code], [403, 403]);
  },
);

Client('share: GET assembly/item with the password of the share link', async ({ app }) => {
  // src/views/assembly/Share.vue:111 `getAssemblyItem(uuid, {password})`; read at Share.vue:114-115,
  // 137-142 (assembly.attr.assemblyUseVersion, `data || assembly.data`), 260-292, 326.
  const uuid = await demoUuid(app, 'Cutter rocket raider');
  const response = await send(app, 'GET', 'assembly/item', { params: { uuid, password: DEMO_ASSEMBLY_PASSWORD } });
  const item = response.body.data;
  assert.is(item.name, 'Cutter rocket raider', 'Share.vue:115, 260-261');
  assert.is(item.isVisibility, true, 'Share.vue:265');
  assert.type(item.assembly.attr, 'object', 'Share.vue:140, 267-268 (backgroundPresentation)');
  assert.is(item.data, undefined, 'Share.vue:142 falls back to assembly.data');
  assertClientLoadout(item.assembly.data, 'cutter');
  assert.equal(item.tags, ['pve', 'merchant-raid'], 'Share.vue:275-276');
  assert.type(item.description, 'string', 'Share.vue:290-292');
  assert.is(item.uuid, uuid, 'Share.vue:326');
});

Client(
  'workshop: GET assembly/item?uuid=… by its creator, loaded into the three editors',
  async ({ app, deckhand }) => {
    // src/views/assembly/workshop/Index.vue:107 `getAssemblyItem(uid)`; read at workshop/Index.vue:124-147.
    const uuid = await demoUuid(app, 'Cutter rocket raider');
    const item = (await send(app, 'GET', 'assembly/item', { token: deckhand, params: { uuid } })).body.data;
    assert.is(item.isOwner, true);
    assert.type(item.assembly.attr, 'object', 'Index.vue:129-131');
    assertClientLoadout(item.assembly.data, 'cutter');
    assert.equal(item.wheel, { attr: {}, data: null }, "Index.vue:135-140: published in the contract's form, no wheel");
    assert.equal(item.warehouse, { attr: {}, data: null }, 'Index.vue:142-147');
  },
);

Client.run();
