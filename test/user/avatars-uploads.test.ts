// Uploaded avatars (issue 19): PUT /user/avatar {image} and GET /user/avatar/{userId}, over HTTP on both
// surfaces: the checks of pictures (413, 415, 400), the headers an uploaded picture is served with, and
// the rate limit per account (exactly N of a tRPC batch or of concurrent REST calls).
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { userAvatars, users } from '../../db/schema';
import { startTestServer, type TTestServer } from '../support/helpers';
import { batchClient, trpcError } from '../support/http-clients';
import { serverSuite } from '../support/server-suite';
import { fetchAvatar, putAvatar as put } from './fixtures';
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

const Uploads = serverSuite('avatars: uploads, served safely, limited');

Uploads(
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

Uploads(
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

Uploads(
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

Uploads(
  'the limit per account: a tRPC batch and concurrent REST calls over it get exactly N accepted, the rest 429; the stored picture matches the URL',
  async () => {
    const app = await startTestServer({ RATE_LIMIT_AVATAR_UPLOADS: 3 });
    try {
      const user = await app.signUp();
      const batch = batchClient(app.url, { token: user.token, maxItems: 10 }).client;
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

Uploads.run();
