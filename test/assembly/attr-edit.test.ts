// POST /assembly/attr/edit (issue 19): the display settings of an assembly, written as an edit is
// (creator only, If-Match, caches) and read back by GET /assembly/attr, on both surfaces.
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { HULK, importCommunitySample } from '../support/community-sample';
import { trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { publish, readable, type TUser } from './fixtures';

const Settings = suite<{ app: TTestServer; owner: TUser; stranger: TUser }>('display settings: attr/edit');
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

Settings.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.stranger = await context.app.signUp();
});
Settings.after(async ({ app }) => app.stop());

const CLIENT_PUBLISH = {
  name: 'Settings hulk',
  assembly: {
    visibility: 'publicly',
    attr: { assemblyUseVersion: '1', isLike: true, isComment: true },
    data: { shipSlot: { id: 'hulk' }, weaponSlots: [{ id: 'demicannon1' }], weaponDirections: ['leftSideWeapon'] },
  },
  wheel: { attr: { wheelUseVersion: '1' }, data: { spokes: [1, 2] } },
  warehouse: { attr: { warehouseUseVersion: '1' }, data: { crates: 3 } },
};

Settings(
  'the settings read back by GET /assembly/attr; the loadout and the wheel and warehouse data are kept',
  async ({ app, owner }) => {
    const { uuid } = await publish(app, owner.token, CLIENT_PUBLISH);
    const read = async () =>
      (await app.rest('GET', `/api/assembly/attr?uuid=${uuid}`, { token: owner.token })).body.data.data;
    // What the client's settings panel sends back: GET's data (password flag included), changed.
    const settings = await read();
    settings.assembly.attr = { ...settings.assembly.attr, isLike: false, isShowItemName: true, language: ['en_US'] };
    delete settings.assembly.attr.password;
    settings.wheel.attr.wheelUseVersion = '2';
    const edited = await app.rest('POST', '/api/assembly/attr/edit', {
      token: owner.token,
      body: { uuid, ...settings },
    });
    assert.is(edited.status, 200, edited.text);
    assert.ok(edited.headers.get('etag'), 'the answer carries the new ETag');
    assert.equal(await read(), {
      assembly: {
        visibility: 'publicly',
        attr: {
          assemblyUseVersion: '1',
          isLike: false,
          isComment: true,
          isShowItemName: true,
          language: ['en_US'],
          password: '',
        },
      },
      wheel: { attr: { wheelUseVersion: '2' } },
      warehouse: { attr: { warehouseUseVersion: '1' } },
      password: false,
    });
    const item = readable((await app.rest('GET', `/api/assembly/item?uuid=${uuid}`)).body.data);
    assert.equal(item.wheel, { attr: { wheelUseVersion: '2' }, data: { spokes: [1, 2] } });
    assert.equal(item.warehouse.data, { crates: 3 });
    assert.equal(item.assembly.data, CLIENT_PUBLISH.assembly.data);
    assert.is(item.assembly.attr.isLike, false, 'the item cache was dropped');
    // Visibility and password, as on edit; then back through native tRPC.
    const hidden = await app.rest('POST', '/api/assembly/attr/edit', {
      token: owner.token,
      body: { uuid, assembly: { visibility: 'private', attr: { ...item.assembly.attr, password: 'open-sesame' } } },
    });
    assert.is(hidden.status, 200, hidden.text);
    assert.equal((await read()).password, true);
    assert.is((await app.rest('GET', `/api/assembly/item?uuid=${uuid}`)).body.data.isPassword, true);
    const back = await app.trpc(owner.token).assembly.editAttributes.mutate({
      uuid,
      assembly: { visibility: 'publicly', attr: { isLike: true } },
      warehouse: { attr: { warehouseUseVersion: '3' } },
      password: true,
    });
    assert.equal(back.assembly.attr, { isLike: true });
    assert.equal(back.warehouse, { attr: { warehouseUseVersion: '3' }, data: { crates: 3 } });
    assert.equal((await read()).password, false, 'public again: no password');
  },
);

Settings('If-Match: a stale ETag is a 412 and writes nothing, the current one works', async ({ app, owner }) => {
  const { uuid } = await publish(app, owner.token, HULK);
  const etag = (await app.rest('GET', `/api/assembly/item?uuid=${uuid}`, { token: owner.token })).headers.get('etag')!;
  const send = (attr: Record<string, unknown>) =>
    app.rest('POST', '/api/assembly/attr/edit', {
      token: owner.token,
      headers: { 'if-match': etag },
      body: { uuid, assembly: { attr } },
    });
  assert.is((await send({ isLike: false })).status, 200);
  assert.is((await send({ isLike: true })).status, 412);
  assert.is(
    (
      await trpcError(
        app
          .trpc(owner.token)
          .assembly.editAttributes.mutate({ uuid, ifMatch: etag, assembly: { attr: { isLike: true } } }),
      )
    ).status,
    412,
  );
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${uuid}`)).body.data.assembly.attr.isLike, false);
});

Settings(
  "errors: 400 bad input, 401 without a token, 403 someone else's, 404 unknown or trashed",
  async ({ app, owner, stranger }) => {
    const { uuid } = await publish(app, owner.token, HULK);
    const trashed = await publish(app, owner.token, HULK);
    await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: trashed.uuid } });
    const send = (token: string | undefined, body: Record<string, unknown>) =>
      app.rest('POST', '/api/assembly/attr/edit', { token, body: { uuid, ...body } });
    for (const [label, body] of [
      ['Unrecognized', { assembly: { attr: { isLike: true }, data: {} } }],
      ['Unrecognized', { name: 'renamed' }],
      ['isLike', { assembly: { attr: { isLike: 'yes' } } }],
      ['visibility', { assembly: { visibility: 'everyone' } }],
      ['give assembly', {}],
      ['password', { assembly: { visibility: 'publicly', attr: { password: 'open-sesame' } } }],
      ['password', { assembly: { visibility: 'private', attr: { password: 'abc' } } }],
    ] as const) {
      const response = await send(owner.token, body);
      assert.is(response.status, 400, `${label}: ${response.text}`);
      assert.match(response.text, label);
    }
    assert.is((await trpcError(app.trpc(owner.token).assembly.editAttributes.mutate({ uuid }))).status, 400);
    assert.is((await send(undefined, { assembly: { attr: {} } })).status, 401);
    assert.is(
      (await trpcError(app.trpc().assembly.editAttributes.mutate({ uuid, assembly: { attr: {} } }))).status,
      401,
    );
    assert.is((await send(stranger.token, { assembly: { attr: { isLike: false } } })).status, 403);
    assert.is(
      (await trpcError(app.trpc(stranger.token).assembly.editAttributes.mutate({ uuid, assembly: { attr: {} } })))
        .status,
      403,
    );
    for (const target of [UNKNOWN, trashed.uuid]) {
      assert.is((await send(owner.token, { uuid: target, assembly: { attr: {} } })).status, 404);
      assert.is(
        (
          await trpcError(
            app.trpc(owner.token).assembly.editAttributes.mutate({ uuid: target, assembly: { attr: {} } }),
          )
        ).status,
        404,
      );
    }
    assert.equal(
      (await app.rest('GET', `/api/assembly/item?uuid=${uuid}`)).body.data.assembly.attr,
      {},
      'nothing written by the refused calls',
    );
  },
);

Settings.run();
