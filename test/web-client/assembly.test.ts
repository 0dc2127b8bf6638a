// Client replay: the community web client's assembly calls (GlowProw/website), sent over real HTTP
// exactly as the client sends them (its axios wrapper: `http.post(url, {data})` sends `data` as the
// JSON body, GET `params` are the query string, axios leaves null and undefined params out, the token
// goes in `x-access-token`), against a server with the demo data. Each test names the client's call
// (src/assets/sripts/api/assembly_service.ts) and the view that reads the answer, and asserts every
// field that view reads. `handleResponse` hands the whole body on as `result.data`, so a view's
// `d.data.x` is the envelope's `data.x`. docs/compatibility.md ("Assemblies") lists the same fields.
// This file: the Browse view (its list and its filter); the detail, share and workshop reads are in
// assembly-detail.test.ts, publish, edit, settings and delete in assembly-publish.test.ts.
import * as assert from 'uvu/assert';
import { assemblySuite, assertClientLoadout, browse } from './assembly-fixtures';

const Client = assemblySuite('web client: assemblies (browse and its filter)');

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

Client.run();
