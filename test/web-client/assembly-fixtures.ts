// The assembly replay suites' set-up and the fields they assert (assembly.test.ts, assembly-detail.test.ts,
// assembly-publish.test.ts): each file's suite on a demo server of its own with captain and deckhand signed
// in (startDemoClient, client-request.ts), the Browse view's list call, and what Browse, Detail, Share and
// the workshop read of an assembly (src/assets/sripts/api/assembly_service.ts and its views).
import * as assert from 'uvu/assert';
import type { TTestServer } from '../support/helpers';
import { suite } from '../support/suite';
import { send, startDemoClient, type TDemoClient } from './client-request';

/** A suite of the assembly replays: a demo server of its own, captain and deckhand signed in; stopped after. */
export function assemblySuite(name: string) {
  const tests = suite<TDemoClient>(name);
  tests.before(startDemoClient);
  tests.after(async ({ app }) => app.stop());
  return tests;
}

/** The Browse view's list call (src/views/assembly/Browse.vue:96-116, its default filter at 26-42). */
export function browse(app: TTestServer, overrides: Record<string, string | number | boolean | null> = {}) {
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

/** The uuid of a demo assembly, by its name: from the list, or (private ones) from the database. */
export async function demoUuid(app: TTestServer, name: string): Promise<string> {
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
export function assertClientLoadout(data: any, shipId: string): void {
  assert.type(data, 'object');
  assert.equal(data.shipSlot, { id: shipId });
  for (const key of ['weaponSlots', 'weaponDirections', 'secondaryWeaponSlots', 'displaySlots'])
    assert.ok(Array.isArray(data[key]), `${key} is an array`);
  assert.is(data.weaponSlots.length, data.weaponDirections.length, 'one direction per weapon slot');
}

/** Every field Detail.vue reads of a readable item (src/views/assembly/Detail.vue:99-139, 187-327). */
export function assertDetail(
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
