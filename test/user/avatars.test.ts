// Avatars (issue 19): PUT /user/avatar (an https URL or an uploaded picture), DELETE /user/avatar and
// GET /user/avatar/{userId}, over HTTP on both surfaces: the checks of URLs and pictures (413, 415,
// 400), the headers an uploaded picture is served with, the rate limit per account (exactly N of a
// tRPC batch or of concurrent REST calls), and access (only your own avatar changes).
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { eq } from 'drizzle-orm';
import superjson from 'superjson';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { userAvatars, users } from '../../db/schema';
import type { AppRouter } from '../../server/router';
import {
  HULK,
  importCommunitySample,
  signUpAdmin,
  startTestServer,
  trpcError,
  type TTestServer,
} from '../support/helpers';
import { readable } from '../assembly/fixtures';
import {
  dataUrl,
  FAKE_PNG_HTML,
  GIF_1X1,
  JPEG_2X3,
  PNG_1X1,
  PNG_HEADER_THEN_HTML,
  pngOfBytes,
  pngOfSize,
  SVG,
  WEBP_1X1,
} from './images';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
const Avatars = suite<{ app: TTestServer }>('avatars: URL or upload, served safely, limited');

Avatars.before(async (context) => {
  context.app = await startTestServer();
});
Avatars.after(async ({ app }) => app.stop());

const put = (app: TTestServer, user: TUser | undefined, body: unknown) =>
  app.rest('PUT', '/api/user/avatar', { token: user?.token, body });

/** The uploaded picture as a browser fetches it: the path userAvatar gives, under the server's origin. */
const fetchAvatar = (app: TTestServer, path: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${path}`, { headers });

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

Avatars(
  'every accepted type uploads (data URL or base64 with contentType) and is served with its sniffed type and safe headers',
  async ({ app }) => {
    const user = await app.signUp();
    for (const [type, bytes] of [
      ['image/png', PNG_1X1],
      ['image/gif', GIF_1X1],
      ['image/webp', WEBP_1X1],
      ['image/jpeg', JPEG_2X3],
    ] as const) {
      const response = await put(app, user, { image: dataUrl(type, bytes) });
      assert.is(response.status, 200, `${type}: ${response.text}`);
      const path: string = response.body.data.userAvatar;
      assert.match(path, new RegExp(`^/api/user/avatar/${user.id}\\?v=[0-9a-f]{16}$`));
      const served = await fetchAvatar(app, path);
      assert.is(served.status, 200);
      assert.is(served.headers.get('content-type'), type);
      assert.is(served.headers.get('x-content-type-options'), 'nosniff');
      assert.is(served.headers.get('content-security-policy'), "default-src 'none'; sandbox");
      assert.is(served.headers.get('content-disposition'), 'inline');
      assert.is(served.headers.get('cache-control'), 'public, max-age=86400', 'the current version may be cached');
      assert.ok(Buffer.from(await served.arrayBuffer()).equals(bytes), `${type}: the bytes as uploaded`);
      const etag = served.headers.get('etag')!;
      assert.match(etag, /^"[0-9a-f]{64}"$/);
      // Revalidation: 304 without a body; without the version (or an old one) it must revalidate.
      const again = await fetchAvatar(app, path, { 'if-none-match': etag });
      assert.is(again.status, 304);
      const unversioned = await fetchAvatar(app, `/api/user/avatar/${user.id}`);
      assert.is(unversioned.headers.get('cache-control'), 'public, no-cache');
      await unversioned.arrayBuffer();
    }
    // bare base64 with contentType; image/jpg is taken as image/jpeg.
    const bare = await put(app, user, { image: JPEG_2X3.toString('base64'), contentType: 'image/jpg' });
    assert.is(bare.status, 200, bare.text);
    // Native tRPC: the same picture, in base64.
    const viaTrpc = await app
      .trpc(user.token)
      .user.avatar.set.mutate({ image: PNG_1X1.toString('base64'), contentType: 'image/png' });
    const picture = await app.trpc().user.avatar.get.query({ userId: user.id });
    assert.equal([picture.contentType, Buffer.from(picture.base64, 'base64').equals(PNG_1X1)], ['image/png', true]);
    assert.is(viaTrpc.userAvatar, `/api/user/avatar/${user.id}?v=${picture.etag.slice(0, 16)}`);
    // One row per user, its hash the version of the URL.
    const rows = await app.database.db.select().from(userAvatars).where(eq(userAvatars.userId, user.id)).all();
    assert.is(rows.length, 1);
    assert.is(rows[0]!.etag, picture.etag);
  },
);

Avatars(
  'a PNG signature before HTML is refused (415); a real PNG header before HTML is served as image/png with nosniff, never as HTML',
  async ({ app }) => {
    const user = await app.signUp();
    const fake = await put(app, user, { image: dataUrl('image/png', FAKE_PNG_HTML) });
    assert.is(fake.status, 415, fake.text);
    assert.is(fake.body.code, 415);
    assert.is(fake.body.data.key, 'request.unsupportedMediaType');
    assert.equal(fake.body.data.issues, [{ path: 'image', message: 'The image is not a PNG, JPEG, WebP or GIF' }]);
    assert.is(
      (await trpcError(app.trpc(user.token).user.avatar.set.mutate({ image: dataUrl('image/png', FAKE_PNG_HTML) })))
        .status,
      415,
    );
    // Declared as HTML: refused for its declared type before anything else.
    assert.is((await put(app, user, { image: dataUrl('text/html', FAKE_PNG_HTML) })).status, 415);

    const polyglot = await put(app, user, { image: dataUrl('image/png', PNG_HEADER_THEN_HTML) });
    assert.is(polyglot.status, 200, polyglot.text);
    const served = await fetchAvatar(app, polyglot.body.data.userAvatar);
    assert.is(served.headers.get('content-type'), 'image/png');
    assert.is(served.headers.get('x-content-type-options'), 'nosniff');
    assert.match(served.headers.get('content-security-policy') ?? '', /sandbox/);
    assert.not.match(served.headers.get('content-type') ?? '', /html/);
    assert.ok(Buffer.from(await served.arrayBuffer()).equals(PNG_HEADER_THEN_HTML));
  },
);

Avatars(
  'refused pictures: SVG, a type other than declared, 413 over 256 KiB, 400 over 1024 pixels a side, malformed base64; nothing is stored',
  async ({ app }) => {
    const user = await app.signUp();
    const before = await put(app, user, { url: 'https://example.test/keep.png' });
    assert.is(before.status, 200);
    const cases: [string, unknown, number, string][] = [
      ['SVG declared as SVG', { image: dataUrl('image/svg+xml', SVG) }, 415, 'Unsupported image type'],
      ['SVG declared as PNG', { image: dataUrl('image/png', SVG) }, 415, 'not a PNG, JPEG, WebP or GIF'],
      [
        'a GIF declared as PNG',
        { image: dataUrl('image/png', GIF_1X1) },
        415,
        'is image/gif, not the declared image/png',
      ],
      [
        'a PNG declared with contentType image/webp',
        { image: PNG_1X1.toString('base64'), contentType: 'image/webp' },
        415,
        'not the declared image/webp',
      ],
      ['256 KiB and one byte', { image: dataUrl('image/png', pngOfBytes(256 * 1024 + 1)) }, 413, 'at most 262144'],
      ['1025 pixels wide', { image: dataUrl('image/png', pngOfSize(1025, 10)) }, 400, '1025 × 10'],
      ['0 pixels high', { image: dataUrl('image/png', pngOfSize(10, 0)) }, 400, 'each side'],
      ['empty', { image: 'data:image/png;base64,' }, 400, 'base64'],
      ['not base64', { image: 'data:image/png;base64,<<<>>>' }, 400, 'base64'],
      ['a data URL not in base64', { image: 'data:image/png,rawbytes' }, 400, 'base64 data URL'],
      ['bare base64 without contentType', { image: PNG_1X1.toString('base64') }, 400, 'contentType'],
      [
        'a data URL and contentType',
        { image: dataUrl('image/png', PNG_1X1), contentType: 'image/png' },
        400,
        'contentType',
      ],
      [
        'both url and image',
        { url: 'https://example.test/a.png', image: dataUrl('image/png', PNG_1X1) },
        400,
        'either url or image',
      ],
      ['neither', {}, 400, 'either url or image'],
    ];
    for (const [label, body, status, message] of cases) {
      const response = await put(app, user, body);
      assert.is(response.status, status, `${label}: ${response.text.slice(0, 200)}`);
      assert.is(response.body.code, status, label);
      assert.match(response.body.message, message, label);
      const viaTrpc = await trpcError(app.trpc(user.token).user.avatar.set.mutate(body as never));
      assert.equal([viaTrpc.status, viaTrpc.message], [status, response.body.message], `${label} on tRPC`);
    }
    // Over the request body limit (1 MiB): 413 before any of it is judged.
    const huge = await put(app, user, { image: dataUrl('image/png', pngOfBytes(800 * 1024)) });
    assert.is(huge.status, 413);
    assert.is(
      (await app.rest('GET', '/api/user/me', { token: user.token })).body.data.userAvatar,
      'https://example.test/keep.png',
      'unchanged',
    );
    assert.is(
      (await app.database.db.select().from(userAvatars).where(eq(userAvatars.userId, user.id)).all()).length,
      0,
    );
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

Avatars(
  'the limit per account: a tRPC batch and concurrent REST calls over it get exactly N accepted, the rest 429; the stored picture matches the URL',
  async () => {
    const app = await startTestServer({ RATE_LIMIT_AVATAR_UPLOADS: 3 });
    try {
      const user = await app.signUp();
      const batch = createTRPCClient<AppRouter>({
        links: [
          httpBatchLink({
            url: `${app.url}/trpc`,
            transformer: superjson,
            maxItems: 10,
            headers: () => ({ authorization: `Bearer ${user.token}` }),
          }),
        ],
      });
      const pictures = Array.from({ length: 8 }, (_, index) => pngOfSize(index + 1, 1));
      const outcomes = await Promise.allSettled(
        pictures.map((picture) => batch.user.avatar.set.mutate({ image: dataUrl('image/png', picture) })),
      );
      assert.is(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 3, 'exactly the limit accepted');
      for (const outcome of outcomes)
        if (outcome.status === 'rejected')
          assert.is((outcome.reason as { data?: { httpStatus?: number } }).data?.httpStatus, 429);
      await assertConsistent(app, user.id);

      const other = await app.signUp();
      const answers = await Promise.all(
        pictures.map((picture) => put(app, other, { image: dataUrl('image/png', picture) })),
      );
      assert.equal(answers.map((answer) => answer.status).sort(), [200, 200, 200, 429, 429, 429, 429, 429]);
      const limited = answers.find((answer) => answer.status === 429)!;
      assert.is(limited.body.data.key, 'request.rateLimited');
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      await assertConsistent(app, other.id);
      // Removing is not limited.
      assert.is((await app.rest('DELETE', '/api/user/avatar', { token: other.token })).status, 200);
    } finally {
      await app.stop();
    }
  },
);

/** users.avatar_url names the version of the one stored picture. */
async function assertConsistent(app: TTestServer, userId: string): Promise<void> {
  const [row] = await app.database.db
    .select({ avatarUrl: users.avatarUrl })
    .from(users)
    .where(eq(users.id, userId))
    .all();
  const pictures = await app.database.db.select().from(userAvatars).where(eq(userAvatars.userId, userId)).all();
  assert.is(pictures.length, 1);
  assert.is(row!.avatarUrl, `/api/user/avatar/${userId}?v=${pictures[0]!.etag.slice(0, 16)}`);
  const served = await fetch(`${app.url}${row!.avatarUrl}`);
  assert.is(served.headers.get('etag'), `"${pictures[0]!.etag}"`);
  await served.arrayBuffer();
}

Avatars.run();
