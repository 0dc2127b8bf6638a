// Push for every client (issue 36): GET /api/events (Server-Sent Events) read with fetch and with a real
// EventSource that reconnects with Last-Event-ID, and tRPC subscriptions through @trpc/client's
// httpSubscriptionLink: the same events and ids, the topics (team-ups, war snapshots, drop campaigns),
// resuming within the window, the gap beyond it, bad input.
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { signUpAdmin } from '../support/sign-up';
import { EventSource, liveTrpcClient, ofType, readSse, TEAM_UP, type TSseFrame } from '../support/live';
import { waitFor } from '../support/redis';
import { COMPANIES, DAY, ZONES } from '../war/fixtures';
import { createTidewatchClient, type LiveEvent, subscribeLive } from '../../packages/client/src/index';

const Streams = suite<{ app: TTestServer; admin: string }>('live streams: SSE and tRPC subscriptions');
Streams.before(async (context) => {
  context.app = await startTestServer();
  context.admin = (await signUpAdmin(context.app)).token;
});
Streams.after(async ({ app }) => app.stop());

const publish = (app: TTestServer, description: string) =>
  app.rest('POST', '/api/teamup/publish', { body: { ...TEAM_UP, description } });

/** Subscribes through tRPC and gathers what arrives. */
function subscribeTrpc(app: TTestServer, input: Record<string, unknown> = {}, options: { fetch?: typeof fetch } = {}) {
  const got: any[] = [];
  const errors: unknown[] = [];
  let started = false;
  const subscription = liveTrpcClient(app.url, options).live.events.subscribe(input as never, {
    onStarted: () => {
      started = true;
    },
    onData: (tracked: any) => got.push(tracked),
    onError: (error) => errors.push(error),
  });
  return { got, errors, started: () => started, subscription };
}

Streams('GET /api/events: an event stream of the topics asked, each event with its id', async ({ app }) => {
  const reader = await readSse(`${app.url}/api/events?topics=teamups`);
  assert.is(reader.status, 200);
  assert.is(reader.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  assert.is(reader.headers.get('cache-control'), 'no-store');
  const hello = await reader.frames.next((frame) => frame.retry !== undefined, 'the retry field');
  assert.is(hello.retry, 3000);
  const published = (await publish(app, 'First crew of the stream')).body.data;
  const frame = await reader.frames.next(ofType('teamup.published'), 'teamup.published');
  assert.is(frame.data.topic, 'teamups');
  assert.equal(frame.data.data, published);
  assert.is(frame.id, frame.data.id, 'the SSE id is the event id');
  assert.ok(typeof frame.data.at === 'string');
  reader.close();
});

Streams('Last-Event-ID resumes after that event; an id the window lacks gets a gap first', async ({ app }) => {
  const first = await readSse(`${app.url}/api/events?topics=teamups`);
  await publish(app, 'resume one');
  const one = await first.frames.next((frame) => frame.data?.data?.description === 'resume one', 'resume one');
  first.close();
  await publish(app, 'resume two');
  await publish(app, 'resume three');
  const again = await readSse(`${app.url}/api/events?topics=teamups`, { 'last-event-id': one.id! });
  const three = await again.frames.next((frame) => frame.data?.data?.description === 'resume three', 'resume three');
  const events = again.frames.all.filter((frame) => frame.data);
  assert.equal(
    events.map((frame) => frame.data.data.description),
    ['resume two', 'resume three'],
    'exactly what was missed, in order',
  );
  assert.ok(three.id! > one.id!);
  again.close();

  const lost = await readSse(`${app.url}/api/events?lastEventId=1-0`);
  const gap = await lost.frames.next(ofType('gap'), 'a gap');
  assert.equal(gap.data.data.lastEventId, '1-0');
  assert.is(gap.id, three.id, 'the gap carries the newest id, to resume from');
  lost.close();
});

Streams('a real EventSource reconnects by itself with Last-Event-ID and misses nothing', async ({ app }) => {
  let connections = 0;
  const sentIds: (string | null)[] = [];
  // The first connection breaks after its first event, as a dropped network would cut it.
  const fetchThatBreaks: typeof fetch = async (input, init) => {
    connections++;
    sentIds.push(new Headers(init?.headers).get('last-event-id'));
    const response = await fetch(input, init);
    if (connections > 1 || !response.body) return response;
    const reader = response.body.getReader();
    let seenEvent = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (seenEvent) {
          void reader.cancel();
          return controller.error(new Error('network cut'));
        }
        const { value, done } = await reader.read();
        if (done) return controller.close();
        if (new TextDecoder().decode(value).includes('id: ')) seenEvent = true;
        controller.enqueue(value);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const source = new EventSource(`${app.url}/api/events?topics=teamups`, { fetch: fetchThatBreaks });
  const descriptions: string[] = [];
  source.onmessage = (event) => descriptions.push(JSON.parse(event.data).data.description);
  await waitFor('the EventSource to connect', async () => source.readyState === EventSource.OPEN);
  await publish(app, 'before the cut');
  await waitFor('the first event', async () => descriptions.length === 1);
  await publish(app, 'during the cut');
  await waitFor('the reconnection and the missed event', async () => descriptions.length === 2, 10_000);
  source.close();
  assert.equal(descriptions, ['before the cut', 'during the cut']);
  assert.is(connections, 2);
  assert.is(sentIds[0], null);
  assert.ok(sentIds[1], 'the reconnection sent Last-Event-ID');
});

Streams(
  'tRPC httpSubscriptionLink: tracked events with the same ids as SSE, resumed with lastEventId',
  async ({ app }) => {
    const sse = await readSse(`${app.url}/api/events?topics=teamups`);
    const live = subscribeTrpc(app, { topics: ['teamups'] });
    await waitFor('the subscription to start', async () => live.started());
    const published = await liveTrpcClient(app.url).teamup.publish.mutate({ ...TEAM_UP, description: 'via tRPC' });
    await waitFor('the tRPC event', async () => live.got.length >= 1);
    const tracked = live.got[0];
    const frame = await sse.frames.next((item: TSseFrame) => item.data?.data?.id === published.id, 'the SSE twin');
    assert.is(tracked.id, frame.id, 'one id on both doors');
    assert.equal(tracked.data, frame.data, 'one event on both doors');
    live.subscription.unsubscribe();
    sse.close();

    await publish(app, 'missed by tRPC');
    const resumed = subscribeTrpc(app, { topics: ['teamups'], lastEventId: tracked.id });
    await waitFor('the replay', async () => resumed.got.length >= 1);
    assert.is(resumed.got[0].data.data.description, 'missed by tRPC');
    resumed.subscription.unsubscribe();

    const gap = subscribeTrpc(app, { lastEventId: 'long-gone' });
    await waitFor('the gap', async () => gap.got.length >= 1);
    assert.is(gap.got[0].data.type, 'gap');
    gap.subscription.unsubscribe();
  },
);

Streams(
  'a new war snapshot and drop campaigns written, starting and ending reach both doors',
  async ({ app, admin }) => {
    const sse = await readSse(`${app.url}/api/events?topics=war,drops`);
    const live = subscribeTrpc(app, { topics: ['war', 'drops'] });
    await waitFor('the subscription to start', async () => live.started());
    // A season running now, with its zones and companies, then a snapshot of it.
    const day = (offset: number) => new Date(app.clock.now().getTime() + offset * DAY).toISOString().slice(0, 10);
    const season = {
      id: 'y9s1',
      key: 'liveWaters',
      name: 'Live Waters',
      number: 90,
      startDate: day(-10),
      endDate: day(10),
    };
    const reference = await app.rest('POST', '/api/admin/war/reference', {
      token: admin,
      body: { seasons: [season], zones: ZONES, companies: COMPANIES },
    });
    assert.is(reference.status, 200, reference.text);
    const capturedAt = new Date(app.clock.now().getTime() - 1000);
    const snapshot = {
      season: season.id,
      capturedAt: capturedAt.toISOString(),
      companies: COMPANIES.map((company, index) => ({ companyId: company.id, score: 100 * (index + 1) })),
      zones: ZONES.map((zone) => ({ zoneId: zone.id, controlledBy: COMPANIES[0]!.id, scores: {} })),
      hotspots: [],
    };
    const recorded = await app.rest('POST', '/api/admin/war/snapshots', { token: admin, body: snapshot });
    assert.is(recorded.status, 200, recorded.text);
    const war = await sse.frames.next(ofType('war.snapshot'), 'war.snapshot', 5_000);
    assert.is(war.data.data.capturedAt, capturedAt.toISOString(), 'the new latest state');
    assert.is(war.data.data.season.id, season.id);

    const now = app.clock.now().getTime();
    const campaign = {
      campaignId: `live-${now}`,
      name: 'Live drops',
      startsAt: new Date(now + 60_000).toISOString(),
      endsAt: new Date(now + 120_000).toISOString(),
      rewards: [{ name: 'Banner', requiredMinutes: 30 }],
      channels: [{ name: 'skullandbonesgame' }],
    };
    const upserted = await app.rest('POST', '/api/admin/drop/campaigns', {
      token: admin,
      body: { campaigns: [campaign] },
    });
    assert.is(upserted.status, 200, upserted.text);
    const changed = await sse.frames.next(ofType('drop.changed'), 'drop.changed', 5_000);
    assert.is(changed.data.data.campaignId, campaign.campaignId);
    assert.is(changed.data.data.status, 'upcoming');
    app.clock.advance(61_000);
    const started = await sse.frames.next(ofType('drop.started'), 'drop.started', 5_000);
    assert.is(started.data.data.status, 'active');
    app.clock.advance(60_000);
    await sse.frames.next(ofType('drop.ended'), 'drop.ended', 5_000);
    const types = sse.frames.all.filter((frame) => frame.data).map((frame) => frame.data.type);
    assert.equal(types, ['war.snapshot', 'drop.changed', 'drop.started', 'drop.ended'], 'each once, in order');
    await waitFor('the same on tRPC', async () => live.got.length >= 4);
    assert.equal(
      live.got.map((event) => event.data.type),
      types,
    );
    live.subscription.unsubscribe();
    sse.close();
  },
);

Streams('the typed client package subscribes: subscribeLive hands over each event by its type', async ({ app }) => {
  const client = createTidewatchClient(app.url, {
    EventSource: EventSource as unknown as typeof globalThis.EventSource,
  });
  const events: LiveEvent[] = [];
  let started = false;
  const subscription = subscribeLive(
    client,
    { topics: ['teamups'] },
    {
      onStarted: () => {
        started = true;
      },
      onEvent: (event) => events.push(event),
    },
  );
  await waitFor('the subscription to start', async () => started);
  const published = await client.teamup.publish.mutate({ ...TEAM_UP, description: 'through @tidewatch/client' });
  await waitFor('the event', async () => events.length >= 1);
  const event = events[0]!;
  assert.is(event.type, 'teamup.published');
  if (event.type === 'teamup.published') assert.equal(event.data, published);
  subscription.unsubscribe();
});

Streams('bad requests are 400 (or 405) in the envelope, naming the parameter', async ({ app }) => {
  const unknownTopic = await app.rest('GET', '/api/events?topics=war,weather');
  assert.is(unknownTopic.status, 400);
  assert.match(unknownTopic.body.message, /topics\[1\]: must be one of war, drops, teamups/);
  const unknownParameter = await app.rest('GET', '/api/events?since=1');
  assert.is(unknownParameter.status, 400);
  assert.match(unknownParameter.body.message, /Unrecognized key/);
  const tooLong = await app.rest('GET', '/api/events', { headers: { 'last-event-id': 'x'.repeat(200) } });
  assert.is(tooLong.status, 400);
  const post = await app.rest('POST', '/api/events', { body: {} });
  assert.is(post.status, 405);
  assert.is(post.headers.get('allow'), 'GET');
});

Streams('health counts the open streams and says where events reach', async ({ app }) => {
  const reader = await readSse(`${app.url}/api/events`);
  const health = (await app.rest('GET', '/api/health')).body.data;
  assert.is(health.events, 'this-instance');
  assert.ok(health.liveStreams >= 1);
  reader.close();
});

Streams.run();
