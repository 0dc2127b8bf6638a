/**
 * Every entry point checks the Node.js version first (server/node-version.ts; issue 31, item 13): on a Node.js
 * older than package.json's "engines" the server, the CLI, the test runner and the built dist/main.js and
 * dist/cli.js print one line saying what to run and exit 1, where Debian's Node 20 ended them with a bare
 * "Segmentation fault". The npm scripts' own commands are run with that Node first on PATH, as in a shell
 * where scripts/fetch-node.sh was not eval'd.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { buildDist } from '../../scripts/build';
import {
  isSupportedNode,
  minimumNodeVersion,
  SUPPORTED_LINES,
  unsupportedNodeMessage,
} from '../../server/node-version';
import { ROOT, runCommand, type TProcessResult } from '../support/process';

/** The machine's own Node.js (Debian's 20 here), when it is one Tidewatch does not support. */
const OLD_NODE = '/usr/bin/node';
const FETCH_NODE_COMMAND = 'eval "$(bash scripts/fetch-node.sh 24 --env)"';
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

const Entries = suite<{ dir: string; oldNodeVersion?: string }>(
  'entry points on an unsupported Node.js: one line, exit 1',
);

Entries.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-entries-'));
  if (!existsSync(OLD_NODE)) return;
  const version = execFileSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).trim();
  if (!isSupportedNode(version)) context.oldNodeVersion = version;
});
Entries.after((context) => {
  rmSync(context.dir, { recursive: true, force: true });
});

Entries(
  'the minimum comes from package.json "engines"; the message names the lines fetch-node.sh fetches and its command',
  () => {
    assert.equal(minimumNodeVersion(), PACKAGE.engines.node.replace('>=', '').split('.').map(Number));
    assert.equal(minimumNodeVersion('>=22.12'), [22, 12]);
    assert.throws(() => minimumNodeVersion('^22 || ^24'), /engines\.node/);
    assert.equal(
      [
        isSupportedNode('20.20.2'),
        isSupportedNode('22.11.0'),
        isSupportedNode('v22.12.0'),
        isSupportedNode('23.0.0'),
        isSupportedNode('24.21.0'),
        isSupportedNode('26.10.0'),
      ],
      [false, false, true, true, true, true],
    );
    const fetched = [
      ...readFileSync(join(ROOT, 'scripts/fetch-node.sh'), 'utf8').matchAll(/^\s*(\d+)\) version=/gm),
    ].map((match) => Number(match[1]));
    assert.equal(SUPPORTED_LINES, fetched);
    const message = unsupportedNodeMessage('20.20.2', '/usr/bin/node');
    assert.not.match(message, /\n/);
    assert.ok(message.includes(FETCH_NODE_COMMAND), message);
    assert.match(
      message,
      /Node\.js 22\.12 or later \(an LTS line: 22, 24 or 26\), but this is Node\.js 20\.20\.2 at \/usr\/bin\/node/,
    );
  },
);

/** Each entry refused to run: status 1 (not a crash: null), one line on stderr naming the command, nothing on stdout. */
function assertRefused(results: [string, TProcessResult][], version: string): void {
  // All statuses at once: a failure names every entry that lacks the check.
  assert.equal(
    results.map(([entry, result]) => `${entry}: ${result.status}`),
    results.map(([entry]) => `${entry}: 1`),
  );
  for (const [entry, result] of results) {
    const detail = `${entry}:\n${result.stdout}${result.stderr}`;
    assert.is(result.stdout, '', detail);
    const lines = result.stderr.trim().split('\n');
    assert.is(lines.length, 1, detail);
    assert.ok(lines[0]!.includes(FETCH_NODE_COMMAND), detail);
    assert.ok(lines[0]!.includes(`this is Node.js ${version.replace(/^v/, '')}`), detail);
  }
}

Entries(
  'npm start, npm run cli and npm test, with an unsupported node first on PATH',
  async ({ dir, oldNodeVersion }) => {
    if (oldNodeVersion === undefined) {
      console.log(
        `  skipped: ${OLD_NODE} is not an unsupported Node.js here (absent, or ${minimumNodeVersion().join('.')} or later)`,
      );
      return;
    }
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    symlinkSync(OLD_NODE, join(bin, 'node'));
    const env = {
      PATH: `${bin}${delimiter}${process.env.PATH}`,
      PORT: '0',
      DATABASE_URL: `file:${join(dir, 'scripts.db')}`,
    };
    const runs: [string, string][] = [
      ['npm start', PACKAGE.scripts.start],
      ['npm run cli -- migrate', `${PACKAGE.scripts.cli} migrate`],
      ['npm test -- platform/db', `${PACKAGE.scripts.test} platform/db`],
    ];
    const results: [string, TProcessResult][] = [];
    for (const [entry, command] of runs)
      results.push([entry, await runCommand('sh', ['-c', command], { env, timeoutMs: 30_000 })]);
    assertRefused(results, oldNodeVersion);
  },
);

const STATIC_IMPORT = /^import\s+(?:[^'"]*?\s+from\s+)?["']([^"']+)["']/gm;
const NATIVE_MODULES = ['better-sqlite3', '@libsql/client', '@node-rs/argon2'];

/** What a file of the bundle loads before its own code runs: the files it imports statically (it included), and the packages. */
function staticallyLoaded(
  dist: string,
  file: string,
  loaded = { files: new Set<string>(), packages: new Set<string>() },
) {
  if (loaded.files.has(file)) return loaded;
  loaded.files.add(file);
  for (const [, specifier] of readFileSync(join(dist, file), 'utf8').matchAll(STATIC_IMPORT)) {
    if (specifier!.startsWith('./')) staticallyLoaded(dist, specifier!.slice(2), loaded);
    else loaded.packages.add(specifier!);
  }
  return loaded;
}
Entries(
  'node dist/main.js and node dist/cli.js (the production build): no native module loads before the check',
  async ({ dir, oldNodeVersion }) => {
    const dist = join(dir, 'dist');
    await buildDist(dist);
    for (const entry of ['main.js', 'cli.js']) {
      const { files, packages } = staticallyLoaded(dist, entry);
      assert.ok(
        [...files].some((file) => readFileSync(join(dist, file), 'utf8').includes(FETCH_NODE_COMMAND)),
        `${entry} holds the check`,
      );
      assert.equal(
        [...packages].filter((name) => NATIVE_MODULES.includes(name)),
        [],
        `${entry} imports them only after the check`,
      );
    }
    if (oldNodeVersion === undefined) {
      console.log(
        `  not run on an unsupported Node.js: ${OLD_NODE} is not one here (absent, or ${minimumNodeVersion().join('.')} or later)`,
      );
      return;
    }
    const env = { PORT: '0', DATABASE_URL: `file:${join(dir, 'dist.db')}` };
    const results: [string, TProcessResult][] = [];
    for (const args of [['main.js'], ['cli.js', 'migrate']])
      results.push([
        `node dist/${args.join(' ')}`,
        await runCommand(OLD_NODE, args, { cwd: dist, env, timeoutMs: 30_000 }),
      ]);
    assertRefused(results, oldNodeVersion);
  },
);

Entries.run();
