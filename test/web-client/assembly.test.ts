// Client replay: the community web client's assembly calls (GlowProw/website), sent over real HTTP
// exactly as the client sends them (its axios wrapper: `http.post(url, {data})` sends `data` as the
// JSON body, GET `params` are the query string, axios leaves null and undefined params out, the token
// goes in `x-access-token`), against a server with the demo data. Each test names the client's call
// (src/assets/sripts/api/assembly_service.ts) and the view that reads the answer, and asserts every
// field that view reads. `handleResponse` hands the whole body on as `result.data`, so a view's
// `d.data.x` is the envelope's `data.x`. docs/compatibility.md ("Assemblies") lists the same fields.
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { DEMO_ASSEMBLY_PASSWORD } from '../../server/seed/assemblies';
import { startTestServer, type TTestServer } from '../support/helpers';
import { send, signIn } from './client-request';

interface TCtx {
  app: TTestServer;
  captain: string;
  deckhand: string;
}

const Client = suite<TCtx>('web client: assemblies (browse, detail, share, workshop, publish, edit, settings, delete)');

Client.before(async (context) => {
  context.app = await startTestServer({ SEED_DEMO: true });
  context.captain = await signIn(context.app, 'captain');
  context.deckhand = await signIn(context.app, 'deckhand');
});
Client.after(async ({ app }) => app.stop());

/** The Browse view's list call (src/views/assembly/Browse.vue:96-116, its default filter at 26-42). */
function browse(app: TTestServer, overrides: Record<string, string | number | boolean | null> = {}) {
  return send(app, 'GET', 'assembly/list', {
    params: {
      page: 1,
      pageSize: 6,
      keyword: '',
      sortField: 'createdTime',
      sortOrder: 'desc',
      isHasPassword: false,
      createdStart: null,
      createdEnd: null,
      updatedStart: null,
      updatedEnd: null,
      ...overrides,
    },
  });
}

async function demoUuid(app: TTestServer, name: string): Promise<string> {
  const found = (await browse(app, { keyword: name.split(' ')[0]!, pageSize: 20 })).body.data.data.find(
    (item: { name: string }) => item.name === name,
  );
  if (found) return found.uuid;
  // Private ones are not listed: read them from the database.
  const { assemblies } = await import('../../db/schema');
  const { eq } = await import('drizzle-orm');
  return (await app.database.db
    .select({ uuid: assemblies.uuid })
    .from(assemblies)
    .where(eq(assemblies.name, name))
    .get())!.uuid;
}

/** The loadout fields the client's AssemblyWidget loads (`onLoad(assembly.data)`, assembly_data_processing.ts:27-39). */
function assertClientLoadout(data: any, shipId: string): void {
  assert.type(data, 'object');
  assert.equal(data.shipSlot, { id: shipId });
  for (const key of ['weaponSlots', 'weaponDirections', 'secondaryWeaponSlots', 'displaySlots'])
    assert.ok(Array.isArray(data[key]), `${key} is an array`);
  assert.is(data.weaponSlots.length, data.weaponDirections.length, 'one direction per weapon slot');
}

/** Every field Detail.vue reads of a readable item (src/views/assembly/Detail.vue:99-139, 187-327). */
function assertDetail(
  item: any,
  expected: { name: string; username: string; isOwner: boolean; shipId: string; visibility: string },
): void {
  assert.is(item.isVisibility, true, 'Detail.vue:248, 255');
  assert.is(item.isPassword, false, 'Detail.vue:194, 345');
  assert.is(item.isOwner, expected.isOwner, 'Detail.vue:191, 222');
  assert.is(item.cloningUuid, null, 'Detail.vue:197: no fork');
  assert.match(item.uuid, /^[0-9a-f-]{36}$/);
  assert.is(item.name, expected.name, 'Detail.vue:78, 187');
  assert.type(item.description, 'string', 'Detail.vue:100 decodeURI');
  assert.ok(Array.isArray(item.tags), 'Detail.vue:261-262, 327');
  assert.type(item.userId, 'string', 'Detail.vue:293');
  assert.is(item.username, expected.username, 'Detail.vue:297');
  assert.is(item.userAvatar, null, 'Detail.vue:294: no avatar yet');
  assert.ok(!Number.isNaN(Date.parse(item.createdTime)), 'Detail.vue:306');
  assert.ok(!Number.isNaN(Date.parse(item.updatedTime)), 'Detail.vue:318');
  assert.is(item.assembly.visibility, expected.visibility);
  assert.type(item.assembly.attr, 'object', 'Detail.vue:122-124, 208, 252, 286');
  assertClientLoadout(item.assembly.data, expected.shipId);
  assert.type(item.wheel.attr, 'object', 'Detail.vue:130');
  assert.ok('data' in item.wheel, 'Detail.vue:132');
  assert.type(item.warehouse.attr, 'object', 'Detail.vue:136');
  assert.ok('data' in item.warehouse, 'Detail.vue:138');
}

Client('browse: GET assembly/list with the Browse filter; each card and the pagination', async ({ app }) => {
  // assembly_service.ts:31 `http.get('assembly/list', {params})`, called by src/views/assembly/Browse.vue:104-116;
  // read at Browse.vue:117-119 (`d.data` is the page), 58-71 (attr, assembly of each), 237-299 (the cards, pagination).
  const response = await browse(app);
  assert.is(response.status, 200, response.text);
  assert.is(response.body.code, 200);
  const page = response.body.data;
  assert.ok(Array.isArray(page.data));
  assert.is(page.data.length, 2, 'the two public demo assemblies');
  assert.equal(
    page.data.map((item: { name: string }) => item.name),
    ['Hulk brawler', 'Brigantine broadside'],
    'sortField=createdTime&sortOrder=desc: newest first',
  );
  for (const item of page.data) {
    assert.match(item.uuid, /^[0-9a-f-]{36}$/, 'Browse.vue:243, 273');
    assert.type(item.name, 'string', 'Browse.vue:244');
    assert.type(item.userId, 'string', 'Browse.vue:247');
    assert.is(item.userAvatar, null, 'Browse.vue:249');
    assert.ok(['captain', 'deckhand'].includes(item.username), 'Browse.vue:252');
    assert.is(item.isLiked, false, 'Browse.vue:258');
    assert.type(item.likes, 'number', 'Browse.vue:259');
    assert.type(item.attr, 'object', 'Browse.vue:68-69 (attr.assemblyUseVersion, attr.isShowItemName)');
    assertClientLoadout(item.assembly, item.shipId);
  }
  assert.equal(page.pagination, { page: 1, pageSize: 6, total: 2, totalPages: 1 }, 'Browse.vue:294-296');
  assert.is((await browse(app, { keyword: 'brawler' })).body.data.data[0].name, 'Hulk brawler');
});

/** What a TimeFrame picker (src/components/TimeFrame.vue:52-57) emits for two chosen days, split as Browse.vue:99-102 splits it. */
function timeFrame(start: Date, end: Date): [string, string] {
  const [from, to] = `${start.toISOString()},${end.toISOString()}`.split(',');
  return [from!, to!];
}

Client(
  'browse filter: every sortField and sortOrder, both TimeFrame ranges, isHasPassword (Browse.vue:34-52, 96-116, 205-218)',
  async ({ app }) => {
    const names = async (overrides: Record<string, string | number | boolean | null>) => {
      const response = await browse(app, overrides);
      assert.is(response.status, 200, `${JSON.stringify(overrides)}: ${response.text.slice(0, 300)}`);
      return response.body.data.data.map((item: { name: string }) => item.name) as string[];
    };
    const all = await names({});
    for (const sortField of ['createdTime', 'updatedTime', 'likes']) {
      const desc = await names({ sortField });
      assert.equal(desc.slice().sort(), all.slice().sort(), sortField);
      assert.equal(await names({ sortField, sortOrder: 'asc' }), desc.slice().reverse(), `${sortField} asc`);
      for (const isHasPassword of [true, false])
        assert.equal(
          await names({ sortField, isHasPassword }),
          desc,
          'isHasPassword changes nothing: lists hold public assemblies only',
        );
    }
    // The pickers send local midnights (a browser at UTC+08:00 here): the last three days hold the demo's assemblies (published 48 h ago and since), last week none.
    const midnight = (daysAgo: number) =>
      new Date(
        Date.parse(
          `${new Date(app.clock.now().getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10)}T00:00:00+08:00`,
        ),
      );
    const [recentStart, recentEnd] = timeFrame(midnight(3), midnight(-1));
    const [oldStart, oldEnd] = timeFrame(midnight(9), midnight(7));
    for (const sortField of ['createdTime', 'updatedTime', 'likes']) {
      for (const sortOrder of ['desc', 'asc']) {
        const plain = await names({ sortField, sortOrder });
        assert.equal(
          await names({ sortField, sortOrder, createdStart: recentStart, createdEnd: recentEnd }),
          plain,
          `${sortField} ${sortOrder}: created recently`,
        );
        assert.equal(
          await names({ sortField, sortOrder, updatedStart: recentStart, updatedEnd: recentEnd }),
          plain,
          `${sortField} ${sortOrder}: updated recently`,
        );
        assert.equal(
          await names({ sortField, sortOrder, createdStart: oldStart, createdEnd: oldEnd }),
          [],
          `${sortField} ${sortOrder}: created last week`,
        );
        assert.equal(
          await names({
            sortField,
            sortOrder,
            createdStart: recentStart,
            createdEnd: recentEnd,
            updatedStart: oldStart,
            updatedEnd: oldEnd,
          }),
          [],
        );
        assert.equal(
          await names({
            sortField,
            sortOrder,
            keyword: 'brawler',
            createdStart: recentStart,
            createdEnd: recentEnd,
            updatedStart: recentStart,
            updatedEnd: recentEnd,
          }),
          ['Hulk brawler'],
        );
      }
    }
    // A picker whose days are reversed cannot be confirmed in the client (TimeFrame.vue:26-29); sent anyway, a 400 naming the field.
    const reversed = await browse(app, { createdStart: recentEnd, createdEnd: recentStart });
    assert.equal([reversed.status, reversed.body.data.issues[0].path], [400, 'createdStart']);
  },
);

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
