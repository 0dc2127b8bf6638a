/**
 * Embedded replicas (issue 20, item 3): a real sqld primary, a redis-server, and two instances whose
 * DATABASE_URL is a local replica file of the primary (DATABASE_SYNC_URL). A write acknowledged by
 * one instance is never missing from a read on the other right after it: accounts (a sign-in reads
 * the users table of the replica), new assemblies, and edits of an assembly the reader has cached,
 * for many rounds in both directions. Without the replication index on the bus, these reads race the
 * periodic sync (set to an hour here) and come back stale.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { configWith } from '../../server/config';
import { startServer, type TRunningServer } from '../../server/server';
import { BRIGANTINE } from '../assembly/fixtures';
import { GENEROUS_LIMITS, silentLogger } from '../support/helpers';
import { rest } from '../support/http-clients';
import { HAS_REDIS, startRedis } from '../support/redis';
import { startSqld, type TSqld } from '../support/sqld';

const ROUNDS = 40;

interface TContextShape {
  dir: string;
  sqld: TSqld;
  redis: { url: string; stop: () => Promise<void> };
  a: TRunningServer;
  b: TRunningServer;
}

const Replicas = suite<TContextShape>('two instances on embedded replicas of one sqld, with Redis');

function startInstance(context: TContextShape, name: string): Promise<TRunningServer> {
  return startServer(
    configWith({
      PORT: 0,
      HOST: '127.0.0.1',
      DATABASE_URL: `file:${join(context.dir, `${name}.db`)}`,
      DATABASE_SYNC_URL: context.sqld.url,
      // Far longer than the test: only the replication index on the bus can bring the other's writes in time.
      DATABASE_SYNC_INTERVAL_S: 3600,
      REDIS_URL: context.redis.url,
      SEED_DEMO: true,
      ...GENEROUS_LIMITS,
    }),
    { logger: silentLogger() },
  );
}

Replicas.before(async (context) => {
  if (!HAS_REDIS) return;
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-replicas-'));
  context.sqld = await startSqld(join(context.dir, 'primary'));
  context.redis = await startRedis();
  context.a = await startInstance(context, 'replica-a');
  context.b = await startInstance(context, 'replica-b');
});

Replicas.after(async (context) => {
  await context.a?.close();
  await context.b?.close();
  await context.redis?.stop();
  await context.sqld?.stop();
  if (context.dir) rmSync(context.dir, { recursive: true, force: true });
});

const replicaTest = (name: string, run: (context: TContextShape) => Promise<void>) =>
  Replicas(name, async (context) => {
    if (!HAS_REDIS) {
      console.warn(`skipped "${name}": redis-server is not installed (apt-get install redis-server)`);
      return;
    }
    await run(context);
  });

replicaTest('the demo data seeded through one replica is read on the other', async ({ a, b }) => {
  const onA = await rest(a.url, 'GET', '/api/assembly/list');
  const onB = await rest(b.url, 'GET', '/api/assembly/list');
  assert.is(onA.status, 200, onA.text);
  assert.ok(onA.body.data.pagination.total > 0, 'demo assemblies are listed');
  assert.is(onB.body.data.pagination.total, onA.body.data.pagination.total);
});

replicaTest(
  `write on one, read on the other at once, ${ROUNDS} rounds each way: zero stale reads`,
  async ({ a, b }) => {
    const stale: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const [writer, reader] = round % 2 === 0 ? [a, b] : [b, a];
      const username = `replica${process.pid}r${round}`;
      const signUp = await rest(writer.url, 'POST', '/api/user/signup', {
        body: { username, email: `${username}@example.test`, password: 'correct horse battery' },
      });
      assert.is(signUp.status, 200, signUp.text);
      const signIn = await rest(reader.url, 'POST', '/api/user/signin', {
        body: { username, password: 'correct horse battery' },
      });
      if (signIn.status !== 200) stale.push(`round ${round}: sign-in of a new account answered ${signIn.status}`);
      const token = signUp.body.data.token as string;

      const published = await rest(writer.url, 'POST', '/api/assembly/publish', {
        token,
        body: { ...BRIGANTINE, name: `Round ${round}` },
      });
      assert.is(published.status, 200, published.text);
      const uuid = published.body.data.uuid as string;
      const first = await rest(reader.url, 'GET', `/api/assembly/item?uuid=${uuid}`);
      if (first.status !== 200) stale.push(`round ${round}: a new assembly answered ${first.status}`);

      // The reader has the assembly cached now; the edit must reach it through the bus and the index.
      const edited = await rest(writer.url, 'POST', '/api/assembly/edit', {
        token,
        body: { uuid, data: { name: `Round ${round}, edited` } },
      });
      assert.is(edited.status, 200, edited.text);
      const second = await rest(reader.url, 'GET', `/api/assembly/item?uuid=${uuid}`);
      if (second.body?.data?.name !== `Round ${round}, edited`)
        stale.push(`round ${round}: the edit read back as ${JSON.stringify(second.body?.data?.name)}`);
    }
    assert.equal(stale, [], 'no read missed a write acknowledged by the other instance');
  },
);

replicaTest(
  'Redis stopped: each instance syncs before every read, so writes are still read back at once on the other',
  async (context) => {
    const { a, b } = context;
    await context.redis.stop();
    // ioredis notices the closed connection at once; give its event a moment to land.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stale: string[] = [];
    for (let round = 0; round < 10; round++) {
      const [writer, reader] = round % 2 === 0 ? [a, b] : [b, a];
      const username = `noredis${process.pid}r${round}`;
      const signUp = await rest(writer.url, 'POST', '/api/user/signup', {
        body: { username, email: `${username}@example.test`, password: 'correct horse battery' },
      });
      assert.is(signUp.status, 200, signUp.text);
      const signIn = await rest(reader.url, 'POST', '/api/user/signin', {
        body: { username, password: 'correct horse battery' },
      });
      if (signIn.status !== 200) stale.push(`round ${round}: sign-in answered ${signIn.status}`);
    }
    assert.equal(stale, []);
  },
);

Replicas.run();
