// The team-up board (issue 36): GET /teamups, /user/me/teamups, /teamup/statistics, POST /teamup/publish
// and /teamup/cancel, on REST and on native tRPC (real clients): shapes, the text rule, who cancels,
// expiry on read, and the two publishing limits under batches and concurrent requests.
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { batchClient, trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { TEAM_UP } from '../support/live';
import { tally } from '../support/server-suite';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

const publish = (app: TTestServer, body: unknown, token?: string, headers?: Record<string, string>) =>
  app.rest('POST', '/api/teamup/publish', { body, token, headers });

// ---------------------------------------------------------------------------------------------
const Board = suite<{ app: TTestServer; captain: TUser; other: TUser; admin: TUser }>(
  'team-ups: publish, read, cancel on both surfaces',
);
Board.before(async (context) => {
  context.app = await startTestServer();
  context.captain = await context.app.signUp();
  context.other = await context.app.signUp();
  context.admin = await signUpAdmin(context.app);
});
Board.after(async ({ app }) => app.stop());

Board('an anonymous team-up over REST is listed on both surfaces, in the shapes the client reads', async ({ app }) => {
  const published = await publish(app, { ...TEAM_UP, tags: ['pvp', null, 'pvp', 'reward'] });
  assert.is(published.status, 200, published.text);
  const teamUp = published.body.data;
  assert.equal(teamUp.tags, ['pvp', 'reward'], 'nulls (typed-in tags) left out, duplicates once');
  assert.is(teamUp.userId, null);
  assert.is(teamUp.username, null);
  assert.is(teamUp.expiresAt - teamUp.createdAt, 30 * 60, 'Unix seconds (Team.vue:522, 529 multiply by 1000)');
  assert.is(
    Math.floor(Date.parse(teamUp.createdTime) / 1000),
    teamUp.createdAt,
    'createdTime: the same instant, ISO-8601',
  );

  // The board's `data` is the array itself: Team.vue:107-114 puts `d.data` (the envelope's data) in its list.
  const viaRest = await app.rest('GET', '/api/teamups');
  assert.is(viaRest.status, 200);
  assert.ok(Array.isArray(viaRest.body.data), viaRest.text);
  assert.equal(viaRest.body.data[0], teamUp);
  const viaTrpc = await app.trpc().teamup.list.query({});
  assert.equal(viaTrpc[0], teamUp);
});

Board(
  'signed in over tRPC: the publisher is named, and user/me/teamups lists only their own',
  async ({ app, captain }) => {
    const mine = await app
      .trpc(captain.token)
      .teamup.publish.mutate({ ...TEAM_UP, description: 'Signed-in crew wanted' });
    assert.is(mine.userId, captain.id);
    assert.is(mine.username, captain.username);
    const viaRest = await app.rest('GET', '/api/user/me/teamups', { token: captain.token });
    assert.equal(
      viaRest.body.data.data.map((entry: { id: string }) => entry.id),
      [mine.id],
    );
    assert.equal((await app.trpc(captain.token).teamup.mine.query({})).data, viaRest.body.data.data);
    assert.is((await app.rest('GET', '/api/user/me/teamups')).status, 401);
    const stats = await app.rest('GET', '/api/teamup/statistics');
    assert.is(stats.status, 200);
    assert.ok(stats.body.data.active >= 2 && stats.body.data.byTag.pvp >= 2, JSON.stringify(stats.body.data));
    assert.equal(await app.trpc().teamup.statistics.query(), stats.body.data);
  },
);

Board('keyword and paging; a page past the window is a 400 on both surfaces', async ({ app }) => {
  await publish(app, { ...TEAM_UP, player: 'Kraken-Hunter', description: 'Kraken hunt at dawn' });
  const found = await app.rest('GET', '/api/teamups?keyword=KRAKEN&page=1&pageSize=5');
  assert.ok(found.body.data.length >= 1 && found.body.data.length <= 5);
  assert.ok(found.body.data.every((entry: { description: string }) => /kraken/i.test(entry.description)));
  assert.equal((await app.rest('GET', '/api/teamups?keyword=no-such-thing-anywhere')).body.data, []);
  const deep = await app.rest('GET', '/api/teamups?page=11&pageSize=100');
  assert.is(deep.status, 400);
  assert.match(deep.body.message, /page/);
  assert.is((await trpcError(app.trpc().teamup.list.query({ page: 11, pageSize: 100 }))).status, 400);
});

Board('bad input is a 400 naming the field on both surfaces, and nothing is written', async ({ app }) => {
  const before = (await app.rest('GET', '/api/teamup/statistics')).body.data.publishedLastDay;
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ description: 'no' }, /description: must be at least 3 characters/],
    [{ description: 'x'.repeat(301) }, /description: must be at most 300 characters/],
    [{ description: 'bad\u0000text' }, /description: must not contain control characters/],
    [{ player: '' }, /player: must not be empty/],
    [{ player: 'zero\u200bwidth' }, /player: must not contain invisible/],
    [{ tags: Array.from({ length: 11 }, (_, index) => `t${index}`) }, /tags: must have at most 10 tags/],
    [{ tags: ['x'.repeat(33)] }, /tags\[0\]/],
    [{ expiresMinutesAt: 0 }, /expiresMinutesAt/],
    [{ expiresMinutesAt: 7 * 24 * 60 + 1 }, /expiresMinutesAt/],
    [{ owner: 'someone-else' }, /Unrecognized key/],
  ];
  for (const [change, message] of cases) {
    const body = { ...TEAM_UP, ...change };
    const viaRest = await publish(app, body);
    assert.is(viaRest.status, 400, JSON.stringify(change));
    assert.match(viaRest.body.message, message);
    const viaTrpc = await trpcError(app.trpc().teamup.publish.mutate(body as never));
    assert.is(viaTrpc.status, 400);
    assert.is(viaTrpc.message, viaRest.body.message);
  }
  assert.is((await app.rest('GET', '/api/teamup/statistics')).body.data.publishedLastDay, before);
});

Board('an invalid token is a 401, never an anonymous publication', async ({ app }) => {
  const refused = await publish(app, TEAM_UP, 'not-a-valid-token');
  assert.is(refused.status, 401);
  assert.is(refused.body.data.key, 'user.tokenExpired');
});

Board(
  'only the publisher or an admin cancels; then it is gone (404) on both surfaces',
  async ({ app, captain, other, admin }) => {
    const theirs = (await publish(app, TEAM_UP, captain.token)).body.data;
    const anonymous = (await publish(app, TEAM_UP)).body.data;
    assert.is((await app.rest('POST', '/api/teamup/cancel', { body: { id: theirs.id } })).status, 401);
    const forbidden = await app.rest('POST', '/api/teamup/cancel', { token: other.token, body: { id: theirs.id } });
    assert.is(forbidden.status, 403);
    assert.is((await trpcError(app.trpc(other.token).teamup.cancel.mutate({ id: anonymous.id }))).status, 403);
    assert.equal(await app.trpc(captain.token).teamup.cancel.mutate({ id: theirs.id }), {
      id: theirs.id,
      cancelled: true,
    });
    assert.is(
      (await app.rest('POST', '/api/teamup/cancel', { token: captain.token, body: { id: theirs.id } })).status,
      404,
    );
    const byAdmin = await app.rest('POST', '/api/teamup/cancel', {
      token: admin.token,
      body: { id: anonymous.id.toUpperCase() },
    });
    assert.is(byAdmin.status, 200, 'an admin cancels an anonymous one');
    const ids = (await app.rest('GET', '/api/teamups?pageSize=100')).body.data.map((entry: { id: string }) => entry.id);
    assert.not.ok(ids.includes(theirs.id) || ids.includes(anonymous.id));
  },
);

Board(
  'expiry is enforced on read: past its time it is never listed and cannot be cancelled',
  async ({ app, captain }) => {
    const soon = (await publish(app, { ...TEAM_UP, expiresMinutesAt: 10, description: 'expires soon' }, captain.token))
      .body.data;
    const ids = async (path: string) => {
      const data = (await app.rest('GET', path, { token: captain.token })).body.data;
      // The board answers the array, the caller's own list the paged shape.
      return (Array.isArray(data) ? data : data.data).map((entry: { id: string }) => entry.id);
    };
    assert.ok((await ids('/api/teamups?pageSize=100')).includes(soon.id));
    const activeBefore = (await app.rest('GET', '/api/teamup/statistics')).body.data.active;
    app.clock.advance(10 * 60_000 + 1);
    try {
      assert.not.ok((await ids('/api/teamups?pageSize=100')).includes(soon.id));
      assert.not.ok((await ids('/api/user/me/teamups')).includes(soon.id));
      assert.not.ok((await app.trpc().teamup.list.query({ pageSize: 100 })).some((entry) => entry.id === soon.id));
      assert.ok((await app.rest('GET', '/api/teamup/statistics')).body.data.active < activeBefore);
      assert.is(
        (await app.rest('POST', '/api/teamup/cancel', { token: captain.token, body: { id: soon.id } })).status,
        404,
      );
    } finally {
      app.clock.advance(-(10 * 60_000 + 1));
    }
  },
);

Board.run();

// ---------------------------------------------------------------------------------------------
const Limits = suite<{ app: TTestServer }>('team-ups: anonymous publishing is limited more strictly, per call');
Limits.before(async (context) => {
  context.app = await startTestServer({
    RATE_LIMIT_TEAMUP_ANONYMOUS: 2,
    RATE_LIMIT_TEAMUP_ACCOUNT: 4,
    // The client address comes from X-Forwarded-For, so each case is a client of its own.
    TRUST_PROXY: 1,
  });
});
Limits.after(async ({ app }) => app.stop());

Limits(
  'anonymous: 2 an hour per address, concurrent REST requests included; other addresses unaffected',
  async ({ app }) => {
    const from = { 'x-forwarded-for': '203.0.113.10' };
    const statuses = await Promise.all(Array.from({ length: 6 }, () => publish(app, TEAM_UP, undefined, from)));
    assert.equal(tally(statuses.map((response) => response.status)), { 200: 2, 429: 4 });
    const refused = statuses.find((response) => response.status === 429)!;
    assert.ok(Number(refused.headers.get('retry-after')) > 60, 'an hour window');
    assert.match(refused.body.message, /anonymously/);
    assert.is((await publish(app, TEAM_UP, undefined, { 'x-forwarded-for': '203.0.113.11' })).status, 200);
  },
);

Limits('signed in: 4 an hour per account, however many calls one tRPC batch carries', async ({ app }) => {
  const captain = await app.signUp();
  const { client, sent } = batchClient(app.url, {
    token: captain.token,
    headers: { 'x-forwarded-for': '203.0.113.12' },
  });
  const results = await Promise.allSettled(Array.from({ length: 8 }, () => client.teamup.publish.mutate(TEAM_UP)));
  assert.is(sent.requests, 1, 'one batch');
  assert.is(results.filter((result) => result.status === 'fulfilled').length, 4);
  assert.is((await app.rest('GET', '/api/user/me/teamups', { token: captain.token })).body.data.pagination.total, 4);
  // Signed in is the looser limit: the same address still publishes under another account.
  const second = await app.signUp();
  assert.is((await publish(app, TEAM_UP, second.token, { 'x-forwarded-for': '203.0.113.12' })).status, 200);
});

Limits.run();
