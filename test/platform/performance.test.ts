import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { concurrencyLimit } from '../../server/infra/concurrency';
import { PASSWORD_HASH_CONCURRENCY } from '../../server/infra/password';
import { NODE_MEMORY_FLAGS } from '../../server/node-flags';

const Limit = suite('concurrency limit (Argon2 checks)');

Limit('never more than N at once, first come first served, a failure frees its slot', async () => {
  const limited = concurrencyLimit(2);
  let inFlight = 0;
  let peak = 0;
  const started: number[] = [];
  const releases: (() => void)[] = [];
  const task = (id: number, fail = false) =>
    limited(async () => {
      started.push(id);
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise<void>((resolve) => releases.push(resolve));
      inFlight--;
      if (fail) throw new Error(`task ${id} failed`);
      return id;
    });
  const results = [task(1, true), task(2), task(3), task(4), task(5)].map((promise) =>
    promise.catch((error: Error) => error.message),
  );
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  await settle();
  assert.equal(started, [1, 2]);
  while (releases.length > 0) {
    releases.shift()!();
    await settle();
  }
  assert.equal(await Promise.all(results), ['task 1 failed', 2, 3, 4, 5]);
  assert.equal(started, [1, 2, 3, 4, 5]);
  assert.is(peak, 2);
  assert.is(PASSWORD_HASH_CONCURRENCY >= 1 && PASSWORD_HASH_CONCURRENCY <= 4, true);
});

Limit.run();

const Flags = suite('heap flags on every production command line');

Flags(
  'package.json start, the Dockerfile and the systemd unit carry NODE_MEMORY_FLAGS, and this Node accepts them',
  () => {
    const root = join(import.meta.dirname, '..', '..');
    const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
      .scripts.start!;
    const dockerCmd = readFileSync(join(root, 'Dockerfile'), 'utf8')
      .split('\n')
      .find((line) => line.startsWith('CMD '))!;
    const execStart = readFileSync(join(root, 'docs', 'operations.md'), 'utf8')
      .split('\n')
      .find((line) => line.startsWith('ExecStart='))!;
    for (const flag of NODE_MEMORY_FLAGS) {
      assert.ok(start.split(' ').includes(flag), `npm start: ${flag}`);
      assert.ok(dockerCmd.includes(`"${flag}"`), `Dockerfile CMD: ${flag}`);
      assert.ok(execStart.split(' ').includes(flag), `systemd ExecStart: ${flag}`);
    }
    const run = spawnSync(process.execPath, [...NODE_MEMORY_FLAGS, '-e', 'process.stdout.write("ok")'], {
      encoding: 'utf8',
    });
    assert.is(run.status, 0);
    assert.is(run.stdout, 'ok');
    assert.is(run.stderr, '', 'no warning about an unknown flag');
  },
);

Flags.run();
