// The live service's fields beside the envelope (issue 34, item 3): where the community web client
// reads a field at the top level of the body, on an endpoint the contract does not list, the REST body
// also carries it there, with the value of the field of `data` it repeats. Declared once per procedure
// (meta.topLevel), written by the one envelope writer (server/rest/envelope.ts), shown in the OpenAPI
// document; every answer keeps code, message and data as they were, errors and the contract's own
// endpoints carry nothing more, and native tRPC answers the output as it is.
import * as assert from 'uvu/assert';
import { topLevelFieldsOf } from '../../server/rest/envelope';
import { RouteTable } from '../../server/rest/routes';
import { appRouter } from '../../server/router';
import { startTestServer, type TTestServer } from '../support/helpers';
import { resolveRef } from '../support/openapi-operations';
import { suite } from '../support/suite';
import { importCarriedData } from '../codex/fixtures';

/** Every route declaring fields beside the envelope, with what the web client reads there (file:line). */
const DECLARED: Record<string, Record<string, string>> = {
  'GET /likes/check': { isLiked: 'isLiked' }, // stores/likeStore.ts:25
  'POST /likes/toggle': { isLiked: 'isLiked', likeCount: 'likeCount' }, // stores/likeStore.ts:47
  'GET /likes/count': { likeCount: 'likeCount' }, // stores/likeStore.ts:66
  'GET /map/collections/{uuid}/points': { points: 'data' }, // src/views/map/View.vue:1046
  'GET /map/user/points': { points: 'data' }, // src/views/user/account/maps.vue:105
  'GET /map/user/orphan-points': { points: 'data' }, // src/views/user/account/maps.vue:127
  'GET /map/point/nearby': { points: 'points' }, // src/views/map/View.vue:1232
  'GET /privilege/user/{userId}': { privileges: 'privileges' }, // src/views/user/admin/PrivilegeManagement.vue:513
};

const Fields = suite<{ app: TTestServer; user: Awaited<ReturnType<TTestServer['signUp']>>; collection: string }>(
  'fields beside the envelope, where the web client reads them',
);

Fields.before(async (context) => {
  context.app = await startTestServer();
  await importCarriedData(context.app);
  context.user = await context.app.signUp();
  const collection = await context.app.rest('POST', '/api/map/collection', {
    token: context.user.token,
    body: { title: 'Coves', isPublic: true },
  });
  context.collection = collection.body.data.uuid;
  for (const [title, collectionUuid] of [
    ['In the collection', context.collection],
    ['Orphan', undefined],
  ] as const) {
    const point = await context.app.rest('POST', '/api/map/point', {
      token: context.user.token,
      body: { title, latitude: 0.5, longitude: -0.6, collectionUuid, public: true },
    });
    assert.is(point.status, 200, point.text);
  }
});
Fields.after(async ({ app }) => app.stop());

Fields("the routes that declare them, and none of the contract's", () => {
  const declared = Object.fromEntries(
    RouteTable.fromRouter(appRouter)
      .all()
      .filter((route) => route.topLevel)
      .map((route) => [`${route.method} ${route.template}`, route.topLevel]),
  );
  assert.equal(declared, DECLARED);
  assert.throws(() => topLevelFieldsOf('/x', { data: 'points' }), /may not name the envelope's data/);
});

Fields(
  'REST bodies: code, message and data as before, and the declared fields beside them with the same values',
  async ({ app, user, collection }) => {
    const bodies: [string, Record<string, any>][] = [
      [
        'GET /likes/check',
        (await app.rest('GET', '/api/likes/check?targetType=ship&targetId=dhow', { token: user.token })).body,
      ],
      [
        'POST /likes/toggle',
        (
          await app.rest('POST', '/api/likes/toggle', {
            token: user.token,
            body: { targetType: 'ship', targetId: 'dhow' },
          })
        ).body,
      ],
      ['GET /likes/count', (await app.rest('GET', '/api/likes/count?targetType=ship&targetId=dhow')).body],
      ['GET /map/collections/{uuid}/points', (await app.rest('GET', `/api/map/collections/${collection}/points`)).body],
      ['GET /map/user/points', (await app.rest('GET', '/api/map/user/points', { token: user.token })).body],
      [
        'GET /map/user/orphan-points',
        (await app.rest('GET', '/api/map/user/orphan-points', { token: user.token })).body,
      ],
      ['GET /map/point/nearby', (await app.rest('GET', '/api/map/point/nearby?latitude=0.5&longitude=-0.6')).body],
    ];
    for (const [key, body] of bodies) {
      const fields = DECLARED[key]!;
      assert.equal(Object.keys(body), ['code', 'message', 'data', ...Object.keys(fields)], key);
      assert.equal([body.code, body.message], [200, 'success']);
      for (const [name, field] of Object.entries(fields)) assert.equal(body[name], body.data[field], `${key}: ${name}`);
    }
    assert.equal([bodies[1]![1].isLiked, bodies[1]![1].likeCount], [true, 1]);
    assert.is(bodies[3]![1].points[0].title, 'In the collection');
    assert.is(bodies[5]![1].points[0].title, 'Orphan');
    assert.is(bodies[6]![1].points.length, 2);
  },
);

Fields("errors, the contract's endpoints and native tRPC carry nothing beside", async ({ app, user }) => {
  const missing = await app.rest('GET', '/api/likes/count?targetType=ship&targetId=noSuchShip');
  assert.equal([missing.status, Object.keys(missing.body)], [404, ['code', 'message', 'data']]);
  // maps.vue:511 reads body.pagination of GET map/collections, a contract endpoint: it stays the envelope.
  for (const path of [
    '/api/map/collections',
    '/api/user/me',
    '/api/stateOfWar/seasons',
    '/api/calendar/data?season=shatteredSeas',
  ]) {
    const response = await app.rest('GET', path, { token: user.token });
    assert.equal([response.status, Object.keys(response.body)], [200, ['code', 'message', 'data']], path);
  }
  const viaTrpc = await app.trpc().assembly.likes.count.query({ targetType: 'ship', targetId: 'dhow' });
  assert.equal(Object.keys(viaTrpc), ['targetType', 'targetId', 'likeCount']);
});

Fields(
  'the OpenAPI document shows each declared field in the 200 answer, with the schema of the field it repeats',
  async ({ app }) => {
    const document = (await app.rest('GET', '/api/openapi.json')).body as any;
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const key = `${method.toUpperCase()} ${path}`;
        const media = operation.responses['200'].content['application/json'];
        if (!media) continue;
        const properties = Object.keys(media.schema.properties);
        const fields = DECLARED[key] ?? {};
        assert.equal(properties, ['code', 'message', 'data', ...Object.keys(fields)], key);
        for (const [name, field] of Object.entries(fields)) {
          const data = resolveRef(document, media.schema.properties.data);
          const repeated =
            data.properties?.[field] ??
            data.allOf?.map((part: any) => resolveRef(document, part).properties?.[field]).find(Boolean);
          const { description, ...schema } = media.schema.properties[name];
          const { description: _, ...expected } = repeated;
          assert.equal(schema, expected, `${key}: ${name} has data.${field}'s schema`);
          assert.match(description, `data.${field}`);
          assert.ok(media.schema.required.includes(name));
        }
      }
    }
  },
);

Fields.run();
