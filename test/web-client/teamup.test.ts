// The web client's team-up page replayed (issue 36): its WebSocket (src/assets/sripts/ws.ts,
// src/assets/sripts/config.ts: `wss://<host>/ws` in production) with a real WebSocket client sending what
// src/views/Team.vue sends and reading what it reads, and its REST reads (src/assets/sripts/api/teamup_service.ts,
// user_service.ts getUserTeamups, src/views/user/account/teamup.vue).
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { connectWs, TEAM_UP } from '../support/live';
import { send } from './client-request';

const Page = suite<{ app: TTestServer }>('web client: the team-up page over its WebSocket');
Page.before(async (context) => {
  context.app = await startTestServer({
    RATE_LIMIT_TEAMUP_ANONYMOUS: 1,
    RATE_LIMIT_TEAMUP_ACCOUNT: 2,
    TRUST_PROXY: 1,
    LIVE_WS_AUTH_DEADLINE_MS: 2_000,
  });
});
Page.after(async ({ app }) => app.stop());

/** What Team.vue:152-164 sends when the form is submitted. */
const publishMessage = (payload: Record<string, unknown> = {}) => ({
  type: 'publish_team_up',
  payload: { ...TEAM_UP, ...payload },
});

Page('signed in: authenticate on open, publish, every page gets new_team_up; the lists read it', async ({ app }) => {
  const captain = await app.signUp();
  const from = { 'x-forwarded-for': '198.51.100.1' };
  const page = await connectWs(app.url, { headers: from });
  const onlooker = await connectWs(app.url, { headers: { 'x-forwarded-for': '198.51.100.2' } });
  // Team.vue:266-275: on open, a signed-in page sends its token; success is silent (the page empties its list on any message, Team.vue:286).
  page.send({ type: 'authenticate', payload: { token: captain.token } });
  page.send(publishMessage({ description: 'Signed-in crew for the Kraken' }));
  // Team.vue:289-297: new_team_up; both pages reload the list (getTeams).
  const [mine, seen] = await Promise.all([
    page.inbox.next((message) => message.type === 'new_team_up', 'new_team_up on the publishing page'),
    onlooker.inbox.next((message) => message.type === 'new_team_up', 'new_team_up on another page'),
  ]);
  assert.equal(seen.payload, mine.payload);
  assert.is(mine.payload.userId, captain.id, 'published under the authenticated session');
  assert.is(mine.payload.description, 'Signed-in crew for the Kraken');

  // teamup_service.ts:23 GET teamups {keyword}: Team.vue:107-114 lists `d.data` (the envelope's data, an array);
  // Team.vue:470-545 reads id, description, tags, username, createdAt and expiresAt (seconds), player, userId.
  const board = await send(app, 'GET', 'teamups', { params: { keyword: 'kraken' } });
  assert.is(board.status, 200);
  assert.ok(Array.isArray(board.body.data), 'Team.vue spreads d.data into its list');
  const listed = board.body.data[0];
  for (const field of ['id', 'description', 'tags', 'username', 'createdAt', 'expiresAt', 'player', 'userId'])
    assert.ok(field in listed, field);
  assert.is(listed.username, captain.username);
  // user_service.ts:138 GET user/me/teamups: teamup.vue:52-66 reads data[].description, createdTime, player, tags.
  const own = await send(app, 'GET', 'user/me/teamups', { token: captain.token, params: { page: 1, pageSize: 10 } });
  assert.is(own.status, 200);
  assert.equal(
    own.body.data.data.map((entry: any) => [entry.description, typeof entry.createdTime, entry.player]),
    [['Signed-in crew for the Kraken', 'string', TEAM_UP.player]],
  );
  // teamup_service.ts:44 GET teamup/statistics
  assert.is((await send(app, 'GET', 'teamup/statistics')).body.data.active, 1);

  // Team.vue:179-191 cancel_team_up {id}: every page gets cancel_team_up with payload.id (Team.vue:298-308).
  page.send({ type: 'cancel_team_up', payload: { id: mine.payload.id } });
  const cancelled = await onlooker.inbox.next((message) => message.type === 'cancel_team_up', 'cancel_team_up');
  assert.is(cancelled.payload.id, mine.payload.id);
  assert.equal((await send(app, 'GET', 'teamups')).body.data, []);
  page.socket.close();
  onlooker.socket.close();
});

Page('publish_rate_limit carries the two codes the page translates, remainingTime in ms', async ({ app }) => {
  const anonymous = await connectWs(app.url, { headers: { 'x-forwarded-for': '198.51.100.3' } });
  anonymous.send(publishMessage());
  await anonymous.inbox.next((message) => message.type === 'new_team_up', 'the first anonymous team-up');
  anonymous.send(publishMessage());
  // Team.vue:312-328 reads data.code and data.remainingTime.
  const limited = await anonymous.inbox.next((message) => message.type === 'publish_rate_limit', 'publish_rate_limit');
  assert.is(limited.code, 'teamUp_anonymous_rateLimit');
  assert.ok(limited.remainingTime > 59 * 60_000 && limited.remainingTime <= 3_600_000, String(limited.remainingTime));

  const captain = await app.signUp();
  const account = await connectWs(app.url, { headers: { 'x-forwarded-for': '198.51.100.3' } });
  account.send({ type: 'authenticate', payload: { token: captain.token } });
  for (let index = 0; index < 3; index++) account.send(publishMessage({ description: `account team-up ${index}` }));
  const accountLimited = await account.inbox.next((message) => message.type === 'publish_rate_limit', 'account limit');
  assert.is(
    accountLimited.code,
    'teamUp_account_rateLimit',
    'signed in: the looser limit of the account, from the same address',
  );
  assert.is(
    account.inbox.all.filter((message) => message.type === 'new_team_up' && message.payload.userId === captain.id)
      .length,
    2,
  );
  anonymous.socket.close();
  account.socket.close();
});

Page(
  'auth_failed for a bad token (the page signs out), error for a bad message; the connection stays',
  async ({ app }) => {
    const page = await connectWs(app.url, { headers: { 'x-forwarded-for': '198.51.100.4' } });
    page.send({ type: 'authenticate', payload: { token: 'expired-or-forged' } });
    // Team.vue:330-333: translates basic.tips.<code> (src/lang/en_US.json: basic.tips.teamUp.authFailed) and logs out.
    const failed = await page.inbox.next((message) => message.type === 'auth_failed', 'auth_failed');
    assert.is(failed.code, 'teamUp.authFailed');
    // Team.vue:335-340 shows data.message.
    page.send(publishMessage({ description: 'x' }));
    const invalid = await page.inbox.next((message) => message.type === 'error', 'error for a bad publish');
    assert.match(invalid.message, /description: must be at least 3 characters/);
    page.socket.send('not json');
    await page.inbox.next((message) => message.type === 'error' && /JSON/.test(message.message), 'error for bad JSON');
    page.send({ type: 'hello', payload: {} });
    await page.inbox.next(
      (message) => message.type === 'error' && /unknown message type/.test(message.message),
      'unknown type',
    );
    page.send({ type: 'cancel_team_up', payload: { id: '00000000-0000-4000-8000-000000000000' } });
    const anonymousCancel = await page.inbox.next(
      (message) => message.type === 'error' && /token/.test(message.message),
      'cancel needs a session',
    );
    assert.is(anonymousCancel.code, 'user.invalid');
    assert.is(page.socket.readyState, page.socket.OPEN);
    page.socket.close();
  },
);

Page('team_up_expired goes out when a team-up expires, and the board no longer lists it', async ({ app }) => {
  const page = await connectWs(app.url, { headers: { 'x-forwarded-for': '198.51.100.5' } });
  page.send(publishMessage({ expiresMinutesAt: 10 }));
  const published = await page.inbox.next((message) => message.type === 'new_team_up', 'new_team_up');
  app.clock.advance(10 * 60_000 + 1);
  // Team.vue:309-311.
  const expired = await page.inbox.next((message) => message.type === 'team_up_expired', 'team_up_expired', 5_000);
  assert.is(expired.payload.id, published.payload.id);
  assert.not.ok((await send(app, 'GET', 'teamups')).body.data.some((entry: any) => entry.id === published.payload.id));
  page.socket.close();
});

Page.run();
