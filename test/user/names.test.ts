// Names that pass for others (issue 31, item 5): display names without invisible, blank or separator
// characters (the text rule's names); no display name that looks like another account's username and
// no username that looks like another account's name, ignoring case and Unicode's confusables
// (server/domains/user/names.ts), on both surfaces, in one tRPC batch and at once over REST; a
// comment's `username` is the author's real username; skeletons of rows stored before they existed
// are filled at start-up.
import { eq, isNull, sql } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { users } from '../../db/schema';
import { fillNameSkeletons, lookalikeQueries, nameSkeleton, PENDING_NAME_ROWS } from '../../server/domains/user/names';
import { startTestServer, type TTestServer } from '../support/helpers';
import { importCommunitySample } from '../support/community-sample';
import { batchClient, trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

const Names = suite<{ app: TTestServer; captain: TUser }>(
  'names: no display name or username passes for another account',
);

Names.before(async (context) => {
  context.app = await startTestServer();
  context.captain = await context.app.signUp('captain');
});

Names.after(async ({ app }) => {
  await app.stop();
});

let counter = 0;
function account(username = `namesake_${++counter}`) {
  return { username, email: `${username}_${counter}@example.test`, password: 'long enough password' };
}

function rename(app: TTestServer, token: string, name: string) {
  return app.rest('PUT', '/api/user/changeAlternativeName', { token, body: { username: name } });
}

Names('the skeleton: case, digits and letters that look alike, other scripts and full-width forms are one name', () => {
  const captain = nameSkeleton('captain');
  for (const lookalike of [
    'CAPTAIN',
    'Captain',
    'capta1n',
    'captaIn',
    'captaln',
    '\u0441aptain',
    'c\u0430pt\u0430in',
    '\uff23\uff21\uff30\uff34\uff21\uff29\uff2e',
  ]) {
    assert.is(nameSkeleton(lookalike), captain, lookalike);
  }
  assert.is(nameSkeleton('rn'), nameSkeleton('m'));
  assert.is(nameSkeleton('O0o'), nameSkeleton('ooo'));
  assert.is.not(nameSkeleton('captains'), captain);
  assert.is.not(nameSkeleton('deckhand'), captain);
});

Names(
  "a display name that looks like another account's username: 409 on both surfaces, nothing changed; one's own username is fine",
  async ({ app, captain }) => {
    const user = await app.signUp();
    for (const name of ['captain', 'CAPTAIN', 'capta1n', '\u0441aptain', ' Captain ']) {
      const response = await rename(app, user.token, name);
      assert.is(response.status, 409, `${name}: ${response.text}`);
      assert.is(response.body.data.field, 'alternativeName');
      assert.match(response.body.message, /looks like the username of another account/);
      const viaTrpc = await trpcError(
        app.trpc(user.token).user.profile.changeAlternativeName.mutate({ username: name }),
      );
      assert.is(viaTrpc.status, 409, name);
    }
    const stored = await app.database.db
      .select({ name: users.alternativeName })
      .from(users)
      .where(eq(users.id, user.id))
      .get();
    assert.is(stored!.name, null);
    assert.is((await rename(app, user.token, user.username.toUpperCase())).status, 200, 'its own username');
    assert.is((await rename(app, captain.token, 'Captain')).status, 200, "the captain's own");
    assert.is((await rename(app, user.token, 'Captain Flint')).status, 200);
  },
);

Names(
  'display names refuse invisible, blank and separator characters, at sign-up and on change, on both surfaces',
  async ({ app }) => {
    const user = await app.signUp();
    for (const name of [
      'a\u034fb',
      '\u3164',
      'x\u3164y',
      '\u2800',
      '\u115f',
      'a\u2028b',
      'a\u2029b',
      'a\u200bb',
      'a\u00a0b',
      'a\u202eb',
    ]) {
      const changed = await rename(app, user.token, name);
      assert.is(changed.status, 400, JSON.stringify(name));
      assert.match(changed.body.message, /username: must (not contain invisible|be one line)/);
      assert.is(
        (await trpcError(app.trpc(user.token).user.profile.changeAlternativeName.mutate({ username: name }))).status,
        400,
        JSON.stringify(name),
      );
      const signup = await app.rest('POST', '/api/user/signup', { body: { ...account(), alternativeName: name } });
      assert.is(signup.status, 400, JSON.stringify(name));
      assert.match(signup.body.message, /alternativeName/);
    }
  },
);

Names(
  "sign-up: a display name like another's username, or a username like another's username or display name, is a 409; nothing is created",
  async ({ app, captain }) => {
    const before = await app.database.db.$count(users);
    const asDisplay = await app.rest('POST', '/api/user/signup', {
      body: { ...account(), alternativeName: 'CAPTAIN' },
    });
    assert.is(asDisplay.status, 409, asDisplay.text);
    assert.is(asDisplay.body.data.field, 'alternativeName');
    const asUsername = await app.rest('POST', '/api/user/signup', { body: account('Capta1n') });
    assert.is(asUsername.status, 409, asUsername.text);
    assert.is(asUsername.body.data.field, 'username');
    assert.is((await trpcError(app.trpc().user.signup.mutate(account('captaIn')))).status, 409);
    // A display name taken first: a username that looks like it is refused too.
    await rename(app, captain.token, 'Blackbeard');
    assert.is((await app.rest('POST', '/api/user/signup', { body: account('blackbeard') })).status, 409);
    assert.is((await app.rest('POST', '/api/user/signup', { body: account('BIackbeard') })).status, 409);
    assert.is(await app.database.db.$count(users), before);
    assert.is((await app.rest('POST', '/api/user/signup', { body: account('quartermaster') })).status, 200);
  },
);

Names(
  'at once: a rename and sign-ups that would look alike, in one tRPC batch and over concurrent REST: exactly one name is taken',
  async ({ app }) => {
    const renamer = await app.signUp();
    const { client, sent } = batchClient(app.url, { token: renamer.token });
    const outcomes = await Promise.allSettled([
      client.user.profile.changeAlternativeName.mutate({ username: 'Redbeard' }),
      client.user.signup.mutate(account('redbeard')),
      client.user.signup.mutate(account('REDBEARD')),
      client.user.signup.mutate(account('redbeard_')),
    ]);
    assert.is(sent.requests, 1, 'one batch');
    const [renamed, ...signups] = outcomes;
    assert.is(signups[2]!.status, 'fulfilled', 'redbeard_ is another name');
    assert.is([renamed, signups[0], signups[1]].filter((outcome) => outcome!.status === 'fulfilled').length, 1);

    const statuses = await Promise.all([
      rename(app, renamer.token, 'Greybeard'),
      app.rest('POST', '/api/user/signup', { body: account('greybeard') }),
      app.rest('POST', '/api/user/signup', { body: account('Greybeard') }),
      app.rest('POST', '/api/user/signup', { body: account('greyBeard') }),
    ]);
    assert.is(
      statuses.filter((response) => response.status === 200).length,
      1,
      statuses.map((response) => response.status).join(' '),
    );
    assert.ok(statuses.every((response) => response.status === 200 || response.status === 409));
  },
);

Names("a comment's username is the author's username, whatever the display name", async ({ app }) => {
  const admin = await signUpAdmin(app);
  await importCommunitySample(app, admin);
  const author = await app.signUp();
  await rename(app, author.token, 'Anne Bonny');
  const published = await app.rest('POST', '/api/assembly/publish', {
    token: author.token,
    body: { name: 'Sloop', shipId: 'brigantine', weapons: [] },
  });
  assert.is(published.status, 200, published.text);
  const uuid = published.body.data.uuid;
  assert.is(
    (
      await app.rest('POST', '/api/comment', {
        token: author.token,
        body: { targetType: 'assembly', targetId: uuid, content: 'Ahoy' },
      })
    ).status,
    200,
  );
  const listed = await app.rest('GET', `/api/comment/comments?targetType=assembly&targetId=${uuid}`);
  const [comment] = listed.body.data.data;
  assert.equal([comment.userName, comment.username], ['Anne Bonny', author.username]);
  const viaTrpc = await app.trpc().comment.list.query({ targetType: 'assembly', targetId: uuid });
  assert.is(viaTrpc.data[0]!.username, author.username);
});

Names(
  'skeletons of rows written before they were stored are filled at start-up, in batches, and match the names',
  async ({ app }) => {
    const user = await app.signUp();
    await rename(app, user.token, 'Calico Jack');
    await app.database.db.update(users).set({ usernameSkeleton: null, alternativeNameSkeleton: null });
    const filled = await fillNameSkeletons(app.database.db);
    assert.ok(filled >= 2, `${filled} rows filled`);
    assert.is(await fillNameSkeletons(app.database.db), 0, 'nothing left');
    assert.is(await app.database.db.$count(users, isNull(users.usernameSkeleton)), 0);
    const row = await app.database.db.select().from(users).where(eq(users.id, user.id)).get();
    assert.equal(
      [row!.usernameSkeleton, row!.alternativeNameSkeleton],
      [nameSkeleton(user.username), nameSkeleton('Calico Jack')],
    );
  },
);

/** EXPLAIN QUERY PLAN of a drizzle query, its values written in. */
async function planOf(app: TTestServer, query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string[]> {
  const { sql: text, params } = query.toSQL();
  let at = 0;
  const inlined = text.replace(/\?/g, () => {
    const value = params[at++];
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
  const rows = await app.database.db.all<{ detail: string }>(sql.raw(`EXPLAIN QUERY PLAN ${inlined}`));
  return rows.map((row) => row.detail);
}

Names(
  'every lookup walks an index: the look-alike checks and the rows left to fill (an empty partial index once filled)',
  async ({ app }) => {
    const pending = (await app.database.db.all<{ detail: string }>(sql`EXPLAIN QUERY PLAN ${PENDING_NAME_ROWS}`))
      .map((row) => row.detail)
      .join(' | ');
    assert.match(pending, /^SCAN users USING (COVERING )?INDEX users_name_skeletons_pending$/, pending);
    for (const query of lookalikeQueries(app.database.db, 'captain', 'someone')) {
      const plan = (await planOf(app, query)).join(' | ');
      assert.not.match(plan, /SCAN users(?! USING)/, plan);
      assert.match(plan, /INDEX users_(username|alternative_name)_skeleton/, plan);
    }
  },
);

Names.run();
