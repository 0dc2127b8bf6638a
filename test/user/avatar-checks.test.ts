// Avatars (issue 31, item 10), on both surfaces: a URL on the viewer's own machine or network is refused
// (every viewer's browser would request it), however its address is spelled; an uploaded picture whose
// header claims more pixels than a side may have, or than its bytes could hold, is refused. Nothing
// is stored for a refusal.
import { TRPCClientError } from '@trpc/client';
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { userAvatars } from '../../db/schema';
import { startTestServer, type TTestServer } from '../support/helpers';
import { suite } from '../support/suite';
import { dataUrl, pngClaiming, pngOfSize } from './images';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;
const Checks = suite<{ app: TTestServer; user: TUser }>('avatars: local hosts refused, pixel limits (issue 31)');

Checks.before(async (context) => {
  context.app = await startTestServer();
  context.user = await context.app.signUp();
});
Checks.after(async ({ app }) => app.stop());

const KEPT = 'https://images.example.test/kept.png';

/** A tRPC call's status and error message (empty when it succeeded). */
async function outcome(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
    return { status: 200, message: '' };
  } catch (error) {
    if (error instanceof TRPCClientError) return { status: error.data?.httpStatus, message: error.message };
    throw error;
  }
}

/** PUT /user/avatar on REST and user.avatar.set on tRPC: each answer's status and message, and the `url` or `image` issue of a REST 400. */
async function setOnBoth(app: TTestServer, user: TUser, body: Record<string, string>) {
  const rest = await app.rest('PUT', '/api/user/avatar', { token: user.token, body });
  const trpc = await outcome(app.trpc(user.token).user.avatar.set.mutate(body as never));
  const issues = (rest.body.data?.issues ?? []) as { path: string; message: string }[];
  return { rest: { status: rest.status, message: rest.body.message, issues }, trpc };
}

Checks(
  "URLs on the viewer's own machine or network are 400 on url, on REST and tRPC, whatever the spelling; nothing is stored",
  async ({ app, user }) => {
    assert.is((await app.rest('PUT', '/api/user/avatar', { token: user.token, body: { url: KEPT } })).status, 200);
    const local = [
      // loopback and unspecified, IPv4 and IPv6
      'https://127.0.0.1/x',
      'https://127.8.9.10/x',
      'https://0.0.0.0/x',
      'https://[::1]/x',
      'https://[0:0:0:0:0:0:0:1]/x',
      'https://[::]/x',
      // private (RFC 1918), shared (CGNAT), link-local (the cloud metadata address)
      'https://10.1.2.3/x',
      'https://172.16.0.1/x',
      'https://172.31.255.255/x',
      'https://192.168.1.1/x',
      'https://100.64.0.1/x',
      'https://100.127.255.254/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[fe80::1]/x',
      // unique-local and site-local IPv6; IPv4-mapped IPv6 of the ranges above
      'https://[fc00::1]/x',
      'https://[fd12:3456::1]/x',
      'https://[fec0::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[::ffff:10.0.0.1]/x',
      'https://[::ffff:c0a8:101]/x',
      // IPv4 as URL parsing reads it: one number, hex, octal, short forms, percent-encoded, full-width digits
      'https://2130706433/x',
      'https://0x7f.1/x',
      'https://0177.0.0.1/x',
      'https://127.1/x',
      'https://0/x',
      'https://%31%32%37.0.0.1/x',
      'https://１２７.0.0.1/x',
      // local names
      'https://localhost/x',
      'https://LOCALHOST./x',
      'https://a.b.localhost/x',
      'https://printer.local/x',
      'https://db.internal/x',
      'https://nas.home.arpa/x',
      'https://router/x',
    ];
    for (const url of local) {
      const { rest, trpc } = await setOnBoth(app, user, { url });
      assert.is(rest.status, 400, `${url}: ${rest.message}`);
      const issue = rest.issues.find((one) => one.path === 'url');
      assert.ok(issue?.message.startsWith('must name a public host'), `${url}: ${JSON.stringify(rest.issues)}`);
      assert.equal([trpc.status, trpc.message], [400, rest.message], `${url} on tRPC`);
    }
    assert.is((await app.rest('GET', '/api/user/me', { token: user.token })).body.data.userAvatar, KEPT, 'unchanged');
  },
);

Checks('public hosts next to the refused ranges are accepted, on REST and tRPC', async ({ app, user }) => {
  const accepted = [
    'https://8.8.8.8/a.png',
    'https://172.32.0.1/a.png',
    'https://100.128.0.1/a.png',
    'https://192.169.0.1/a.png',
    'https://[2606:4700::1111]/a.png',
    'https://[::ffff:8.8.8.8]/a.png',
    'https://localhost.example.test/a.png',
    'https://images.example.test/a.png',
  ];
  for (const url of accepted) {
    const { rest, trpc } = await setOnBoth(app, user, { url });
    assert.is(rest.status, 200, `${url}: ${rest.message}`);
    assert.is(trpc.status, 200, `${url} on tRPC: ${trpc.message}`);
  }
});

Checks(
  'pictures: at most 1024 pixels a side and 1024 pixels a byte of the file (a 45-byte PNG "of 4096 × 4096" is refused), on REST and tRPC',
  async ({ app, user }) => {
    const cases: [string, Buffer, number, RegExp][] = [
      [
        "the issue's 45-byte PNG claiming 4096 × 4096",
        pngClaiming(4096, 4096),
        400,
        /4096 × 4096 pixels; each side must be 1 to 1024/,
      ],
      ['1025 pixels wide', pngOfSize(1025, 10), 400, /1025 × 10 pixels; each side must be 1 to 1024/],
      [
        'a 45-byte PNG claiming 1024 × 1024',
        pngClaiming(1024, 1024),
        400,
        /claims 1024 × 1024 pixels in 45 bytes; at most 1024 pixels a byte/,
      ],
      ['a 1023-byte PNG claiming 1024 × 1024', pngClaiming(1024, 1024, 1023), 400, /in 1023 bytes/],
      ['a 1024-byte PNG claiming 1024 × 1024 (1024 pixels a byte)', pngClaiming(1024, 1024, 1024), 200, /^$/],
      ['a 45-byte PNG claiming 200 × 200', pngClaiming(200, 200), 200, /^$/],
    ];
    for (const [label, picture, status, message] of cases) {
      const before = await app.database.db
        .select({ etag: userAvatars.etag })
        .from(userAvatars)
        .where(eq(userAvatars.userId, user.id))
        .get();
      const { rest, trpc } = await setOnBoth(app, user, { image: dataUrl('image/png', picture) });
      assert.is(rest.status, status, `${label}: ${rest.message}`);
      assert.is(trpc.status, status, `${label} on tRPC: ${trpc.message}`);
      if (status === 200) continue;
      assert.match(rest.message, message, label);
      assert.equal(rest.issues, [{ path: 'image', message: rest.message }], label);
      assert.is(trpc.message, rest.message, `${label} on tRPC`);
      const after = await app.database.db
        .select({ etag: userAvatars.etag })
        .from(userAvatars)
        .where(eq(userAvatars.userId, user.id))
        .get();
      assert.equal(after, before, `${label}: the stored picture is unchanged`);
    }
  },
);

Checks.run();
