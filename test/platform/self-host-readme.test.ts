// The README's self-hoster block (```sh self-host) runs as written (issue 32): in a fresh clone of the tree, with a
// HOME of its own, it builds the single executable, copies it and its checksum to ~/tidewatch, checks the checksum,
// prints the version and serves; the test asks the server for /api/health, then stops it with SIGTERM as a
// service manager would. The other docs blocks run in test/platform/docs-shell.test.ts.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { binaryBuildProblem } from '../support/binary';
import { fencedBlocks, shellBlockKind } from '../support/docs-blocks';
import { freshClone } from '../support/fresh-clone';
import { ROOT } from '../support/process';
import { skippedUnderSqld } from '../support/sqld';
import { suite } from '../support/suite';

const NAME = "README's self-hoster block, run as written with the single executable";
const SelfHost = suite(NAME);

const blocks = fencedBlocks(ROOT, 'README.md').filter((block) => shellBlockKind(block) === 'self-host');

/** A new user's shell: this one's PATH and tools, a HOME of its own, PORT=0 and info logs (to read the address); none of the test run's settings. */
function shellEnvironment(home: string): Record<string, string> {
  const { NODE_ENV: _test, DATABASE_URL: _url, DATABASE_DRIVER: _driver, ...inherited } = process.env;
  return { ...(inherited as Record<string, string>), HOME: home, PORT: '0', LOG_LEVEL: 'info' };
}

SelfHost('the README has one self-hoster block', () => {
  assert.is(blocks.length, 1, 'one ```sh self-host block in README.md');
});

const skipped = skippedUnderSqld(NAME, 'it serves a local file') ? 'TEST_DATABASE=sqld' : binaryBuildProblem();
if (skipped !== undefined) {
  console.log(`  skipped: ${NAME}: ${skipped}`);
  SelfHost.skip('build, copy, check, version, serve', () => {});
} else {
  SelfHost('build, copy, check, version, serve: the executable answers /api/health and stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidewatch-self-host-'));
    const home = join(dir, 'home');
    mkdirSync(home);
    const clone = await freshClone(join(dir, 'clone'), { tools: true });
    // PORT=0: a free port, which the server logs; everything else as the block says.
    const child = spawn('bash', ['-c', `set -euo pipefail\n${blocks[0]!.body}`], {
      cwd: clone,
      env: shellEnvironment(home),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 240_000;
      let url: string | undefined;
      while (url === undefined && Date.now() < deadline && child.exitCode === null) {
        url = /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1];
        if (url === undefined) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      assert.ok(url, `the executable did not serve:\n${output.slice(-3000)}`);
      assert.match(output, /tidewatch-linux-x64: OK/, 'sha256sum -c');
      assert.match(output, /\d+\.\d+\.\d+ \(commit [^,]+, Node\.js 26\./, '--version');
      const health = await fetch(`${url}/api/health`);
      assert.is(health.status, 200);
      assert.ok(existsSync(join(home, 'tidewatch', 'tidewatch.db')), 'the database beside the executable');
      process.kill(-child.pid!, 'SIGTERM');
      assert.is(await exited, 0, output.slice(-2000));
      assert.match(output, /"msg":"stopped"/);
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

SelfHost.run();
