/**
 * A libSQL server (sqld) that stops and comes back (issue 20, item 4), on every test pass: the
 * service runs on a real sqld over HTTP whatever TEST_DATABASE says. While sqld is down, calls on
 * both surfaces get a 503 envelope (tRPC: SERVICE_UNAVAILABLE) with Retry-After, at once, never a
 * 500 or a hang; once sqld is back on the same directory, the service answers again by itself and
 * every write it acknowledged is there. A hung sqld (SIGSTOP) fails calls after DATABASE_TIMEOUT_MS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { configWith } from '../../server/config';
import { startServer, type TRunningServer } from '../../server/server';
import { GENEROUS_LIMITS, silentLogger } from '../support/helpers';
import { rest, trpcClient } from '../support/http-clients';
import { startSqld, type TSqld } from '../support/sqld';

interface TContextShape {
  dir: string;
  sqld: TSqld & { port: number };
  app: TRunningServer;
  token: string;
  titles: string[];
}

const failures = suite<TContextShape>('a libSQL server that stops and returns');

failures.before(async (context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-sqld-'));
  context.sqld = await startSqld(join(context.dir, 'sqld'));
  context.app = await startServer(
    configWith({
      PORT: 0,
      HOST: '127.0.0.1',
      DATABASE_URL: context.sqld.url,
      DATABASE_DRIVER: 'libsql',
      DATABASE_TIMEOUT_MS: 1_000,
      SEED_DEMO: false,
      ...GENEROUS_LIMITS,
    }),
    { logger: silentLogger() },
  );
  const signUp = await rest(context.app.url, 'POST', '/api/user/signup', {
    body: { username: 'harbourmaster', email: 'harbourmaster@example.test', password: 'correct horse battery' },
  });
  assert.is(signUp.status, 200, signUp.text);
  context.token = signUp.body.data.token;
  context.titles = [];
});

failures.after(async (context) => {
  await context.app?.close();
  await context.sqld?.stop();
  rmSync(context.dir, { recursive: true, force: true });
});

async function writeCollection(context: TContextShape, title: string): Promise<number> {
  const response = await rest(context.app.url, 'POST', '/api/map/collection', {
    token: context.token,
    body: { title },
  });
  if (response.status === 200) context.titles.push(title);
  return response.status;
}

failures(
  'sqld stopped: 503 with Retry-After on REST and SERVICE_UNAVAILABLE on tRPC, quickly; back by itself when sqld returns',
  async (context) => {
    assert.is(await writeCollection(context, 'before the outage'), 200);
    await context.sqld.stop();

    const started = Date.now();
    const read = await rest(context.app.url, 'GET', '/api/map/collections', { token: context.token });
    assert.is(read.status, 503, read.text);
    assert.is(read.body.data.key, 'request.unavailable');
    assert.ok(Number(read.headers.get('retry-after')) >= 1, 'Retry-After is set');
    const write = await rest(context.app.url, 'POST', '/api/map/collection', {
      token: context.token,
      body: { title: 'during the outage' },
    });
    assert.is(write.status, 503, write.text);
    const signIn = await rest(context.app.url, 'POST', '/api/user/signin', {
      body: { username: 'harbourmaster', password: 'correct horse battery' },
    });
    assert.is(signIn.status, 503, signIn.text);
    const native = await trpcClient(context.app.url, context.token)
      .user.me.query()
      .then(
        () => undefined,
        (error: { data?: { code?: string; httpStatus?: number } }) => error.data,
      );
    assert.equal(
      { code: native?.code, httpStatus: native?.httpStatus },
      { code: 'SERVICE_UNAVAILABLE', httpStatus: 503 },
    );
    assert.ok(Date.now() - started < 5_000, `answered while down in ${Date.now() - started} ms`);

    context.sqld = await startSqld(join(context.dir, 'sqld'), { port: context.sqld.port });
    assert.is(await writeCollection(context, 'after the outage'), 200);
    const list = await rest(context.app.url, 'GET', '/api/map/collections', { token: context.token });
    assert.is(list.status, 200, list.text);
    const titles = (list.body.data.data as { title: string }[]).map((collection) => collection.title).sort();
    assert.equal(titles, [...context.titles].sort(), 'every acknowledged write is there, and nothing that failed');
  },
);

failures(
  'sqld restarted under load: every call is answered (2xx or 503), and every acknowledged write survives',
  async (context) => {
    let stop = false;
    let next = 0;
    const statuses: number[] = [];
    const writer = async () => {
      while (!stop) {
        const status = await writeCollection(context, `load ${next++}`);
        statuses.push(status);
      }
    };
    const writers = Promise.all([writer(), writer(), writer()]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await context.sqld.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    context.sqld = await startSqld(join(context.dir, 'sqld'), { port: context.sqld.port });
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop = true;
    await writers;

    assert.ok(statuses.includes(200), 'writes went through around the restart');
    assert.ok(statuses.includes(503), 'writes during the outage were refused with a 503');
    assert.equal(
      statuses.filter((status) => status !== 200 && status !== 503),
      [],
      'no 500 and no other status',
    );
    // A write whose COMMIT reached sqld as it shut down may be stored although its caller got the 503
    // (the answer was lost, not the write; docs/deployment.md). What must
    // never happen is an acknowledged write missing, or a row nobody wrote.
    const stored = new Set<string>();
    for (let page = 1; ; page++) {
      const list = await rest(context.app.url, 'GET', `/api/map/collections?page=${page}&pageSize=100`, {
        token: context.token,
      });
      assert.is(list.status, 200, list.text);
      for (const collection of list.body.data.data as { title: string }[]) stored.add(collection.title);
      if (page * 100 >= list.body.data.pagination.total) break;
    }
    for (const title of context.titles) assert.ok(stored.has(title), `acknowledged "${title}" is stored`);
    const attempted = new Set([...context.titles, ...Array.from({ length: next }, (_, index) => `load ${index}`)]);
    for (const title of stored) assert.ok(attempted.has(title), `"${title}" was written by a caller`);
  },
);

failures(
  'sqld hung (SIGSTOP): a call fails with 503 after DATABASE_TIMEOUT_MS instead of hanging; recovers on SIGCONT',
  async (context) => {
    const pid = context.sqld.pid;
    process.kill(pid, 'SIGSTOP');
    try {
      const started = Date.now();
      const read = await rest(context.app.url, 'GET', '/api/map/collections', { token: context.token });
      const took = Date.now() - started;
      assert.is(read.status, 503, read.text);
      assert.ok(took >= 900 && took < 5_000, `failed after ${took} ms (DATABASE_TIMEOUT_MS 1000)`);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const read = await rest(context.app.url, 'GET', '/api/map/collections', { token: context.token });
    assert.is(read.status, 200, read.text);
  },
);

failures.run();
