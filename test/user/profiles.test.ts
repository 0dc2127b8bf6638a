// Profile edits (issue 19): POST /user/me (attr: introduction, language) and PUT /user/changeAlternativeName,
// over HTTP on both surfaces; every error, who may edit what, and concurrent edits in one tRPC batch.
// PUT /user/changePassword is in profiles-password.test.ts.
import * as assert from 'uvu/assert';
import type { TTestServer } from '../support/helpers';
import { batchClient, trpcError } from '../support/http-clients';
import { serverSuite } from '../support/server-suite';
import type { TUser } from './fixtures';

const Profiles = serverSuite('profiles: attr, display name');

const updateMe = (app: TTestServer, user: TUser | undefined, attr: unknown) =>
  app.rest('POST', '/api/user/me', { token: user?.token, body: { attr } });
const rename = (app: TTestServer, user: TUser | undefined, username: unknown) =>
  app.rest('PUT', '/api/user/changeAlternativeName', { token: user?.token, body: { username } });

Profiles(
  'POST /user/me sets introduction and language; a field left out is kept, "" clears it; public in user/info; tRPC alike',
  async ({ app }) => {
    const user = await app.signUp();
    const introduction = 'Sails the Red Isle.\nAsk for <b>broadsides</b> & "rams"; <script>alert(1)</script>';
    const response = await updateMe(app, user, { introduction, language: 'en-US' });
    assert.is(response.status, 200, response.text);
    assert.equal(response.body.data.attr, { introduction, language: 'en-US' }, 'plain text, returned as given');
    assert.is(response.headers.get('cache-control'), 'no-store');
    assert.equal((await app.rest('GET', '/api/user/me', { token: user.token })).body.data.attr, {
      introduction,
      language: 'en-US',
    });
    const info = await app.rest('GET', `/api/user/info?id=${user.id}`);
    assert.equal(info.body.data.attr, { introduction, language: 'en-US' });
    assert.is(info.body.data.email, undefined, 'no e-mail in public');
    // Only language: the introduction stays.
    assert.equal((await updateMe(app, user, { language: 'zh-CN' })).body.data.attr, {
      introduction,
      language: 'zh-CN',
    });
    // Nothing at all: nothing changes.
    assert.equal((await updateMe(app, user, {})).body.data.attr, { introduction, language: 'zh-CN' });
    // '' clears.
    assert.equal((await updateMe(app, user, { introduction: '' })).body.data.attr, {
      introduction: '',
      language: 'zh-CN',
    });
    // Native tRPC.
    const trpc = app.trpc(user.token);
    assert.equal((await trpc.user.profile.update.mutate({ attr: { introduction: 'Via tRPC', language: '' } })).attr, {
      introduction: 'Via tRPC',
      language: '',
    });
    assert.equal((await app.trpc().user.info.query({ id: user.id })).attr, { introduction: 'Via tRPC', language: '' });
    assert.equal((await trpc.user.me.query()).attr, { introduction: 'Via tRPC', language: '' });
  },
);

Profiles(
  'POST /user/me errors: 400 for an unknown attr key, bad language, long or control-character introduction, a body without attr; 401 without a token',
  async ({ app }) => {
    const user = await app.signUp();
    await updateMe(app, user, { introduction: 'kept', language: 'en-US' });
    const cases: [unknown, string][] = [
      [{ introduction: 'x', avatar: 'https://example.test/a.png' }, 'Unrecognized key: "avatar"'],
      [{ language: 'english please' }, 'language tag'],
      [{ language: 'x'.repeat(36) }, 'at most 35'],
      [{ language: 42 }, 'attr.language'],
      [{ introduction: 'x'.repeat(5001) }, 'at most 5000'],
      [{ introduction: 'nul\u0000byte' }, 'control characters'],
      [{ introduction: null }, 'attr.introduction'],
      ['just text', 'attr'],
    ];
    for (const [attr, message] of cases) {
      const response = await updateMe(app, user, attr);
      assert.is(response.status, 400, JSON.stringify(attr).slice(0, 60));
      assert.is(response.body.data.key, 'request.bad');
      assert.match(`${response.body.message} ${JSON.stringify(response.body.data.issues)}`, message);
      assert.is((await trpcError(app.trpc(user.token).user.profile.update.mutate({ attr } as never))).status, 400);
    }
    const noAttr = await app.rest('POST', '/api/user/me', { token: user.token, body: { introduction: 'x' } });
    assert.is(noAttr.status, 400);
    assert.ok(
      noAttr.body.data.issues.some(
        (issue: { message: string }) => issue.message === 'Unrecognized key: "introduction"',
      ),
      noAttr.text,
    );
    // Line breaks and tabs are text; CRLF is stored as LF (the text rule, server/text.ts).
    assert.is((await updateMe(app, user, { introduction: 'a\tb\r\nc' })).status, 200);
    assert.is((await updateMe(app, undefined, { introduction: 'anonymous' })).status, 401);
    assert.is(
      (await trpcError(app.trpc().user.profile.update.mutate({ attr: { introduction: 'anonymous' } }))).status,
      401,
    );
    assert.equal((await app.rest('GET', `/api/user/info?id=${user.id}`)).body.data.attr, {
      introduction: 'a\tb\nc',
      language: 'en-US',
    });
  },
);

Profiles(
  'PUT /user/changeAlternativeName: the display name in me, info and sign-in; trimmed; "" removes it; 400 too long or invisible characters; 401',
  async ({ app }) => {
    const user = await app.signUp();
    const response = await rename(app, user, '  Calico Jack 🏴  ');
    assert.is(response.status, 200, response.text);
    assert.is(response.body.data.alternativeName, 'Calico Jack 🏴');
    assert.is(response.body.data.username, user.username, 'the sign-in name is unchanged');
    assert.is((await app.rest('GET', `/api/user/info?id=${user.id}`)).body.data.alternativeName, 'Calico Jack 🏴');
    const signedIn = await app.rest('POST', '/api/user/signin', {
      body: { username: user.username, password: user.password },
    });
    assert.is(signedIn.body.data.alternativeName, 'Calico Jack 🏴');
    assert.is(
      (await app.trpc(user.token).user.profile.changeAlternativeName.mutate({ username: 'Anne' })).alternativeName,
      'Anne',
    );
    assert.is((await app.trpc(user.token).user.me.query()).alternativeName, 'Anne');
    for (const [name, message] of [
      ['x'.repeat(41), 'at most 40'],
      ['Evil\u202Egnp.exe', 'invisible'],
      ['zero\u200Bwidth', 'invisible'],
      ['line\nbreak', 'control'],
      [42, 'username'],
    ] as const) {
      const refused = await rename(app, user, name);
      assert.is(refused.status, 400, String(name));
      assert.match(refused.text, message);
      assert.is(
        (await trpcError(app.trpc(user.token).user.profile.changeAlternativeName.mutate({ username: name as string })))
          .status,
        400,
      );
    }
    assert.is(
      (await app.rest('PUT', '/api/user/changeAlternativeName', { token: user.token, body: { alternativeName: 'x' } }))
        .status,
      400,
    );
    assert.is((await rename(app, user, 'x'.repeat(40))).status, 200, '40 is fine');
    assert.is((await rename(app, user, '   ')).body.data.alternativeName, null, 'blank removes it');
    assert.is((await rename(app, undefined, 'Nobody')).status, 401);
    assert.is(
      (await trpcError(app.trpc().user.profile.changeAlternativeName.mutate({ username: 'Nobody' }))).status,
      401,
    );
  },
);

Profiles("a stranger's token edits only the stranger's own profile; the owner's stays as it was", async ({ app }) => {
  const owner = await app.signUp();
  const stranger = await app.signUp();
  await updateMe(app, owner, { introduction: "Owner's words", language: 'en-US' });
  await rename(app, owner, 'Owner');
  // The edits take no user id: any attempt to name someone else is a 400, and the stranger's own edits stay theirs.
  assert.is(
    (
      await app.rest('POST', '/api/user/me', {
        token: stranger.token,
        body: { attr: { introduction: 'hijack' }, userId: owner.id },
      })
    ).status,
    400,
  );
  assert.is(
    (
      await app.rest('PUT', '/api/user/changeAlternativeName', {
        token: stranger.token,
        body: { username: 'hijack', id: owner.id },
      })
    ).status,
    400,
  );
  assert.is((await updateMe(app, stranger, { introduction: 'hijack' })).body.data.id, stranger.id);
  assert.is((await rename(app, stranger, 'hijack')).body.data.id, stranger.id);
  const info = (await app.rest('GET', `/api/user/info?id=${owner.id}`)).body.data;
  assert.equal([info.alternativeName, info.attr.introduction], ['Owner', "Owner's words"]);
  assert.is((await app.rest('GET', `/api/user/info?id=${stranger.id}`)).body.data.alternativeName, 'hijack');
});

Profiles(
  'concurrent edits of one profile in one tRPC batch: each answer is a whole profile, and the last write is what is stored',
  async ({ app }) => {
    const user = await app.signUp();
    const batch = batchClient(app.url, { token: user.token, maxItems: 10 }).client;
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, (_, index) =>
        batch.user.profile.changeAlternativeName.mutate({ username: `Name ${index}` }),
      ),
      ...Array.from({ length: 5 }, (_, index) =>
        batch.user.profile.update.mutate({ attr: { introduction: `Intro ${index}` } }),
      ),
    ]);
    for (const answer of answers) assert.is(answer.id, user.id);
    const me = await app.trpc(user.token).user.me.query();
    assert.match(me.alternativeName ?? '', /^Name [0-4]$/);
    assert.match(me.attr.introduction, /^Intro [0-4]$/);
  },
);

Profiles.run();
