/**
 * Crash safety: concurrent writers (publish, edit, order create, map collection with points) run while
 * the server process is killed with SIGKILL several times and restarted on the same database file.
 * Afterwards SQLite's integrity check passes and every write the clients saw acknowledged is there.
 * Then SIGTERM under load: every request the server accepted is answered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../db/client';
import { assemblies, mapCollections, mapPoints, subscriptionOrders } from '../../db/schema';
import { TEST_DRIVER } from '../support/helpers';
import { call, ServerProcess } from './crash-safety-fixtures';

const KILLS = 4;
const WORKERS = 6;

interface TLedger {
  published: Set<string>;
  /** Per assembly: the last acknowledged name, and names sent after it whose fate is unknown. */
  names: Map<string, { acked: string; unknown: Set<string> }>;
  orders: Set<string>;
  collections: Set<string>;
  acknowledged: number;
  failedInFlight: number;
}

const Crash = suite<{ dir: string }>('crash safety');
Crash.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-crash-'));
});
Crash.after((context) => {
  rmSync(context.dir, { recursive: true, force: true });
});

Crash('SIGKILL during concurrent writes loses no acknowledged write and never corrupts the file', async ({ dir }) => {
  const file = join(dir, 'crash.db');
  // A fixed port, so clients reconnect to the restarted process.
  const port = String(20000 + (process.pid % 20000));
  const server = new ServerProcess({
    DATABASE_URL: `file:${file}`,
    PORT: port,
    RATE_LIMIT_GLOBAL: '1000000',
    RATE_LIMIT_SIGNUP: '1000000',
    RATE_LIMIT_SIGNIN: '1000000',
    RATE_LIMIT_ORDERS: '1000000',
  });
  await server.start();
  const ledger: TLedger = {
    published: new Set(),
    names: new Map(),
    orders: new Set(),
    collections: new Set(),
    acknowledged: 0,
    failedInFlight: 0,
  };

  const tokens: string[] = [];
  for (let worker = 0; worker < WORKERS; worker++) {
    const signup = await call(server.base, 'POST', '/api/user/signup', {
      username: `crash_${worker}`,
      email: `crash${worker}@example.test`,
      password: 'long password',
    });
    assert.is(signup.status, 200);
    tokens.push(signup.body.data.token);
  }

  let stopping = false;
  const attempt = async (fn: () => Promise<void>) => {
    try {
      await fn();
    } catch {
      ledger.failedInFlight++; // refused or cut by the kill: not acknowledged, so nothing is promised
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const workerLoop = async (worker: number) => {
    const token = tokens[worker]!;
    const mine: string[] = [];
    let orders = 0;
    for (let step = 0; !stopping; step++) {
      await attempt(async () => {
        const reply = await call(
          server.base,
          'POST',
          '/api/assembly/publish',
          {
            name: `w${worker} s${step}`,
            shipId: 'cutter',
            weapons: [{ slot: 'frontWeapon', itemId: 'culverin1' }],
            tags: ['crash'],
          },
          token,
        );
        if (reply.status === 200) {
          ledger.published.add(reply.body.data.uuid);
          ledger.names.set(reply.body.data.uuid, { acked: `w${worker} s${step}`, unknown: new Set() });
          mine.push(reply.body.data.uuid);
          ledger.acknowledged++;
        }
      });
      const target = mine[step % Math.max(1, mine.length)];
      if (target && step % 2 === 1) {
        const name = `edited w${worker} s${step}`;
        const entry = ledger.names.get(target)!;
        entry.unknown.add(name);
        await attempt(async () => {
          const reply = await call(server.base, 'POST', '/api/assembly/edit', { uuid: target, data: { name } }, token);
          if (reply.status === 200) {
            entry.acked = name;
            entry.unknown.clear();
            ledger.acknowledged++;
          }
        });
      }
      if (step % 5 === 2 && orders < 4) {
        await attempt(async () => {
          const reply = await call(
            server.base,
            'POST',
            '/api/subscription/orders/create',
            { tierId: 'deckhand-1m', payType: 'manual' },
            token,
          );
          if (reply.status === 200) {
            ledger.orders.add(reply.body.data.orderId);
            orders++;
            ledger.acknowledged++;
          }
        });
      }
      if (step % 4 === 3) {
        await attempt(async () => {
          const points = Array.from({ length: 5 }, (_, i) => ({ title: `p${i}`, latitude: i, longitude: -i }));
          const reply = await call(
            server.base,
            'POST',
            '/api/map/collection',
            { title: `w${worker} s${step}`, points },
            token,
          );
          if (reply.status === 200) {
            ledger.collections.add(reply.body.data.uuid);
            ledger.acknowledged++;
          }
        });
      }
    }
  };
  const workers = Array.from({ length: WORKERS }, (_, worker) => workerLoop(worker));

  try {
    for (let kill = 0; kill < KILLS; kill++) {
      await new Promise((resolve) => setTimeout(resolve, 600 + Math.random() * 900));
      await server.kill('SIGKILL');
      await server.start();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  } finally {
    stopping = true;
    await Promise.all(workers);
  }
  await server.kill('SIGTERM');

  const database = openDatabase(`file:${file}`, { driver: TEST_DRIVER });
  try {
    assert.is(await database.integrityCheck(), 'ok');
    const { db } = database;
    for (const uuid of ledger.published) {
      const row = await db
        .select({ name: assemblies.name, deletedAt: assemblies.deletedAt })
        .from(assemblies)
        .where(eq(assemblies.uuid, uuid))
        .get();
      assert.ok(row, `acknowledged assembly ${uuid} is present`);
      const entry = ledger.names.get(uuid)!;
      assert.ok(
        row!.name === entry.acked || entry.unknown.has(row!.name),
        `assembly ${uuid} has ${row!.name}, acknowledged ${entry.acked}`,
      );
    }
    for (const orderId of ledger.orders) {
      assert.ok(
        await db.select().from(subscriptionOrders).where(eq(subscriptionOrders.id, orderId)).get(),
        `order ${orderId} present`,
      );
    }
    const stored = await db
      .select({ uuid: mapCollections.id, pointCount: mapCollections.pointCount })
      .from(mapCollections)
      .all();
    const storedIds = new Set(stored.map((row) => row.uuid));
    for (const uuid of ledger.collections) assert.ok(storedIds.has(uuid), `collection ${uuid} present`);
    for (const { uuid, pointCount } of stored) {
      const points = await db
        .select({ id: mapPoints.id })
        .from(mapPoints)
        .where(eq(mapPoints.collectionId, uuid))
        .all();
      // Acknowledged or not, a collection is all there or not there: never written half.
      assert.is(points.length, pointCount, `collection ${uuid} has ${points.length} of its ${pointCount} points`);
      if (ledger.collections.has(uuid)) assert.is(pointCount, 5);
    }
  } finally {
    database.close();
  }
  console.log(
    `      crash safety: ${KILLS} SIGKILLs, ${ledger.acknowledged} acknowledged writes verified ` +
      `(${ledger.published.size} assemblies, ${ledger.orders.size} orders, ${ledger.collections.size} collections), ` +
      `${ledger.failedInFlight} requests refused or cut by the kills`,
  );
  assert.ok(ledger.acknowledged > 20, 'enough writes happened to mean something');
});

Crash('SIGTERM under load: every accepted request is answered', async ({ dir }) => {
  const server = new ServerProcess({
    DATABASE_URL: `file:${join(dir, 'term.db')}`,
    PORT: '0',
    RATE_LIMIT_GLOBAL: '1000000',
    RATE_LIMIT_SIGNUP: '1000000',
  });
  await server.start();
  const signup = await call(server.base, 'POST', '/api/user/signup', {
    username: 'term_load',
    email: 'term@example.test',
    password: 'long password',
  });
  const token = signup.body.data.token;
  const outcomes = { answered: 0, refused: 0, cut: 0 };
  let stopping = false;
  // Each client keeps one connection open, as browsers and SDKs do; it is established before SIGTERM.
  const loop = async (worker: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let step = 0; !stopping; step++) {
      try {
        const reply = await call(
          server.base,
          'POST',
          '/api/assembly/publish',
          {
            name: `term ${worker} ${step}`,
            shipId: 'cutter',
            weapons: [{ slot: 'frontWeapon', itemId: 'culverin1' }],
          },
          token,
          agent,
        );
        assert.ok(reply.status < 500);
        outcomes.answered++;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ECONNREFUSED') outcomes.refused++;
        else {
          outcomes.cut++;
          console.log('      cut:', code, String(error));
        }
        if (code === 'ECONNREFUSED') break;
      }
    }
    agent.destroy();
  };
  const loops = Array.from({ length: 8 }, (_, worker) => loop(worker));
  await new Promise((resolve) => setTimeout(resolve, 800));
  await server.kill('SIGTERM');
  stopping = true;
  await Promise.all(loops);
  console.log(
    `      SIGTERM under load: ${outcomes.answered} answered, ${outcomes.refused} refused after close, ${outcomes.cut} cut`,
  );
  assert.is(outcomes.cut, 0, 'no accepted request was cut');
  assert.ok(outcomes.answered > 8);
});

Crash.run();
