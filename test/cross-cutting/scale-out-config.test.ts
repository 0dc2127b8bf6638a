// Scale-out (issue 20): its configuration (the database driver, REDIS_URL, the shared CAPTCHA_HMAC_KEY) and what a bad one stops.
// The two service processes: scale-out.test.ts; the Redis stores: scale-out-stores.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { driverFor, openDatabase } from '../../db/client';
import { configWith, ConfigError, loadConfig } from '../../server/config';
import { startServer } from '../../server/server';
import { silentLogger } from '../support/helpers';
import { freePort } from '../support/redis';

const Config = suite('scale-out configuration');

Config('the driver follows the URL unless DATABASE_DRIVER says otherwise', () => {
  assert.is(driverFor('file:./data/x.db'), 'better-sqlite3');
  assert.is(driverFor('file:./data/x.db', 'libsql'), 'libsql');
  for (const url of ['libsql://tidewatch-org.turso.io', 'https://db.example.test', 'ws://127.0.0.1:8080']) {
    assert.is(driverFor(url), 'libsql', url);
    assert.is(loadConfig({ DATABASE_URL: url }).DATABASE_URL, url);
  }
  const config = loadConfig({
    DATABASE_DRIVER: 'libsql',
    DATABASE_AUTH_TOKEN: 'token',
    REDIS_URL: 'rediss://:secret@cache.example.test:6380/1',
    CAPTCHA_HMAC_KEY: 'the key every instance shares',
  });
  assert.is(config.DATABASE_DRIVER, 'libsql');
  assert.is(config.REDIS_URL, 'rediss://:secret@cache.example.test:6380/1');
  assert.is(loadConfig({}).REDIS_URL, undefined, 'no Redis unless configured');
});

Config('bad scale-out settings stop the start naming the variable', () => {
  for (const [env, name] of [
    [{ DATABASE_URL: 'http://db.example.test', DATABASE_DRIVER: 'better-sqlite3' }, 'DATABASE_DRIVER'],
    [{ DATABASE_DRIVER: 'postgres' }, 'DATABASE_DRIVER'],
    [{ DATABASE_URL: 'mysql://db' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://127.0.0.1:6379' }, 'CAPTCHA_HMAC_KEY'],
  ] as const) {
    try {
      loadConfig(env);
      assert.unreachable(`${JSON.stringify(env)} accepted`);
    } catch (error) {
      assert.instance(error, ConfigError);
      assert.match((error as Error).message, new RegExp(`${name}:`));
    }
  }
});

Config("a libSQL server is opened without a network call; backup says it is the server's job", async () => {
  const database = openDatabase('http://127.0.0.1:9/tidewatch', { authToken: 'not-sent' });
  try {
    assert.is(database.driver, 'libsql');
    assert.is(database.remote, true);
    assert.is(database.file, 'http://127.0.0.1:9/tidewatch');
    try {
      await database.backup(join(tmpdir(), 'never-written.db'));
      assert.unreachable('backup of a remote database');
    } catch (error) {
      assert.match((error as Error).message, /backed up by the server itself/);
    }
  } finally {
    database.close();
  }
});

Config('an unreachable REDIS_URL stops the start with the URL, password hidden', async () => {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-noredis-'));
  try {
    await startServer(
      configWith({
        PORT: 0,
        DATABASE_URL: `file:${join(dir, 'x.db')}`,
        SEED_DEMO: false,
        REDIS_URL: `redis://:hunter2@127.0.0.1:${port}`,
      }),
      { logger: silentLogger() },
    );
    assert.unreachable('started without Redis');
  } catch (error) {
    const message = (error as Error).message;
    assert.match(message, new RegExp(`cannot connect to REDIS_URL redis://\\*\\*\\*@127\\.0\\.0\\.1:${port}`));
    assert.not.match(message, /hunter2/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Config.run();
