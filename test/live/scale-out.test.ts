// Live events across instances (issue 36, item 4): two instances on one database and one Redis. An event
// published on one reaches the streams of the other within a second, with the same id (a client resumes on
// either); while Redis is down each instance still serves its own streams and says so in health, and when
// it is back the streams are told of the gap.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { connectWs, ofType, readSse, TEAM_UP } from '../support/live';
import { freePort, HAS_REDIS, stopChild, waitFor } from '../support/redis';

interface TContext {
  dir: string;
  port: number;
  redis: ChildProcess;
  a: TTestServer;
  b: TTestServer;
}

function redisServer(port: number): ChildProcess {
  return spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
}

const Instances = suite<TContext>('live events across two instances and Redis');
Instances.before(async (context) => {
  if (!HAS_REDIS) return;
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-live-scale-'));
  context.port = await freePort();
  context.redis = redisServer(context.port);
  const shared = {
    DATABASE_URL: `file:${join(context.dir, 'shared.db')}`,
    REDIS_URL: `redis://127.0.0.1:${context.port}`,
    CAPTCHA_HMAC_KEY: 'a shared key of the whole deployment',
  };
  await waitFor('redis-server', async () => {
    const probe = await startTestServer(shared).catch(() => undefined);
    if (probe) context.a = probe;
    return probe !== undefined;
  });
  context.b = await startTestServer(shared);
});
Instances.after(async (context) => {
  await context.a?.stop();
  await context.b?.stop();
  if (context.redis) await stopChild(context.redis);
  if (context.dir) rmSync(context.dir, { recursive: true, force: true });
});

const instancesTest = (name: string, run: (context: TContext) => Promise<void>) =>
  Instances(name, async (context) => {
    if (!HAS_REDIS) {
      console.warn(`skipped "${name}": redis-server is not installed (apt-get install redis-server)`);
      return;
    }
    await run(context);
  });

instancesTest(
  'published on A, received on B (SSE and WebSocket) within a second, with the same id',
  async ({ a, b }) => {
    for (const app of [a, b]) assert.is((await app.rest('GET', '/api/health')).body.data.events, 'all-instances');
    const onA = await readSse(`${a.url}/api/events?topics=teamups`);
    const onB = await readSse(`${b.url}/api/events?topics=teamups`);
    const page = await connectWs(b.url);
    const sentAt = Date.now();
    const published = await a.rest('POST', '/api/teamup/publish', { body: TEAM_UP });
    assert.is(published.status, 200);
    const [fromA, fromB] = await Promise.all([
      onA.frames.next(ofType('teamup.published'), 'the event on A', 1_000),
      onB.frames.next(ofType('teamup.published'), 'the event on B', 1_000),
      page.inbox.next((message) => message.type === 'new_team_up', 'new_team_up on B', 1_000),
    ]);
    assert.ok(Date.now() - sentAt < 1_000);
    assert.is(fromB.id, fromA.id, 'one id on every instance');
    assert.equal(fromB.data, fromA.data);

    // A client that was on A resumes on B.
    onA.close();
    await b.rest('POST', '/api/teamup/publish', { body: { ...TEAM_UP, description: 'published on B' } });
    const resumed = await readSse(`${b.url}/api/events?topics=teamups`, { 'last-event-id': fromA.id! });
    const missed = await resumed.frames.next(ofType('teamup.published'), 'the missed event');
    assert.is(missed.data.data.description, 'published on B');
    for (const reader of [onB, resumed]) reader.close();
    page.socket.close();
  },
);

instancesTest(
  'Redis down: each instance serves its own streams and says so; back: the streams are told of a gap',
  async (context) => {
    const { a, b } = context;
    const onA = await readSse(`${a.url}/api/events?topics=teamups`);
    const onB = await readSse(`${b.url}/api/events?topics=teamups`);
    await stopChild(context.redis);
    await waitFor('both instances to notice', async () => {
      const states = await Promise.all([a, b].map(async (app) => (await app.rest('GET', '/api/health')).body.data));
      return states.every((state) => state.events === 'this-instance' && state.redis === 'unavailable');
    });
    const published = await a.rest('POST', '/api/teamup/publish', {
      body: { ...TEAM_UP, description: 'while Redis is down' },
      headers: { 'x-forwarded-for': '203.0.113.90' },
    });
    assert.is(published.status, 200, published.text);
    const local = await onA.frames.next(
      (frame) => frame.data?.data?.description === 'while Redis is down',
      'A serves its own',
    );
    assert.ok(local.id);
    assert.not.ok(
      onB.frames.all.some((frame) => frame.data?.data?.description === 'while Redis is down'),
      'B cannot hear A',
    );

    context.redis = redisServer(context.port);
    await waitFor('both instances to be back', async () => {
      const states = await Promise.all([a, b].map(async (app) => (await app.rest('GET', '/api/health')).body.data));
      return states.every((state) => state.events === 'all-instances');
    });
    for (const reader of [onA, onB]) await reader.frames.next(ofType('gap'), 'a gap after the outage', 5_000);
    await b.rest('POST', '/api/teamup/publish', { body: { ...TEAM_UP, description: 'after the outage' } });
    await onA.frames.next((frame) => frame.data?.data?.description === 'after the outage', 'shared again');
    onA.close();
    onB.close();
  },
);

Instances.run();
