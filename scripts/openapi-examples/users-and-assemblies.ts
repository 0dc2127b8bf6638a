// The examples of the users' and the assemblies' operations.
import { DEMO_ASSEMBLY_PASSWORD } from '../../server/seed/assemblies';
import type { TTestServer } from '../../test/support/helpers';
import { pageOne, type Recorder, type TJson } from './recorder';

/** Accounts, profiles and avatars; answers the caller's profile and the newcomer's session for the calls after it. */
export async function recordUsers(r: Recorder, app: TTestServer, user: string) {
  const newcomer = await r.call('POST /user/signup', {
    body: {
      username: 'saltwater_sam',
      email: 'sam@example.com',
      password: 'correct horse battery',
      alternativeName: 'Salty Sam',
    },
  });
  const me = await r.call('GET /user/me', { token: user });
  await r.call('POST /user/me', {
    token: user,
    body: { attr: { introduction: 'Hunting merchant convoys off Red Isle.', language: 'en' } },
  });
  await r.call('GET /user/info', { parameters: { id: me.id } });
  await r.call('PUT /user/changeAlternativeName', { token: newcomer.token, body: { username: 'Sam of the Shoals' } });
  await r.call('POST /user/password', {
    token: newcomer.token,
    body: { currentPassword: 'correct horse battery', newPassword: 'stronger horse battery' },
  });
  // A password change ends the account's sessions.
  const again = await app.rest('POST', '/api/user/signin', {
    body: { username: 'saltwater_sam', password: 'stronger horse battery' },
  });
  await r.call('PUT /user/changePassword', {
    token: again.body.data.token,
    body: { oldPassword: 'stronger horse battery', newPassword: 'correct horse battery' },
  });
  const newcomerToken = (
    await app.rest('POST', '/api/user/signin', {
      body: { username: 'saltwater_sam', password: 'correct horse battery' },
    })
  ).body.data.token as string;
  const avatar = await r.call('PUT /user/avatar', {
    token: newcomerToken,
    body: { image: TINY_PNG_BASE64, contentType: 'image/png' },
  });
  await r.call('GET /user/avatar/{userId}', {
    parameters: { userId: newcomer.userId, v: new URL(avatar.userAvatar, 'http://x').searchParams.get('v') ?? '1' },
    raw: true,
  });
  await r.call('DELETE /user/avatar', { token: newcomerToken });
  await r.call('GET /user/me/assemblys', { token: user, parameters: pageOne });
  await r.call('GET /user/space/assemblys', { parameters: { userId: me.id, ...pageOne } });
  return { me, newcomerToken };
}

/** Assemblies, their likes, ratings, forks and comments, the trash, and the list's other parameters. */
export async function recordAssemblies(r: Recorder, app: TTestServer, user: string, me: { id: string }) {
  const list = await r.call('GET /assembly/list', {
    parameters: { page: 1, pageSize: 2, sort: 'hottest', sortOrder: 'desc', keyword: 'brig', shipType: 'medium' },
  });
  const all = await app.rest('GET', '/api/assembly/list?pageSize=100');
  const first = list.data[0] ?? all.body.data.data[0];
  await r.call('GET /assembly/item', { parameters: { uuid: first.uuid } });
  await r.call('GET /assembly/attr', { parameters: { uuid: first.uuid } });
  const published = await r.call('POST /assembly/publish', {
    token: user,
    body: {
      name: 'Broadside brawler',
      shipId: first.shipId,
      weapons: [],
      description: 'Close range, heavy armor, long guns on both sides.',
      tags: ['pvp', 'brawler'],
      isPublic: true,
    },
  });
  const etagOf = async (uuid: string) =>
    (await app.rest('GET', `/api/assembly/item?uuid=${uuid}`, { token: user })).headers.get('etag')!;
  await r.call('POST /assembly/edit', {
    token: user,
    headers: { 'if-match': await etagOf(published.uuid) },
    body: { uuid: published.uuid, data: { description: 'Close range, heavy armor; reload before you turn.' } },
  });
  await r.call('POST /assembly/attr/edit', {
    token: user,
    headers: { 'if-match': await etagOf(published.uuid) },
    body: { uuid: published.uuid, assembly: { visibility: 'publicly', attr: { isShowItemName: true } } },
  });
  const others = all.body.data.data.find((item: TJson) => item.userId !== me.id) ?? first;
  await r.call('POST /assembly/like', { token: user, body: { uuid: others.uuid, like: true } });
  await r.call('POST /assembly/rate', { token: user, body: { uuid: others.uuid, score: 4 } });
  await r.call('POST /assembly/fork', { token: user, body: { uuid: others.uuid } });
  await r.call('GET /likes/check', { token: user, parameters: { targetType: 'assembly', targetId: others.uuid } });
  await r.call('POST /likes/toggle', { token: user, body: { targetType: 'assembly', targetId: others.uuid } });
  await r.call('GET /likes/count', { parameters: { targetType: 'assembly', targetId: others.uuid } });
  // A like of each kind for the lists (issue 34): a codex entry's, and the assembly's again.
  await app.rest('POST', '/api/likes/toggle', { token: user, body: { targetType: 'ship', targetId: 'galleon' } });
  await app.rest('POST', '/api/likes/toggle', { token: user, body: { targetType: 'assembly', targetId: others.uuid } });
  await r.call('GET /user/likes', { token: user, parameters: pageOne });
  await r.call('GET /user/space/likes', { parameters: { userId: me.id, ...pageOne } });
  const comment = await r.call('POST /comment', {
    token: user,
    body: {
      targetType: 'assembly',
      targetId: others.uuid,
      content: 'Tried it in the Red Isle convoy: the mortars carry the fight.',
    },
  });
  await r.call('POST /comment/edit', {
    token: user,
    body: {
      id: comment.id,
      content: 'Tried it in the Red Isle convoy: the mortars carry the fight. Bring repair kits.',
    },
  });
  await r.call('GET /comment/comments', {
    parameters: { targetType: 'assembly', targetId: others.uuid, page: 1, pageSize: 2, sortOrder: 'desc' },
  });
  await r.call('GET /user/comments', { token: user, parameters: pageOne });
  await r.call('POST /comment/delete', { token: user, body: { id: comment.id } });
  await r.call('POST /assembly/delete', { token: user, body: { uuid: published.uuid } });
  await r.call('GET /assembly/trash', { token: user, parameters: pageOne });
  await r.call('POST /assembly/restore', { token: user, body: { uuid: published.uuid } });
  // The web client's form of the list query, and the demo's private assembly read with its password.
  const weekAgo = new Date(app.clock.now().getTime() - 7 * 86_400_000).toISOString();
  await r.otherParameters('GET /assembly/list', {
    parameters: {
      sortField: 'likes',
      isHasPassword: false,
      createdStart: weekAgo,
      createdEnd: app.clock.now().toISOString(),
      updatedStart: weekAgo,
      updatedEnd: app.clock.now().toISOString(),
    },
  });
  // Private assemblies are missing from the public list; the demo's one has a password.
  const publicUuids = new Set(all.body.data.data.map((item: TJson) => item.uuid));
  const own = await app.rest('GET', '/api/user/me/assemblys?pageSize=100', { token: user });
  const locked = own.body.data.data.find((item: TJson) => !publicUuids.has(item.uuid));
  if (!locked) throw new Error('the demo has no private assembly');
  const withPassword = { uuid: locked.uuid, password: DEMO_ASSEMBLY_PASSWORD };
  await r.otherParameters('GET /assembly/item', { parameters: { ...withPassword, force: true } });
  await r.otherParameters('GET /assembly/attr', { parameters: withPassword });
  await r.otherParameters('GET /likes/check', {
    token: user,
    parameters: { targetType: 'assembly', targetId: locked.uuid, password: DEMO_ASSEMBLY_PASSWORD },
  });
  await r.otherParameters('GET /likes/count', {
    parameters: { targetType: 'assembly', targetId: locked.uuid, password: DEMO_ASSEMBLY_PASSWORD },
  });
  await r.otherParameters('GET /comment/comments', {
    parameters: { targetType: 'assembly', targetId: locked.uuid, password: DEMO_ASSEMBLY_PASSWORD },
  });
}

/** A 1×1 transparent PNG. */
const TINY_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
