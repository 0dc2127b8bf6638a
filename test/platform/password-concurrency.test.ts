import { availableParallelism } from 'node:os';
import * as assert from 'uvu/assert';
import { argon2Concurrency, PASSWORD_HASH_CONCURRENCY } from '../../server/infra/password';
import { suite } from '../support/suite';

const Sizing = suite('Argon2 concurrency, sized from the machine (issue 38)');

Sizing('as many at once as the cores, one threadpool thread left for file writes and lookups', () => {
  assert.is(argon2Concurrency(2, 4), 2, 'two cores: both hash (one at a time ran 0.55 of the peers’ sign-ins)');
  assert.is(argon2Concurrency(1, 4), 1);
  assert.is(argon2Concurrency(8, 4), 3, "libuv's default pool of 4 bounds it, one thread kept free");
  assert.is(argon2Concurrency(8, 16), 8);
  assert.is(argon2Concurrency(64, 1024), 64);
  assert.is(argon2Concurrency(4, 1), 1, 'never fewer than one');
});

Sizing('the running server uses this machine’s cores and threadpool', () => {
  const threads = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  assert.is(PASSWORD_HASH_CONCURRENCY, Math.max(1, Math.min(availableParallelism(), threads - 1)));
});

Sizing.run();
