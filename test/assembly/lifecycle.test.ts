// Edit, delete, trash, restore and purge by the creator, and what others are refused, on both surfaces.
import { eq } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { assemblies } from '../../db/schema';
import { JOBS } from '../../server/jobs';
import { startTestServer, type TTestServer } from '../support/helpers';
import { HULK, importCommunitySample } from '../support/community-sample';
import { trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { BRIGANTINE, DAY, publish, type TUser } from './fixtures';

const Lifecycle = suite<{ app: TTestServer; owner: TUser; other: TUser }>('edit, delete, trash, restore, purge');

Lifecycle.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.other = await context.app.signUp();
});
Lifecycle.after(async ({ app }) => app.stop());

Lifecycle('full cycle by the creator over REST: publish, edit, delete, trash, restore', async ({ app, owner }) => {
  const created = await publish(app, owner.token, BRIGANTINE);
  app.clock.advance(1000);
  const edited = await app.rest('POST', '/api/assembly/edit', {
    token: owner.token,
    body: { uuid: created.uuid, data: { name: 'Renamed', armor: null, furnitures: ['firstAidStation'] } },
  });
  assert.is(edited.status, 200, edited.text);
  assert.is(edited.body.data.name, 'Renamed');
  assert.is(edited.body.data.armor, null);
  assert.equal(edited.body.data.furnitures, ['firstAidStation']);
  assert.equal(edited.body.data.weapons, BRIGANTINE.weapons, 'untouched fields stay');
  assert.equal(edited.body.data.tags, ['pvp', 'broadside']);
  assert.ok(edited.body.data.updatedTime > created.updatedTime);

  const deleted = await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: created.uuid } });
  assert.is(deleted.status, 200);
  assert.is(deleted.body.data.uuid, created.uuid);
  assert.is(Date.parse(deleted.body.data.purgeAt) - Date.parse(deleted.body.data.deletedAt), 30 * DAY);
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`)).status, 404);
  const listed = (await app.rest('GET', '/api/assembly/list')).body.data.data.map(
    (item: { uuid: string }) => item.uuid,
  );
  assert.not.ok(listed.includes(created.uuid));
  assert.is(
    (await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: created.uuid } })).status,
    404,
  );
  assert.is(
    (
      await app.rest('POST', '/api/assembly/edit', {
        token: owner.token,
        body: { uuid: created.uuid, data: { name: 'x' } },
      })
    ).status,
    404,
  );

  const trash = await app.rest('GET', '/api/assembly/trash', { token: owner.token });
  assert.is(trash.status, 200);
  assert.equal(trash.body.data.pagination, { page: 1, pageSize: 20, total: 1, totalPages: 1 });
  assert.is(trash.body.data.data[0].uuid, created.uuid);
  assert.is(trash.body.data.data[0].name, 'Renamed');
  assert.is(trash.body.data.data[0].deletedAt, deleted.body.data.deletedAt);

  const restored = await app.rest('POST', '/api/assembly/restore', {
    token: owner.token,
    body: { uuid: created.uuid },
  });
  assert.is(restored.status, 200);
  assert.is(restored.body.data.name, 'Renamed');
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`)).status, 200);
  assert.is((await app.rest('GET', '/api/assembly/trash', { token: owner.token })).body.data.pagination.total, 0);
  const again = await app.rest('POST', '/api/assembly/restore', { token: owner.token, body: { uuid: created.uuid } });
  assert.is(again.status, 404);
  assert.match(again.body.message, /not in the trash/);
});

Lifecycle('full cycle over tRPC', async ({ app, owner }) => {
  const client = app.trpc(owner.token);
  const created = await client.assembly.publish.mutate(HULK);
  const edited = await client.assembly.edit.mutate({
    uuid: created.uuid,
    data: { tags: ['edited'], isPublic: false, password: 'open-sesame' },
  });
  // Whether it has a password: GET /assembly/attr's data.password (what the client's settings panel reads).
  const hasPassword = async () => (await client.assembly.getAttributes.query({ uuid: created.uuid })).data.password;
  assert.equal([edited.tags, edited.assembly.visibility, await hasPassword()], [['edited'], 'private', true]);
  const public_ = await client.assembly.edit.mutate({ uuid: created.uuid, data: { isPublic: true } });
  assert.equal(
    [public_.assembly.visibility, await hasPassword()],
    ['publicly', false],
    'a public assembly drops its password',
  );
  const locked = await client.assembly.edit.mutate({
    uuid: created.uuid,
    data: { isPublic: false, password: 'open-sesame' },
  });
  assert.is(locked.assembly.visibility, 'private');
  assert.is(await hasPassword(), true);
  const unlocked = await client.assembly.edit.mutate({ uuid: created.uuid, data: { password: null } });
  assert.equal([unlocked.assembly.visibility, await hasPassword()], ['private', false], 'password: null removes it');
  assert.is(
    (await trpcError(client.assembly.edit.mutate({ uuid: created.uuid, data: { isPublic: true, password: 'x-pass' } })))
      .status,
    400,
  );
  await client.assembly.edit.mutate({ uuid: created.uuid, data: { isPublic: true } });
  await client.assembly.delete.mutate({ uuid: created.uuid });
  const trash = await client.assembly.listTrash.query({});
  assert.equal(
    trash.data.map((item) => item.uuid),
    [created.uuid],
  );
  const restored = await client.assembly.restore.mutate({ uuid: created.uuid });
  assert.is(restored.uuid, created.uuid);
});

Lifecycle(
  'another user is refused: edit 403, delete 403, restore 404 (as for no such assembly), trash shows only your own',
  async ({ app, owner, other }) => {
    const created = await publish(app, owner.token, HULK);
    const edit = await app.rest('POST', '/api/assembly/edit', {
      token: other.token,
      body: { uuid: created.uuid, data: { name: 'Mine now' } },
    });
    assert.is(edit.status, 403);
    assert.match(edit.body.message, /creator/);
    assert.is(
      (await app.rest('POST', '/api/assembly/delete', { token: other.token, body: { uuid: created.uuid } })).status,
      403,
    );
    assert.is(
      (await trpcError(app.trpc(other.token).assembly.edit.mutate({ uuid: created.uuid, data: { name: 'x' } }))).status,
      403,
    );
    assert.is((await trpcError(app.trpc(other.token).assembly.delete.mutate({ uuid: created.uuid }))).status, 403);
    await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: created.uuid } });
    assert.is(
      (await app.rest('POST', '/api/assembly/restore', { token: other.token, body: { uuid: created.uuid } })).status,
      404,
    );
    assert.is((await trpcError(app.trpc(other.token).assembly.restore.mutate({ uuid: created.uuid }))).status, 404);
    assert.is((await app.rest('GET', '/api/assembly/trash', { token: other.token })).body.data.pagination.total, 0);
    assert.is((await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`)).status, 404);
    const stored = await app.database.db
      .select({ name: assemblies.name })
      .from(assemblies)
      .where(eq(assemblies.uuid, created.uuid))
      .get();
    assert.is(stored!.name, 'Hulk brawler');
    await app.rest('POST', '/api/assembly/restore', { token: owner.token, body: { uuid: created.uuid } });
  },
);

Lifecycle('401 without a token on every write and on trash, both surfaces', async ({ app, owner }) => {
  const created = await publish(app, owner.token, HULK);
  for (const [path, body] of [
    ['/api/assembly/edit', { uuid: created.uuid, data: { name: 'x' } }],
    ['/api/assembly/delete', { uuid: created.uuid }],
    ['/api/assembly/restore', { uuid: created.uuid }],
  ] as const) {
    assert.is((await app.rest('POST', path, { body })).status, 401, path);
  }
  assert.is((await app.rest('GET', '/api/assembly/trash')).status, 401);
  assert.is((await trpcError(app.trpc().assembly.listTrash.query({}))).status, 401);
  assert.is((await trpcError(app.trpc().assembly.restore.mutate({ uuid: created.uuid }))).status, 401);
  assert.is(
    (await trpcError(app.trpc().assembly.edit.mutate({ uuid: created.uuid, data: { name: 'x' } }))).status,
    401,
  );
});

Lifecycle('edit is re-validated against the catalog and needs a non-empty data', async ({ app, owner }) => {
  const created = await publish(app, owner.token, {
    ...HULK,
    shipId: 'brigantine',
    weapons: [{ slot: 'auxiliaryWeapon', itemId: 'ballista1' }],
  });
  const smaller = await app.rest('POST', '/api/assembly/edit', {
    token: owner.token,
    body: { uuid: created.uuid, data: { shipId: 'hulk' } },
  });
  assert.is(smaller.status, 400);
  assert.match(smaller.body.message, /data\.weapons\[0\]\.slot/);
  const unknown = await app.rest('POST', '/api/assembly/edit', {
    token: owner.token,
    body: { uuid: created.uuid, data: { armor: 'nope' } },
  });
  assert.is(unknown.status, 400);
  assert.match(unknown.body.message, /data\.armor "nope"/);
  const empty = await app.rest('POST', '/api/assembly/edit', {
    token: owner.token,
    body: { uuid: created.uuid, data: {} },
  });
  assert.is(empty.status, 400);
  assert.match(empty.body.message, /data/);
  const extra = await app.rest('POST', '/api/assembly/edit', {
    token: owner.token,
    body: { uuid: created.uuid, data: { creatorId: 'x' } },
  });
  assert.is(extra.status, 400);
  assert.is(
    (await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: created.uuid } })).status,
    400,
  );
  assert.is(
    (await app.rest('POST', '/api/assembly/edit', { token: owner.token, body: { uuid: 'short', data: { name: 'x' } } }))
      .status,
    400,
  );
  const stored = await app.database.db
    .select({ shipId: assemblies.shipId })
    .from(assemblies)
    .where(eq(assemblies.uuid, created.uuid))
    .get();
  assert.is(stored!.shipId, 'brigantine', 'nothing half-written');
});

Lifecycle('trash is paginated, newest deletion first', async ({ app }) => {
  const user = await app.signUp();
  const uuids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const created = await publish(app, user.token, { ...HULK, name: `Trash ${i}` });
    app.clock.advance(1000);
    await app.rest('POST', '/api/assembly/delete', { token: user.token, body: { uuid: created.uuid } });
    uuids.push(created.uuid);
  }
  const page = (await app.rest('GET', '/api/assembly/trash?pageSize=2&page=1', { token: user.token })).body.data;
  assert.equal(page.pagination, { page: 1, pageSize: 2, total: 3, totalPages: 2 });
  assert.equal(
    page.data.map((item: { name: string }) => item.name),
    ['Trash 2', 'Trash 1'],
  );
  assert.is((await app.rest('GET', '/api/assembly/trash?pageSize=101', { token: user.token })).status, 400);
});

Lifecycle('trash older than 30 days is purged by the periodic job; younger stays', async ({ app }) => {
  const user = await app.signUp();
  const fan = await app.signUp();
  const old = await publish(app, user.token, { ...HULK, name: 'Purge me' });
  await app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid: old.uuid } });
  await app.rest('POST', '/api/assembly/delete', { token: user.token, body: { uuid: old.uuid } });
  app.clock.advance(20 * DAY);
  const young = await publish(app, user.token, { ...HULK, name: 'Keep me' });
  await app.rest('POST', '/api/assembly/delete', { token: user.token, body: { uuid: young.uuid } });
  app.clock.advance(10 * DAY + 1000);
  const job = JOBS.find((candidate) => candidate.name === 'assembly-trash-purge')!;
  const result = (await job.run(app.database.db, app.app.deps)) as { purged: number; uuids: string[] };
  // Earlier tests of this suite trashed assemblies too (and the clock has moved 30 days): they go as well.
  assert.ok(result.uuids.includes(old.uuid));
  assert.not.ok(result.uuids.includes(young.uuid));
  assert.is(result.purged, result.uuids.length);
  const trash = (await app.rest('GET', '/api/assembly/trash', { token: user.token })).body.data.data;
  assert.equal(
    trash.map((item: { name: string }) => item.name),
    ['Keep me'],
  );
  assert.is(
    (await app.rest('POST', '/api/assembly/restore', { token: user.token, body: { uuid: old.uuid } })).status,
    404,
  );
  assert.is((await app.database.db.select().from(assemblies).where(eq(assemblies.uuid, old.uuid)).all()).length, 0);
});

Lifecycle.run();
