/**
 * A real libSQL server (sqld) for the tests: with `TEST_DATABASE=sqld` (and DATABASE_DRIVER=libsql),
 * every test server gets a sqld of its own on loopback, over a fresh directory, instead of a SQLite
 * file. CI runs the whole suite this way as its third pass (.ci/run; scripts/fetch-sqld.sh puts the
 * binary in .tools/sqld/). Suites that need a file on disk (backups, the CLI on the file, crash
 * safety) skip themselves under it, saying why (`skipUnderSqld`).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './process';

/** Whether this test run puts every database on a sqld server. */
export const TEST_SQLD = process.env.TEST_DATABASE === 'sqld';

export interface TSqld {
  url: string;
  /** The server process (tests pause it with SIGSTOP). */
  pid: number;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s). */
  stop: () => Promise<void>;
}

/** The sqld binary: SQLD_BIN, else the one scripts/fetch-sqld.sh unpacked into .tools/sqld/. */
export function sqldBinary(): string {
  const binary = process.env.SQLD_BIN ?? join(ROOT, '.tools', 'sqld', 'sqld');
  if (!existsSync(binary)) throw new Error(`sqld not found at ${binary}: run scripts/fetch-sqld.sh or set SQLD_BIN`);
  return binary;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilHealthy(url: string, exited: () => boolean, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (exited()) throw new Error(`sqld exited before it was ready:\n${output()}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`sqld did not answer on ${url} within 15 s:\n${output()}`);
}

/**
 * Starts sqld over `dbPath` on a free loopback port (or `port`: a restart of a stopped one at its
 * old address); resolves once it answers /health.
 */
export async function startSqld(dbPath: string, options: { port?: number } = {}): Promise<TSqld & { port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(
      sqldBinary(),
      ['--db-path', dbPath, '--http-listen-addr', `127.0.0.1:${port}`, '--no-welcome'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, RUST_LOG: 'error' },
      },
    );
    let output = '';
    let exited = false;
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exit = new Promise<void>((resolve) =>
      child.once('exit', () => {
        exited = true;
        resolve();
      }),
    );
    const stop = async () => {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exit;
      clearTimeout(timer);
    };
    try {
      await waitUntilHealthy(
        url,
        () => exited,
        () => output,
      );
      return { url, port, pid: child.pid!, stop };
    } catch (error) {
      await stop();
      // Another process may have taken the port between the probe and sqld's bind: try another.
      if (attempt >= 3 || options.port !== undefined) throw error;
    }
  }
}

/**
 * For a suite that does not run under TEST_DATABASE=sqld: says so and why, and returns true. Only
 * for suites whose subject is not the database (it is tested on both file drivers) and whose cost
 * is round trips, or that need a file on disk.
 */
export function skippedUnderSqld(suiteName: string, reason: string): boolean {
  if (!TEST_SQLD) return false;
  console.log(`  skipped under TEST_DATABASE=sqld: ${suiteName}: ${reason}`);
  return true;
}
