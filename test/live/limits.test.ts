// Limits and hygiene of the live streams (issue 36, item 5), each on a real connection: connections per
// client address, Origin on the upgrade, the authenticate deadline, message size and rate, heartbeats and
// dead peers, slow readers, a publish storm in batches and at once, and the end of every stream at shutdown.
import { createConnection } from 'node:net';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { batchClient } from '../support/http-clients';
import { connectWs, liveTrpcClient, ofType, readSse, refusedUpgrade, TEAM_UP, within } from '../support/live';
import { sleep, waitFor } from '../support/redis';

const LIMITS = {
  LIVE_MAX_CONNECTIONS_PER_CLIENT: 3,
  LIVE_WS_AUTH_DEADLINE_MS: 300,
  LIVE_WS_MAX_MESSAGE_BYTES: 1024,
  LIVE_WS_MESSAGES_PER_MINUTE: 5,
  LIVE_HEARTBEAT_MS: 200,
  LIVE_MAX_BUFFERED_BYTES: 16 * 1024,
  CORS_ORIGINS: 'https://site.example',
  TRUST_PROXY: 1,
  RATE_LIMIT_TEAMUP_ANONYMOUS: 2,
  RATE_LIMIT_TEAMUP_ACCOUNT: 5,
} as const;

let addresses = 0;
/** A client address of its own (X-Forwarded-For through TRUST_PROXY=1). */
const client = () => ({ 'x-forwarded-for': `192.0.2.${++addresses}` });

const Limits = suite<{ app: TTestServer }>('live streams: limits and hygiene');
Limits.before(async (context) => {
  context.app = await startTestServer(LIMITS);
});
Limits.after(async ({ app }) => app.stop());

Limits(
  'at most LIVE_MAX_CONNECTIONS_PER_CLIENT streams per address, WebSocket, SSE and tRPC together',
  async ({ app }) => {
    const from = client();
    const ws = await connectWs(app.url, { headers: from });
    const sse = await readSse(`${app.url}/api/events`, from);
    const trpc = await readSse(`${app.url}/trpc/live.events`, from);
    assert.is(trpc.status, 200);
    const refusedWs = await refusedUpgrade(app.url, { headers: from });
    assert.is(refusedWs.status, 429);
    assert.match(refusedWs.body.message, /At most 3 live streams per client address/);
    const refusedSse = await app.rest('GET', '/api/events', { headers: from });
    assert.is(refusedSse.status, 429);
    assert.is(refusedSse.body.code, 429);
    const refusedTrpc = await readSse(`${app.url}/trpc/live.events`, from);
    const error = await refusedTrpc.frames.next((frame) => frame.event === 'serialized-error', 'the tRPC error event');
    assert.is(error.data.json.data.httpStatus, 429);
    const other = await readSse(`${app.url}/api/events`, client());
    assert.is(other.status, 200, 'another address is not affected');
    const open = app.app.deps.liveConnections.count;
    sse.close();
    await waitFor('the slot to come back', async () => app.app.deps.liveConnections.count < open);
    const again = await readSse(`${app.url}/api/events`, from);
    assert.is(again.status, 200, 'a closed stream gives its slot back');
    for (const reader of [trpc, refusedTrpc, other, again]) reader.close();
    ws.socket.close();
  },
);

Limits(
  'the upgrade: Origin must be one of CORS_ORIGINS (none is a non-browser client), the path LIVE_WS_PATH',
  async ({ app }) => {
    const evil = await refusedUpgrade(app.url, { origin: 'https://evil.example', headers: client() });
    assert.is(evil.status, 403);
    assert.match(evil.body.message, /Origin https:\/\/evil\.example is not allowed/);
    (await connectWs(app.url, { origin: 'https://site.example', headers: client() })).socket.close();
    (await connectWs(app.url, { headers: client() })).socket.close();
    const elsewhere = await refusedUpgrade(app.url, { path: '/socket', headers: client() });
    assert.is(elsewhere.status, 404);
  },
);

Limits('authenticate after the deadline closes the connection (1008)', async ({ app }) => {
  const captain = await app.signUp();
  const late = await connectWs(app.url, { headers: client() });
  await sleep(LIMITS.LIVE_WS_AUTH_DEADLINE_MS + 200);
  late.send({ type: 'authenticate', payload: { token: captain.token } });
  assert.match((await late.inbox.next((message) => message.type === 'error', 'the error')).message, /within 300 ms/);
  assert.is((await within(late.closed, 5_000, 'the close')).code, 1008);
  const onTime = await connectWs(app.url, { headers: client() });
  onTime.send({ type: 'authenticate', payload: { token: captain.token } });
  onTime.send({ type: 'publish_team_up', payload: TEAM_UP });
  const published = await onTime.inbox.next((message) => message.type === 'new_team_up', 'new_team_up');
  assert.is(published.payload.userId, captain.id);
  onTime.socket.close();
});

Limits('a message over LIVE_WS_MAX_MESSAGE_BYTES closes with 1009; over the rate, 1008', async ({ app }) => {
  const big = await connectWs(app.url, { headers: client() });
  big.send({ type: 'publish_team_up', payload: { ...TEAM_UP, description: 'x'.repeat(2000) } });
  assert.is((await within(big.closed, 5_000, 'the close')).code, 1009);
  const chatty = await connectWs(app.url, { headers: client() });
  for (let index = 0; index < 6; index++) chatty.send({ type: 'hello', payload: {} });
  const closed = await within(chatty.closed, 5_000, 'the close');
  assert.is(closed.code, 1008);
  assert.is(closed.reason, 'too many messages');
  assert.is(chatty.inbox.all.filter((message) => /unknown message type/.test(message.message)).length, 5);
});

Limits('heartbeats: pings and SSE comments go out; a peer that answers no ping is closed', async ({ app }) => {
  const alive = await connectWs(app.url, { headers: client() });
  let pings = 0;
  alive.socket.on('ping', () => pings++);
  const sse = await readSse(`${app.url}/api/events`, client());
  const dead = await connectWs(app.url, { headers: client(), autoPong: false });
  const closed = await within(dead.closed, 10 * LIMITS.LIVE_HEARTBEAT_MS, 'the dead peer to be closed');
  assert.is(closed.code, 1006, 'terminated: no close handshake with a dead peer');
  await sleep(3 * LIMITS.LIVE_HEARTBEAT_MS);
  assert.ok(pings >= 2, `pings: ${pings}`);
  assert.ok(sse.frames.all.filter((frame) => frame.comment === 'heartbeat').length >= 2);
  assert.is(alive.socket.readyState, alive.socket.OPEN, 'a peer that answers stays');
  alive.socket.close();
  sse.close();
});

Limits('slow readers are closed, not queued for: an SSE reader and a WebSocket that read nothing', async ({ app }) => {
  const streams = app.app.deps.liveConnections;
  await waitFor('the earlier streams to close', async () => streams.count === 0);
  // A raw socket that asks for the stream, then never reads.
  const stuck = createConnection({ host: '127.0.0.1', port: app.port });
  await new Promise<void>((resolve) => stuck.once('connect', () => resolve()));
  stuck.write(`GET /api/events HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${client()['x-forwarded-for']}\r\n\r\n`);
  const ws = await connectWs(app.url, { headers: client() });
  await waitFor('both streams to open', async () => streams.count === 2);
  stuck.pause();
  (ws.socket as any)._socket.pause();
  const pad = 'x'.repeat(256 * 1024);
  for (let index = 0; index < 120 && streams.count > 0; index++) {
    await app.app.deps.events.publish('teamups', 'teamup.published', { pad });
    await sleep(10);
  }
  await waitFor('both to be closed', async () => streams.count === 0, 10_000);
  stuck.destroy();
  ws.socket.terminate();
});

Limits(
  'a publish storm, in tRPC batches and at once over REST and WebSockets, keeps every limit; each subscriber gets each team-up once, in one order',
  async ({ app }) => {
    const sse = await readSse(`${app.url}/api/events?topics=teamups`, client());
    const watcher = await connectWs(app.url, { headers: client() });
    const trpcEvents: any[] = [];
    const subscription = liveTrpcClient(app.url).live.events.subscribe(
      { topics: ['teamups'] },
      { onData: (tracked: any) => trpcEvents.push(tracked) },
    );
    await sleep(300);
    const accounts = await Promise.all([app.signUp(), app.signUp(), app.signUp()]);
    const batches = accounts.map((account) => batchClient(app.url, { token: account.token, headers: client() }));
    const publishers = await Promise.all([
      connectWs(app.url, { headers: client() }),
      connectWs(app.url, { headers: client() }),
    ]);
    const anonymous = Array.from({ length: 4 }, () => client());
    const outcomes = await Promise.all([
      ...batches.map(({ client: trpc }) =>
        Promise.allSettled(
          Array.from({ length: 10 }, (_, index) =>
            trpc.teamup.publish.mutate({ ...TEAM_UP, description: `batch ${index}` }),
          ),
        ),
      ),
      ...anonymous.map((from) =>
        Promise.all(
          Array.from({ length: 4 }, () => app.rest('POST', '/api/teamup/publish', { body: TEAM_UP, headers: from })),
        ),
      ),
      ...publishers.map(async (publisher) => {
        for (let index = 0; index < 5; index++) publisher.send({ type: 'publish_team_up', payload: TEAM_UP });
        await waitFor(
          'the answers',
          async () => publisher.inbox.all.filter((message) => message.type === 'publish_rate_limit').length === 3,
        );
        publisher.send({ type: 'publish_team_up', payload: TEAM_UP });
        return publisher.closed;
      }),
    ]);
    assert.ok(
      batches.every(({ sent }) => sent.requests === 1),
      'each account sent one batch of 10',
    );
    const viaTrpc = outcomes
      .slice(0, 3)
      .map((results: any) => results.filter((result: any) => result.status === 'fulfilled').length);
    assert.equal(viaTrpc, [5, 5, 5], 'RATE_LIMIT_TEAMUP_ACCOUNT per account');
    const viaRest = outcomes
      .slice(3, 7)
      .map((responses: any) => responses.filter((response: any) => response.status === 200).length);
    assert.equal(viaRest, [2, 2, 2, 2], 'RATE_LIMIT_TEAMUP_ANONYMOUS per address');
    for (const publisher of publishers) {
      assert.is(
        (await within(publisher.closed, 5_000, 'the close')).code,
        1008,
        'the 6th message of the minute closes',
      );
      assert.is(publisher.inbox.all.filter((message) => message.type === 'publish_rate_limit').length, 3);
    }
    const expected = 15 + 8 + 2 * 2;
    await waitFor(
      'every subscriber to get every team-up',
      async () =>
        sse.frames.all.filter(ofType('teamup.published')).length >= expected &&
        watcher.inbox.all.filter((message) => message.type === 'new_team_up').length >= expected &&
        trpcEvents.length >= expected,
    );
    await sleep(200);
    const sseIds = sse.frames.all.filter(ofType('teamup.published')).map((frame) => frame.id);
    assert.is(sseIds.length, expected, 'once each');
    assert.equal(
      trpcEvents.map((event) => event.id),
      sseIds,
      'the same events in the same order',
    );
    assert.equal(
      watcher.inbox.all.filter((message) => message.type === 'new_team_up').map((message) => message.id),
      sseIds,
    );
    assert.is((await app.rest('GET', '/api/teamup/statistics')).body.data.publishedLastDay >= expected, true);
    subscription.unsubscribe();
    sse.close();
    watcher.socket.close();
  },
);

Limits.run();

// ---------------------------------------------------------------------------------------------
const Shutdown = suite('live streams: shutdown ends every stream properly before the process exits');

Shutdown(
  'a close frame (1001) to each WebSocket, the end of each SSE and tRPC stream, then the server stops',
  async () => {
    const app = await startTestServer({ SHUTDOWN_TIMEOUT_MS: 10_000 });
    const ws = await connectWs(app.url);
    const sse = await readSse(`${app.url}/api/events`);
    const trpc = await readSse(`${app.url}/trpc/live.events`);
    await trpc.frames.next((frame) => frame.event === 'connected', 'the tRPC stream');
    const started = Date.now();
    await within(app.stop(), 8_000, 'the server to stop');
    assert.ok(Date.now() - started < 5_000, `stopped in ${Date.now() - started} ms, without waiting for the timeout`);
    assert.equal(await within(ws.closed, 5_000, 'the close frame'), {
      code: 1001,
      reason: 'the server is shutting down',
    });
    assert.is(await sse.ended, 'end', 'the SSE body ended (EventSource reconnects, elsewhere)');
    assert.is(await trpc.ended, 'end');
    assert.not.ok(
      trpc.frames.all.some((frame) => frame.event === 'serialized-error' || frame.event === 'return'),
      'no error and no return event: httpSubscriptionLink reconnects and resumes',
    );
  },
);

Shutdown.run();
