import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../db/client';
import { TEST_DRIVER } from '../support/helpers';
import { rest } from '../support/http-clients';
import { storedViewsOf } from '../support/stored-views';
import { ROOT, startServerProcess, TSX_ARGS, type TServerProcess } from '../support/process';

const NODE_ARGS = TSX_ARGS;

/** Starts `server/main.ts` as `npm start` does and waits for its "listening" log line. */
function startProcess(env: Record<string, string>): Promise<TServerProcess> {
  return startServerProcess([...TSX_ARGS, 'server/main.ts'], { env: { PORT: '0', ...env } });
}

const Lifecycle = suite<{ dir: string }>('process lifecycle: start, seed, SIGTERM, bad configuration, CLI');

Lifecycle.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-life-'));
});
Lifecycle.after((context) => {
  rmSync(context.dir, { recursive: true, force: true });
});

Lifecycle('start migrates and seeds demo users into an empty database', async ({ dir }) => {
  const server = await startProcess({ DATABASE_URL: `file:${join(dir, 'seeded.db')}` });
  try {
    const signin = await rest(server.url, 'POST', '/api/user/signin', {
      body: { username: 'captain', password: 'tidewatch-demo' },
    });
    assert.is(signin.status, 200);
    assert.equal(signin.body.data.role, ['admin']);
  } finally {
    server.child.kill('SIGTERM');
    assert.is(await server.exited, 0);
  }
});

Lifecycle('SIGTERM writes the views counted since the last batch', async ({ dir }) => {
  const file = join(dir, 'views.db');
  const server = await startProcess({ DATABASE_URL: `file:${file}` });
  let uuid = '';
  let counted = 0;
  try {
    uuid = (await rest(server.url, 'GET', '/api/assembly/list?pageSize=1')).body.data.data[0].uuid;
    for (let i = 0; i < 3; i++)
      counted = (await rest(server.url, 'GET', `/api/assembly/item?uuid=${uuid}`)).body.data.views;
  } finally {
    server.child.kill('SIGTERM');
  }
  assert.is(await server.exited, 0);
  const database = openDatabase(`file:${file}`, { driver: TEST_DRIVER });
  try {
    const [stored] = await storedViewsOf(database.db, [uuid]);
    assert.ok(counted >= 3);
    assert.is(stored, counted, 'every view answered before the stop is stored');
  } finally {
    database.close();
  }
});

Lifecycle('SEED_DEMO=false starts empty', async ({ dir }) => {
  const server = await startProcess({ DATABASE_URL: `file:${join(dir, 'empty.db')}`, SEED_DEMO: 'false' });
  try {
    const signin = await rest(server.url, 'POST', '/api/user/signin', {
      body: { username: 'captain', password: 'tidewatch-demo' },
    });
    assert.is(signin.status, 401);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});

/** A sign-up whose body is sent in two halves, so the server holds it in flight in between. */
function halfSentSignUp(url: string, index: number) {
  const body = JSON.stringify({
    username: `drain_${index}`,
    email: `drain${index}@example.test`,
    password: 'long password',
  });
  const target = new URL('/api/user/signup', url);
  const req = request({
    host: target.hostname,
    port: target.port,
    path: target.pathname,
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const connected = new Promise<void>((resolve) =>
    req.once('socket', (socket) => socket.once('connect', () => resolve())),
  );
  const response = new Promise<number | string>((resolve) => {
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', (error) => resolve(String(error)));
  });
  req.write(body.slice(0, 10));
  return { connected, response, finish: () => req.end(body.slice(10)) };
}

Lifecycle('SIGTERM drains in-flight requests: every one is answered, then the process exits 0', async ({ dir }) => {
  const server = await startProcess({ DATABASE_URL: `file:${join(dir, 'drain.db')}`, SEED_DEMO: 'false' });
  const inFlight = Array.from({ length: 8 }, (_, index) => halfSentSignUp(server.url, index));
  await Promise.all(inFlight.map((call) => call.connected));
  await new Promise((resolve) => setTimeout(resolve, 300));
  server.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (const call of inFlight) call.finish();
  const statuses = await Promise.all(inFlight.map((call) => call.response));
  assert.equal(statuses, Array(8).fill(200), 'no request was cut');
  assert.is(await server.exited, 0);
  assert.match(server.output(), /draining in-flight requests/);
  try {
    await fetch(`${server.url}/api/health`);
    assert.unreachable('server still accepting after shutdown');
  } catch (error) {
    assert.match(String((error as Error & { cause?: unknown }).cause ?? error), /ECONNREFUSED/);
  }
});

/** Resolves once the server's output matches; fails if the process ends first, or after 10 s. */
async function outputMatches(server: TServerProcess, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!pattern.test(server.output())) {
    const { exitCode, signalCode } = server.child;
    if (exitCode !== null || signalCode !== null)
      throw new Error(
        `the process ended (${signalCode ?? `status ${exitCode}`}) before ${pattern} was logged:\n${server.output()}`,
      );
    if (Date.now() > deadline) throw new Error(`no ${pattern} in the output:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Ends a server a failed test left running. */
function killIfRunning(server: TServerProcess): void {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
}

Lifecycle(
  'SIGINT twice, as Ctrl-C on npm start sends it: the second is logged, the drain completes every request, exit 0',
  async ({ dir }) => {
    const server = await startProcess({ DATABASE_URL: `file:${join(dir, 'sigint.db')}`, SEED_DEMO: 'false' });
    try {
      const inFlight = Array.from({ length: 4 }, (_, index) => halfSentSignUp(server.url, index));
      await Promise.all(inFlight.map((call) => call.connected));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The terminal's SIGINT, then the one npm forwards a moment later (each waits for the last to be handled:
      // two signals sent at once may reach the process as one).
      server.child.kill('SIGINT');
      await outputMatches(server, /draining in-flight requests/);
      server.child.kill('SIGINT');
      await outputMatches(server, /still draining/);
      for (const call of inFlight) call.finish();
      assert.equal(await Promise.all(inFlight.map((call) => call.response)), Array(4).fill(200), 'no request was cut');
      assert.is(await server.exited, 0, server.output());
      assert.match(server.output(), /"msg":"stopped"/);
    } finally {
      killIfRunning(server);
    }
  },
);

Lifecycle('a third SIGINT during the drain forces the exit: logged, status 130', async ({ dir }) => {
  // A long drain limit: only the third signal can end this process while its request stays unfinished.
  const server = await startProcess({
    DATABASE_URL: `file:${join(dir, 'forced.db')}`,
    SEED_DEMO: 'false',
    SHUTDOWN_TIMEOUT_MS: '600000',
  });
  try {
    const stuck = halfSentSignUp(server.url, 0);
    await stuck.connected;
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.kill('SIGINT');
    await outputMatches(server, /draining in-flight requests/);
    server.child.kill('SIGINT');
    await outputMatches(server, /still draining/);
    server.child.kill('SIGINT');
    assert.is(await server.exited, 130, server.output());
    assert.match(server.output(), /forced exit/);
    assert.not.match(server.output(), /"msg":"stopped"/);
    assert.type(await stuck.response, 'string', 'the unfinished request was cut');
  } finally {
    killIfRunning(server);
  }
});

Lifecycle('a bad configuration value stops start-up with a message naming it', () => {
  const result = spawnSync(process.execPath, [...NODE_ARGS, 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: 'not-a-port' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.is(result.status, 1);
  assert.match(result.stderr, /PORT/);
  assert.match(result.stderr, /not-a-port/);
});

Lifecycle('CLI: migrate, create-admin, usage errors and --help', ({ dir }) => {
  const env = { ...process.env, DATABASE_URL: `file:${join(dir, 'cli.db')}` };
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [...NODE_ARGS, 'server/cli.ts', ...args], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
  const migrate = cli('migrate');
  assert.is(migrate.status, 0, migrate.stderr);
  assert.match(migrate.stdout, /migrations applied/);
  const created = cli('create-admin', 'harbour_master', '--email', 'hm@example.test', '--password', 'long password');
  assert.is(created.status, 0, created.stderr);
  assert.match(created.stdout, /admin harbour_master created/);
  const promoted = cli('create-admin', 'HARBOUR_MASTER');
  assert.is(promoted.status, 0);
  assert.match(promoted.stdout, /now an admin/);
  const missing = cli('create-admin', 'ghost');
  assert.is(missing.status, 2);
  assert.match(missing.stderr, /--email/);
  const noArgs = cli('create-admin');
  assert.is(noArgs.status, 2);
  assert.match(noArgs.stderr, /Usage/);
  const unknownOption = cli('migrate', '--frobnicate');
  assert.is(unknownOption.status, 2);
  const help = cli('create-admin', '--help');
  assert.is(help.status, 0);
  assert.match(help.stdout, /Usage: npm run cli -- create-admin/);
  const unknown = cli('sail-away');
  assert.is(unknown.status, 2);
  assert.match(unknown.stderr, /Unknown command/);
});

Lifecycle('backup while the server runs, then restore by swapping the file', async ({ dir }) => {
  const live = join(dir, 'live.db');
  const server = await startProcess({ DATABASE_URL: `file:${live}` });
  const copy = join(dir, 'backups', 'copy.db');
  const env = { ...process.env, DATABASE_URL: `file:${live}` };
  try {
    await rest(server.url, 'POST', '/api/user/signup', {
      body: { username: 'before_backup', email: 'bb@example.test', password: 'long password' },
    });
    const backup = spawnSync(process.execPath, [...NODE_ARGS, 'server/cli.ts', 'backup', copy], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.is(backup.status, 0, backup.stderr);
    const again = spawnSync(process.execPath, [...NODE_ARGS, 'server/cli.ts', 'backup', copy], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.is(again.status, 2, 'refuses to overwrite');
    await rest(server.url, 'POST', '/api/user/signup', {
      body: { username: 'after_backup', email: 'ab@example.test', password: 'long password' },
    });
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  // Restore (README): stop the server, put the copy in place of the database file, start again.
  const restored = await startProcess({ DATABASE_URL: `file:${copy}` });
  try {
    const signin = (username: string) =>
      rest(restored.url, 'POST', '/api/user/signin', { body: { username, password: 'long password' } });
    assert.is((await signin('before_backup')).status, 200);
    assert.is((await signin('after_backup')).status, 401);
  } finally {
    restored.child.kill('SIGTERM');
    await restored.exited;
  }
});

Lifecycle.run();
