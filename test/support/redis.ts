/** A throw-away redis-server for the suites of several instances (scale-out, replicas). */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { connectSharedState } from '../../server/infra/redis';
import { silentLogger } from './helpers';

export const HAS_REDIS = spawnSync('redis-server', ['--version']).status === 0;
// .ci/run installs Debian's redis-server: in CI a missing one is a failure, not a skip.
if (!HAS_REDIS && process.env.CI) throw new Error('redis-server is required in CI (apt-get install redis-server)');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A throw-away redis-server on a free port, no persistence. */
export async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  await waitFor('redis-server', async () => {
    const probe = await connectSharedState(url, silentLogger()).catch(() => undefined);
    await probe?.close();
    return probe !== undefined;
  });
  return { url, stop: () => stopChild(child) };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
