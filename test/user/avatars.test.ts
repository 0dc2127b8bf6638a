// Avatars (issue 19) as an https URL: PUT /user/avatar {url} and DELETE /user/avatar over HTTP on both
// surfaces: the avatar in me, info, sign-in and on the creator's assemblies, the checks of URLs, and
// access (only your own avatar changes). Uploaded pictures are in avatars-uploads.test.ts.
import * as assert from 'uvu/assert';
import { HULK, importCommunitySample } from '../support/community-sample';
import { trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { readable } from '../assembly/fixtures';
import { serverSuite } from '../support/server-suite';
import { fetchAvatar, putAvatar as put, type TUser } from './fixtures';
import { dataUrl, PNG_1X1 } from './images';

const Avatars = serverSuite('avatars: URL, removal, access');

Avatars('an https URL is the avatar everywhere: me, info, sign-in; tRPC alike', async ({ app }) => {
  const user = await app.signUp();
  const response = await put(app, user, { url: 'https://Images.Example.test/me.png?size=80' });
  assert.is(response.status, 200, response.text);
  assert.is(response.body.data.userAvatar, 'https://images.example.test/me.png?size=80', 'as a browser reads it');
  assert.is(
    (await app.rest('GET', '/api/user/me', { token: user.token })).body.data.userAvatar,
    'https://images.example.test/me.png?size=80',
  );
  assert.is(
    (await app.rest('GET', `/api/user/info?id=${user.id}`)).body.data.userAvatar,
    'https://images.example.test/me.png?size=80',
  );
  const signedIn = await app.rest('POST', '/api/user/signin', {
    body: { username: user.username, password: user.password },
  });
  assert.is(signedIn.body.data.userAvatar, 'https://images.example.test/me.png?size=80');
  // Nothing is served here for a URL avatar.
  assert.is((await app.rest('GET', `/api/user/avatar/${user.id}`)).status, 404);
  const viaTrpc = await app.trpc(user.token).user.avatar.set.mutate({ url: 'https://cdn.example.test/a.webp' });
  assert.is(viaTrpc.userAvatar, 'https://cdn.example.test/a.webp');
  assert.is((await app.trpc().user.info.query({ id: user.id })).userAvatar, 'https://cdn.example.test/a.webp');
});

Avatars(
  "the creator's avatar on their assemblies, item and list, never stale after a change (the cached answers are dropped)",
  async ({ app }) => {
    await importCommunitySample(app, await signUpAdmin(app));
    const user = await app.signUp();
    const published = await app.rest('POST', '/api/assembly/publish', {
      token: user.token,
      body: { ...HULK, name: 'Avatar check' },
    });
    assert.is(published.status, 200, published.text);
    const uuid = published.body.data.uuid as string;
    const item = async () => (await app.rest('GET', `/api/assembly/item?uuid=${uuid}`)).body.data.userAvatar;
    const listed = async () =>
      (
        (await app.rest('GET', '/api/assembly/list?keyword=Avatar')).body.data.data as {
          uuid: string;
          userAvatar: string | null;
        }[]
      ).find((entry) => entry.uuid === uuid)?.userAvatar;
    assert.is(await item(), null);
    assert.is(await listed(), null, 'both now cached without an avatar');
    assert.is((await put(app, user, { url: 'https://images.example.test/captain.png' })).status, 200);
    assert.is(await item(), 'https://images.example.test/captain.png');
    assert.is(await listed(), 'https://images.example.test/captain.png');
    assert.is(
      readable(await app.trpc().assembly.getItem.query({ uuid })).userAvatar,
      'https://images.example.test/captain.png',
    );
    assert.is((await app.rest('DELETE', '/api/user/avatar', { token: user.token })).status, 200);
    assert.is(await item(), null);
    assert.is(await listed(), null);
  },
);

Avatars('URLs: https only, no credentials, at most 2048 characters; unknown fields are 400', async ({ app }) => {
  const user = await app.signUp();
  for (const [url, message] of [
    ['http://example.test/a.png', 'https'],
    ['javascript:alert(1)', 'https'],
    ['data:image/png;base64,AAAA', 'https'],
    ['//example.test/a.png', 'absolute https URL'],
    ['https://user:secret@example.test/a.png', 'credentials'],
    ['https://user@example.test/a.png', 'credentials'],
    ['https://example.test/a b.png', 'spaces'],
    ['https://example.test/a.png\n<script>', 'control'],
    [`https://example.test/${'a'.repeat(2030)}`, 'at most 2048'],
  ] as const) {
    const response = await put(app, user, { url });
    assert.is(response.status, 400, url.slice(0, 60));
    assert.ok(
      response.body.data.issues.some(
        (issue: { path: string; message: string }) => issue.path === 'url' && issue.message.includes(message),
      ),
      `${url.slice(0, 60)}: ${response.text.slice(0, 200)}`,
    );
  }
  assert.is(
    (await trpcError(app.trpc(user.token).user.avatar.set.mutate({ url: 'http://example.test/a.png' }))).status,
    400,
  );
  const extra = await put(app, user, { url: 'https://example.test/a.png', userId: 'someone-else' });
  assert.is(extra.status, 400);
  assert.match(extra.text, /Unrecognized key.*userId/);
  assert.is((await put(app, user, { url: 'https://example.test/a.png', contentType: 'image/png' })).status, 400);
});

Avatars(
  'remove: back to none, the uploaded picture gone (404); access: no token 401, only your own avatar changes',
  async ({ app }) => {
    const owner = await app.signUp();
    const stranger = await app.signUp();
    const uploaded = await put(app, owner, { image: dataUrl('image/png', PNG_1X1) });
    const path: string = uploaded.body.data.userAvatar;
    // 401 without a token, or with a dead one, on both surfaces.
    assert.is((await put(app, undefined, { url: 'https://example.test/x.png' })).status, 401);
    assert.is((await app.rest('DELETE', '/api/user/avatar')).status, 401);
    assert.is(
      (await put(app, { token: 'forgedtokenforgedtokenforgedtoke' } as TUser, { url: 'https://example.test/x.png' }))
        .body.data.key,
      'user.tokenExpired',
    );
    assert.is((await trpcError(app.trpc().user.avatar.set.mutate({ url: 'https://example.test/x.png' }))).status, 401);
    assert.is((await trpcError(app.trpc().user.avatar.remove.mutate())).status, 401);
    // A stranger's calls act on the stranger's own avatar only.
    assert.is((await put(app, stranger, { url: 'https://example.test/stranger.png' })).status, 200);
    assert.is((await app.rest('DELETE', '/api/user/avatar', { token: stranger.token })).body.data.userAvatar, null);
    assert.is(
      (await app.rest('GET', `/api/user/info?id=${owner.id}`)).body.data.userAvatar,
      path,
      "the owner's avatar is untouched",
    );
    assert.is((await fetchAvatar(app, path)).status, 200);
    // Anyone may fetch it, with or without a token.
    assert.is((await fetchAvatar(app, path, { authorization: `Bearer ${stranger.token}` })).status, 200);
    // The owner removes it.
    const removed = await app.rest('DELETE', '/api/user/avatar', { token: owner.token });
    assert.is(removed.status, 200, removed.text);
    assert.is(removed.body.data.userAvatar, null);
    assert.is((await app.rest('GET', `/api/user/info?id=${owner.id}`)).body.data.userAvatar, null);
    const gone = await fetchAvatar(app, path);
    assert.is(gone.status, 404);
    assert.is(((await gone.json()) as { code: number }).code, 404, 'errors stay envelopes');
    assert.match(gone.headers.get('content-type') ?? '', /^application\/json/);
    assert.is((await trpcError(app.trpc().user.avatar.get.query({ userId: owner.id }))).status, 404);
    assert.is((await app.rest('GET', '/api/user/avatar/00000000-0000-4000-8000-000000000000')).status, 404);
    // Removing again is fine; tRPC alike.
    assert.is((await app.trpc(owner.token).user.avatar.remove.mutate()).userAvatar, null);
    assert.is((await app.rest('GET', `/api/user/avatar/${owner.id}?v=x&extra=1`)).status, 400);
  },
);

Avatars.run();
