// Operator safety, continued from operator-safety.test.ts: stopping npm start, restore beside a server, the docs page over HTTP, configuration errors.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { ConfigError, loadConfig } from '../../server/config';
import { startTestServer } from '../support/helpers';
import { rest } from '../support/http-clients';
import { ROOT, runNode, TSX_ARGS } from '../support/process';
import { startProcess, stopProcess, failedStart, assertOneLine } from '../support/operator';

// ---------- 11: stopping `npm start` stops the server ----------

const NpmStart = suite<{ dir: string }>('11: SIGTERM to npm start');
NpmStart.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-npm-'));
});
NpmStart.after((context) => rmSync(context.dir, { recursive: true, force: true }));

/** Every process below `root`, from ps. */
function descendants(root: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [pid, ppid] of table) {
      if (ppid === parent) {
        found.push(pid);
        queue.push(pid);
      }
    }
  }
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

NpmStart('SIGTERM to the npm process stops the server: no node process of it is left', async ({ dir }) => {
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      DATABASE_URL: `file:${join(dir, 'npm.db')}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  let tree: number[] = [];
  try {
    for (let waited = 0; !/tidewatch listening/.test(output); waited += 100) {
      if (waited > 60_000) throw new Error(`npm start did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    tree = descendants(npm.pid!);
    assert.ok(tree.length > 0);
    npm.kill('SIGTERM');
    await exited;
    for (let waited = 0; tree.some(alive) && waited < 5_000; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(tree.filter(alive), [], `left running after npm exited:\n${output}`);
    assert.match(output, /"msg":"stopped"/, 'the server drained and stopped');
  } finally {
    for (const pid of tree.filter(alive)) process.kill(pid, 'SIGKILL');
  }
});

NpmStart.run();

// ---------- 12: restore refuses a database in use ----------

const Restore = suite<{ dir: string }>('12: restore while a server uses the database');
Restore.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-restore-'));
});
Restore.after((context) => rmSync(context.dir, { recursive: true, force: true }));

Restore('refused while a server runs (even idle), unsafe with --force, fine once it has stopped', async ({ dir }) => {
  const live = join(dir, 'live.db');
  const copy = join(dir, 'copy.db');
  const env = { DATABASE_URL: `file:${live}`, SEED_DEMO: 'false' };
  const cli = (...args: string[]) => runNode([...TSX_ARGS, 'server/cli.ts', ...args], { env, timeoutMs: 60_000 });
  const server = await startProcess(env);
  try {
    await rest(server.url, 'POST', '/api/user/signup', {
      body: { username: 'in_backup', email: 'ib@example.test', password: 'long password' },
    });
    assert.is((await cli('backup', copy)).status, 0);
    await rest(server.url, 'POST', '/api/user/signup', {
      body: { username: 'after_backup', email: 'ab@example.test', password: 'long password' },
    });
    const refused = await cli('restore', copy);
    assert.is(refused.status, 1, refused.stdout + refused.stderr);
    assert.match(
      refused.stderr,
      /refusing to restore: a running Tidewatch server \(or another command\) has .*live\.db open.*stop it first/,
    );
    const signin = await rest(server.url, 'POST', '/api/user/signin', {
      body: { username: 'after_backup', password: 'long password' },
    });
    assert.is(signin.status, 200, 'the database was left alone');

    const forced = await cli('restore', copy, '--force');
    assert.is(forced.status, 0, forced.stderr);
    assert.match(
      forced.stdout,
      /warning: a running Tidewatch server \(or another command\) has .*restoring anyway \(--force\)/,
    );
  } finally {
    await stopProcess(server);
  }
  const restored = await cli('restore', copy);
  assert.is(restored.status, 0, restored.stderr);
  assert.match(restored.stdout, /^restored .*live\.db from .*copy\.db; the previous database is kept as /m);
  assert.not.match(restored.stdout, /warning/);
  // A server that was SIGKILLed leaves no stale lock: the operating system drops it with the process.
  const killed = await startProcess(env);
  killed.child.kill('SIGKILL');
  await killed.exited;
  assert.is((await cli('restore', copy)).status, 0);
});

Restore('a server or a command does not start while a restore holds the database', async ({ dir }) => {
  const file = join(dir, 'held.db');
  const { takeExclusiveLock } = await import('../../db/lock');
  const lock = takeExclusiveLock(file);
  try {
    const result = failedStart({ DATABASE_URL: `file:${file}` });
    assert.is(result.status, 1);
    assertOneLine(result.stderr);
    assert.match(result.stderr, /held\.db is being restored/);
    const command = await runNode([...TSX_ARGS, 'server/cli.ts', 'migrate'], { env: { DATABASE_URL: `file:${file}` } });
    assert.is(command.status, 1);
    assert.match(command.stderr, /^migrate: .*held\.db is being restored/);
  } finally {
    lock.release();
  }
});

Restore('restore does not apply to a libSQL server URL and says so', async ({ dir }) => {
  const copy = join(dir, 'any.db');
  copyFileSync(join(ROOT, 'package.json'), copy);
  const result = await runNode([...TSX_ARGS, 'server/cli.ts', 'restore', copy], {
    env: { DATABASE_URL: 'libsql://tidewatch.example.turso.io', DATABASE_DRIVER: 'libsql' },
  });
  assert.is(result.status, 2);
  assert.match(result.stderr, /DATABASE_URL is a libSQL server: restore replaces a local file/);
});

Restore.run();

// ---------- 13: upgrade-insecure-requests only over https ----------

const Https = suite('13: the docs page over plain HTTP');

function csp(response: { headers: Headers }): string {
  return response.headers.get('content-security-policy') ?? '';
}

Https(
  'plain HTTP gets no upgrade-insecure-requests, even if the client claims https without a trusted proxy',
  async () => {
    const app = await startTestServer();
    try {
      const plain = await app.rest('GET', '/api/docs');
      assert.is(plain.status, 200);
      assert.match(csp(plain), /default-src 'self'/);
      assert.not.match(csp(plain), /upgrade-insecure-requests/);
      const claimed = await app.rest('GET', '/api/docs', { headers: { 'x-forwarded-proto': 'https' } });
      assert.not.match(csp(claimed), /upgrade-insecure-requests/);
    } finally {
      await app.stop();
    }
  },
);

Https('behind a trusted proxy, X-Forwarded-Proto: https gets it; http does not', async () => {
  const app = await startTestServer({ TRUST_PROXY: 1 });
  try {
    const https = await app.rest('GET', '/api/docs', { headers: { 'x-forwarded-proto': 'https' } });
    assert.match(csp(https), /upgrade-insecure-requests/);
    assert.match(csp(https), /default-src 'self'/);
    const http = await app.rest('GET', '/api/docs', { headers: { 'x-forwarded-proto': 'http' } });
    assert.not.match(csp(http), /upgrade-insecure-requests/);
    const none = await app.rest('GET', '/api/health');
    assert.not.match(csp(none), /upgrade-insecure-requests/);
  } finally {
    await app.stop();
  }
});

Https.run();

// ---------- 14: configuration secrets ----------

const Secrets = suite('14: configuration errors and secrets');

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    assert.instance(error, ConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

Secrets('a bad secret is named, its value never shown', () => {
  for (const [name, value] of [
    ['PAYMENT_MANUAL_SECRET', 'hush-payment'],
    ['CAPTCHA_HMAC_KEY', 'hush-captcha'],
    ['METRICS_TOKEN', 'hush-metrics'],
  ] as const) {
    const message = configError({ [name]: value });
    assert.match(message, new RegExp(`${name}: must be at least 16 characters`));
    assert.not.ok(message.includes(value), message);
  }
});

Secrets('a password in REDIS_URL or a token in DATABASE_URL is not shown', () => {
  const redis = configError({
    REDIS_URL: 'redis://:hunter2-redis-pass@cache.internal:6379/0 trailing',
    CAPTCHA_HMAC_KEY: 'k'.repeat(16),
  });
  assert.match(redis, /REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/);
  assert.not.ok(redis.includes('hunter2-redis-pass'), redis);
  assert.match(redis, /redis:\/\/\*\*\*@cache\.internal/);
  const database = configError({ DATABASE_URL: 'mysql://db.example/x?authToken=hush-db-token' });
  assert.match(database, /DATABASE_URL:/);
  assert.not.ok(database.includes('hush-db-token'), database);
});

Secrets('the error is one line', () => {
  const message = configError({ PORT: 'harbour', SEED_DEMO: 'maybe\nrm -rf' });
  assert.is(message.split('\n').length, 1, message);
  assert.match(message, /PORT: .*\(got "harbour"\); SEED_DEMO: .*\(got "maybe\\nrm -rf"\)$/);
});

Secrets('CORS_ORIGINS entries need a scheme (and no path)', () => {
  assert.match(
    configError({ CORS_ORIGINS: 'https://a.example,b.example' }),
    /CORS_ORIGINS: "b\.example" is not an origin \(it has no scheme: write https:\/\/b\.example\)/,
  );
  assert.match(
    configError({ CORS_ORIGINS: 'https://a.example/' }),
    /CORS_ORIGINS: "https:\/\/a\.example\/" is not an origin/,
  );
  assert.is(
    loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).CORS_ORIGINS,
    'https://a.example, http://localhost:5173',
  );
  assert.is(loadConfig({ CORS_ORIGINS: '*' }).CORS_ORIGINS, '*');
});

Secrets.run();
