// The event bus of the live streams (server/infra/events), in process: one order, ids, the resume window
// and its gap, topics, once-only publication, and the bounded queue of a pull-based reader.
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { EventBus, GAP_TYPE, RESUME_WINDOW_MAX_BYTES, type TBusEvent } from '../../server/infra/events/bus';
import { EventQueue } from '../../server/infra/events/queue';
import { MemoryExpiringKeys } from '../../server/infra/expiring-keys';
import { silentLogger } from '../support/helpers';

function newBus(resumeEvents = 5) {
  return new EventBus({ resumeEvents, logger: silentLogger(), now: () => new Date(), once: new MemoryExpiringKeys() });
}

const collect = (bus: EventBus, topics: string[], lastEventId?: string) => {
  const got: TBusEvent[] = [];
  const subscription = bus.subscribe(topics, (event) => got.push(event), lastEventId);
  return { got, subscription };
};

const Bus = suite('event bus: order, ids, resume window, gap');

Bus('events reach the subscribers of their topic once, in order, with increasing ids and their JSON', async () => {
  const bus = newBus();
  const teamups = collect(bus, ['teamups']);
  const both = collect(bus, ['teamups', 'war']);
  const ids = [];
  for (let index = 0; index < 3; index++) ids.push(await bus.publish('teamups', 'teamup.published', { index }));
  ids.push(await bus.publish('war', 'war.snapshot', { season: 'y2s1' }));
  assert.equal(
    teamups.got.map((event) => event.id),
    ids.slice(0, 3),
  );
  assert.equal(
    both.got.map((event) => event.id),
    ids,
  );
  assert.equal(new Set(ids).size, 4);
  const event = both.got[3]!;
  assert.equal(JSON.parse(event.json), {
    id: event.id,
    topic: 'war',
    type: 'war.snapshot',
    at: event.at,
    data: { season: 'y2s1' },
  });
  both.subscription.unsubscribe();
  await bus.publish('teamups', 'teamup.published', {});
  assert.is(both.got.length, 4, 'nothing after unsubscribing');
  assert.is(bus.subscriberCount, 1);
});

Bus('resuming after an id in the window replays what followed, of the subscribed topics only', async () => {
  const bus = newBus();
  const first = await bus.publish('teamups', 'teamup.published', { n: 1 });
  await bus.publish('war', 'war.snapshot', { n: 2 });
  await bus.publish('teamups', 'teamup.cancelled', { n: 3 });
  const resumed = collect(bus, ['teamups'], first);
  assert.equal(
    resumed.got.map((event) => event.data),
    [{ n: 3 }],
  );
  await bus.publish('teamups', 'teamup.expired', { n: 4 });
  assert.equal(
    resumed.got.map((event) => event.data),
    [{ n: 3 }, { n: 4 }],
    'then live',
  );
  const upToDate = collect(bus, ['teamups', 'war'], bus.newestId);
  assert.equal(upToDate.got, [], 'nothing missed, nothing replayed');
});

Bus('an id the window no longer holds (or never held) gets a gap first, whose id resumes without another', async () => {
  const bus = newBus(3);
  const old = await bus.publish('teamups', 'teamup.published', { n: 1 });
  for (let n = 2; n <= 5; n++) await bus.publish('teamups', 'teamup.published', { n });
  for (const lastEventId of [old, 'never-given']) {
    const resumed = collect(bus, ['teamups'], lastEventId);
    assert.is(resumed.got.length, 1);
    const gap = resumed.got[0]!;
    assert.is(gap.type, GAP_TYPE);
    assert.equal(gap.data, { lastEventId, reason: 'events were missed: read the current state again' });
    assert.is(gap.id, bus.newestId);
    assert.equal(collect(bus, ['teamups'], gap.id).got, []);
  }
  assert.is(collect(newBus(), ['war'], 'x').got[0]!.id, '0-0', 'an empty window: a gap with the id 0-0');
});

Bus('the window is bounded in bytes as well as in events', async () => {
  const bus = newBus(1000);
  const big = 'x'.repeat(1024 * 1024);
  const first = await bus.publish('war', 'war.snapshot', { big });
  for (let index = 0; index < 9; index++) await bus.publish('war', 'war.snapshot', { big });
  const resumed = collect(bus, ['war'], first);
  assert.is(resumed.got[0]!.type, GAP_TYPE, `at most ${RESUME_WINDOW_MAX_BYTES} bytes kept`);
});

Bus('publishOnce publishes a key once; resync empties the window and tells every subscriber of a gap', async () => {
  const bus = newBus();
  const seen = collect(bus, ['drops', 'war']);
  assert.is(await bus.publishOnce('drop-started:1:1000', 'drops', 'drop.started', {}), true);
  assert.is(await bus.publishOnce('drop-started:1:1000', 'drops', 'drop.started', {}), false);
  const before = bus.newestId!;
  bus.resync();
  assert.equal(
    seen.got.map((event) => event.type),
    ['drop.started', GAP_TYPE],
    'one gap per subscriber',
  );
  assert.is(collect(bus, ['drops'], before).got[0]!.type, GAP_TYPE, 'nothing resumes across what may have been missed');
});

Bus('a failing subscriber does not keep the event from the others', async () => {
  const bus = newBus();
  bus.subscribe(['war'], () => {
    throw new Error('broken reader');
  });
  const fine = collect(bus, ['war']);
  await bus.publish('war', 'war.snapshot', {});
  assert.is(fine.got.length, 1);
});

Bus.run();

const Queue = suite('event queue of a pull-based reader (tRPC subscriptions)');

Queue(
  'events wait in order; past its bytes the queue fails as an abort (the client reconnects and resumes)',
  async () => {
    const bus = newBus();
    const queue = new EventQueue(3 * 1024);
    bus.subscribe(['war'], (event) => queue.push(event));
    await bus.publish('war', 'war.snapshot', { n: 1 });
    await bus.publish('war', 'war.snapshot', { n: 2 });
    assert.is(((await queue.next())!.data as any).n, 1);
    assert.is(((await queue.next())!.data as any).n, 2);
    const waiting = queue.next();
    await bus.publish('war', 'war.snapshot', { n: 3 });
    assert.is(((await waiting)!.data as any).n, 3, 'a waiting reader gets the next event at once');
    for (let index = 0; index < 10; index++) await bus.publish('war', 'war.snapshot', { pad: 'x'.repeat(500) });
    const error = await queue.next().then(
      () => undefined,
      (reason: Error) => reason,
    );
    assert.is(error?.name, 'AbortError');
    assert.match(error!.message, /slow consumer/);
  },
);

Queue('finish ends a waiting reader', async () => {
  const queue = new EventQueue(1024);
  const waiting = queue.next();
  queue.finish();
  assert.is(await waiting, undefined);
});

Queue.run();
