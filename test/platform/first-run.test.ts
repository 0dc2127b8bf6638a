/**
 * What a newcomer meets first, as issue 33 (item 4) found it: the docs address the server logs when it listens
 * on every interface, the CLI's usage lines, and the REST types written into a folder a fresh clone lacks.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { suite } from '../support/suite';
import { ROOT, runNode, TSX_ARGS } from '../support/process';
import { TEST_DRIVER } from '../support/helpers';
import { configWith } from '../../server/config';
import { createLogger } from '../../server/logger';
import { startServer } from '../../server/server';
import { browsableBaseUrls } from '../../server/listen-addresses';
import { cliInvocation } from '../../server/cli/invocation';

const INTERFACES = {
  lo: [
    { address: '127.0.0.1', family: 'IPv4', internal: true },
    { address: '::1', family: 'IPv6', internal: true },
  ],
  eth0: [
    { address: '192.168.1.20', family: 'IPv4', internal: false },
    { address: 'fe80::1c2:3ff:fe4d:5e6f', family: 'IPv6', internal: false },
    { address: '2001:db8::20', family: 'IPv6', internal: false },
  ],
} as unknown as Parameters<typeof browsableBaseUrls>[2];

const DocsAddress = suite('the docs address at start-up: addresses a browser can open');

DocsAddress('0.0.0.0 gives the IPv4 addresses, :: every one but link-local, a named host itself', () => {
  assert.equal(browsableBaseUrls('0.0.0.0', 3000, INTERFACES), ['http://127.0.0.1:3000', 'http://192.168.1.20:3000']);
  assert.equal(browsableBaseUrls('::', 3000, INTERFACES), [
    'http://127.0.0.1:3000',
    'http://[::1]:3000',
    'http://192.168.1.20:3000',
    'http://[2001:db8::20]:3000',
  ]);
  assert.equal(browsableBaseUrls('127.0.0.1', 3000, INTERFACES), ['http://127.0.0.1:3000']);
  assert.equal(browsableBaseUrls('::1', 3000, INTERFACES), ['http://[::1]:3000']);
  assert.equal(browsableBaseUrls('0.0.0.0', 3000, {}), ['http://0.0.0.0:3000'], 'no interface known: the host as is');
});

DocsAddress('HOST=0.0.0.0: the first log line gives the machine addresses, never 0.0.0.0', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-first-run-'));
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
  const config = configWith({
    PORT: 0,
    HOST: '0.0.0.0',
    DATABASE_URL: `file:${join(dir, 'test.db')}`,
    DATABASE_DRIVER: TEST_DRIVER,
    SEED_DEMO: false,
  });
  const running = await startServer(config, { logger });
  try {
    const docsLine = lines
      .map((line) => JSON.parse(line) as { msg: string; docs?: string[] })
      .find((line) => line.docs);
    assert.ok(docsLine, `a docs line among ${lines.join('')}`);
    assert.not.match(docsLine.msg, /0\.0\.0\.0/);
    assert.ok(docsLine.docs!.includes(`http://127.0.0.1:${running.port}/api/docs`), docsLine.msg);
    const answer = await fetch(docsLine.docs![0]!);
    assert.is(answer.status, 200, 'the first address given serves the docs page');
  } finally {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

DocsAddress.run();

const CliUsage = suite("the CLI's usage lines name the way it was run");

CliUsage('a checkout says npm run cli --; the build says node and its path from where the operator stands', () => {
  assert.is(cliInvocation('/srv/tidewatch/server/cli.ts', '/srv/tidewatch'), 'npm run cli --');
  assert.is(cliInvocation('/srv/tidewatch/dist/cli.js', '/srv/tidewatch'), 'node dist/cli.js');
  assert.is(cliInvocation('/app/cli.js', '/app'), 'node cli.js');
  assert.is(cliInvocation('/opt/tidewatch/cli.js', '/root'), 'node /opt/tidewatch/cli.js');
  assert.is(cliInvocation('/usr/local/bin/tidewatch', '/usr/local/bin'), './tidewatch');
});

CliUsage('npm run cli -- help, in a checkout', async () => {
  const help = await runNode([...TSX_ARGS, 'server/cli.ts', 'help'], { cwd: ROOT });
  assert.is(help.status, 0, help.stderr);
  assert.match(help.stdout, /^Usage: npm run cli -- <command>/);
});

CliUsage.run();

const RestTypes = suite('npm run openapi:types --out <a folder that does not exist yet>');

RestTypes('creates the folder, as a fresh clone needs for docs/client.md', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-openapi-types-'));
  try {
    const document = join(dir, 'openapi.json');
    const health = { get: { responses: { '200': { description: 'ok' } } } };
    writeFileSync(
      document,
      JSON.stringify({ openapi: '3.1.0', info: { title: 'one path', version: '1' }, paths: { '/health': health } }),
    );
    const out = join(dir, 'packages/client/src/generated/openapi.d.ts');
    const result = await runNode([...TSX_ARGS, 'scripts/openapi-types.ts', '--from', document, '--out', out]);
    assert.is(result.status, 0, result.stderr);
    assert.ok(existsSync(out), out);
    assert.match(readFileSync(out, 'utf8'), /export interface paths \{\s+"\/health": \{/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

RestTypes.run();
