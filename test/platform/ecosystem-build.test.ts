import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { buildDist } from '../../scripts/build';
import { rest } from '../support/http-clients';
import { ROOT, runNode, startServerProcess, type TServerProcess } from '../support/process';

const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

function run(args: string[], cwd: string, env: Record<string, string>) {
  return runNode(args, { cwd, env, inheritEnv: false, timeoutMs: 60_000 });
}

/** Starts `node main.js` in the build directory and waits for its "listening" line. */
function startBundle(dir: string, env: Record<string, string>): Promise<TServerProcess> {
  return startServerProcess(['main.js'], {
    cwd: dir,
    env: { PORT: '0', ...env },
    inheritEnv: false,
    timeoutMs: 30_000,
  });
}

const Build = suite<{ dir: string; dist: string }>('production build: esbuild bundle + native modules, run with node');

Build.before(async (context) => {
  // Outside the repository, so nothing can be found in the project's node_modules by accident.
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-build-'));
  context.dist = join(context.dir, 'dist');
  await buildDist(context.dist);
});
Build.after((context) => {
  rmSync(context.dir, { recursive: true, force: true });
});

Build('dist holds the bundles, the migrations and only the native and static modules', ({ dist }) => {
  for (const file of [
    'main.js',
    'cli.js',
    'package.json',
    'migrations/meta/_journal.json',
    'node_modules/better-sqlite3/lib/index.js',
    'node_modules/swagger-ui-dist/swagger-ui-bundle.js',
    'community-data/cosmetics.json',
    'community-data/LICENSE',
  ]) {
    assert.ok(existsSync(join(dist, file)), `dist/${file}`);
  }
  const sqliteBinaries = [
    'build/Release/better_sqlite3.node',
    `prebuilds/linux-${process.arch}.node`,
    `prebuilds/${process.platform}-${process.arch}.node`,
  ];
  assert.ok(
    sqliteBinaries.some((file) => existsSync(join(dist, 'node_modules/better-sqlite3', file))),
    "better-sqlite3's binary for this platform",
  );
  assert.not.ok(
    existsSync(join(dist, 'node_modules/better-sqlite3/prebuilds/win32-x64.node')),
    "only this platform's binaries",
  );
  assert.not.ok(existsSync(join(dist, 'node_modules/zod')), 'pure-JS dependencies are bundled, not copied');
  assert.not.ok(existsSync(join(dist, 'node_modules/tsx')));
  assert.is(JSON.parse(readFileSync(join(dist, 'package.json'), 'utf8')).type, 'module');
});

Build(
  'node dist/main.js migrates, serves /api/health, docs, OpenAPI and metrics, and stops on SIGTERM',
  async ({ dir, dist }) => {
    const server = await startBundle(dist, {
      DATABASE_URL: `file:${join(dir, 'data', 'bundle.db')}`,
      SEED_DEMO: 'true',
    });
    try {
      const health = await rest(server.url, 'GET', '/api/health');
      assert.is(health.status, 200);
      assert.equal([health.body.data.status, health.body.data.database], ['ok', 'ok']);
      const root = await rest(server.url, 'GET', '/');
      assert.is(root.body.data.version, VERSION, 'the version travels inside the bundle');
      const signin = await rest(server.url, 'POST', '/api/user/signin', {
        body: { username: 'captain', password: 'tidewatch-demo' },
      });
      assert.is(signin.status, 200, 'argon2 (native) verified the seeded password');
      // The demo's seasons, events and codex come from the community data set beside the bundle (dist/community-data).
      const calendar = await rest(server.url, 'GET', '/api/calendar/data?season=shatteredSeas');
      assert.equal(Object.keys(calendar.body.data.events), ['gloryAdorned', 'theHonorless', 'moonshineLarceny']);
      assert.is((await rest(server.url, 'GET', '/api/likes/count?targetType=ship&targetId=galleon')).status, 200);
      const docs = await fetch(`${server.url}/api/docs/swagger-ui-bundle.js`);
      assert.is(docs.status, 200);
      assert.ok((await docs.arrayBuffer()).byteLength > 500_000);
      const openapi = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { info: { version: string } };
      assert.is(openapi.info.version, VERSION);
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      assert.match(
        metrics,
        /tidewatch_http_requests_total\{method="POST",route="\/api\/user\/signin",status="200"\} 1/,
      );
    } finally {
      server.child.kill('SIGTERM');
    }
    assert.is(await server.exited, 0);
    assert.match(server.output(), /"msg":"stopped"/);
  },
);

Build(
  'the bundled CLI: every command listed by help has --help, rejects unknown options, and migrate works',
  async ({ dir, dist }) => {
    const env = { DATABASE_URL: `file:${join(dir, 'cli.db')}` };
    const help = await run(['cli.js', 'help'], dist, env);
    assert.is(help.status, 0);
    // Run from the build, the usage names the build's command, not the checkout's `npm run cli --`.
    assert.match(help.stdout, /^Usage: node cli\.js <command>/);
    const names = [...help.stdout.matchAll(/^ {2}([a-z][a-z-]+)\b/gm)].map((match) => match[1]!);
    for (const expected of ['migrate', 'seed', 'create-admin', 'backup', 'restore'])
      assert.ok(names.includes(expected), `help lists ${expected}`);
    await Promise.all(
      names.map(async (name) => {
        const commandHelp = await run(['cli.js', name, '--help'], dist, env);
        assert.is(commandHelp.status, 0, `${name} --help: ${commandHelp.stderr}`);
        assert.match(
          commandHelp.stdout,
          new RegExp(`^Usage: node cli\\.js ${name}\\b`),
          `${name} --help prints its usage`,
        );
        assert.ok(commandHelp.stdout.split('\n').length >= 3, `${name} --help describes the command`);
        const bad = await run(['cli.js', name, '--no-such-option'], dist, env);
        assert.is(bad.status, 2, `${name} rejects an unknown option`);
        assert.match(
          bad.stderr,
          new RegExp(`^${name}: .*no-such-option[\\s\\S]*Usage: node cli\\.js ${name}`),
          `${name}: ${bad.stderr}`,
        );
      }),
    );
    const migrate = await run(['cli.js', 'migrate'], dist, env);
    assert.is(migrate.status, 0, migrate.stderr);
    assert.match(migrate.stdout, /migrations applied/);
    // The community data set the build carries (dist/community-data), imported without a folder.
    const community = await run(['cli.js', 'import-community-data'], dist, env);
    assert.is(community.status, 0, community.stderr);
    assert.match(community.stdout, /^codex cosmetic: 3856 read, 3856 added, 0 changed, 0 unchanged, 0 skipped$/m);
    const unknown = await run(['cli.js', 'sail-away'], dist, env);
    assert.is(unknown.status, 2);
    assert.match(unknown.stderr, /Unknown command "sail-away". Run "node cli\.js help"/);
    const none = await run(['cli.js'], dist, env);
    assert.is(none.status, 2, 'no command: the list, and a usage exit code');
    assert.match(none.stdout, /Commands:/);
  },
);

Build(
  'the bundled CLI: backup, then restore brings the copy back and keeps the replaced database',
  async ({ dir, dist }) => {
    const live = join(dir, 'restore', 'live.db');
    const env = { DATABASE_URL: `file:${live}` };
    const cli = (...args: string[]) => run(['cli.js', ...args], dist, env);
    assert.is(
      (await cli('create-admin', 'first_mate', '--email', 'first@example.test', '--password', 'long password')).status,
      0,
    );
    const copy = join(dir, 'restore', 'copy.db');
    assert.is((await cli('backup', copy)).status, 0);
    assert.is(
      (await cli('create-admin', 'second_mate', '--email', 'second@example.test', '--password', 'long password'))
        .status,
      0,
    );

    const missing = await cli('restore', join(dir, 'restore', 'nothing.db'));
    assert.is(missing.status, 2);
    assert.match(missing.stderr, /does not exist/);
    const garbage = join(dir, 'restore', 'garbage.db');
    writeFileSync(garbage, 'this is not a database, just words '.repeat(200));
    const refused = await cli('restore', garbage);
    assert.is(refused.status, 1);
    assert.match(refused.stderr, /is not a SQLite database/);
    const itself = await cli('restore', live);
    assert.is(itself.status, 2);

    // No server holds the database, so no --force (that overrides only the running-server check).
    const restored = await cli('restore', copy);
    assert.is(restored.status, 0, restored.stderr);
    assert.match(
      restored.stdout,
      /^restored .*live\.db from .*copy\.db; the previous database is kept as .*live\.db\.pre-restore-.*\.db$/m,
    );
    const gone = await cli('create-admin', 'second_mate');
    assert.is(gone.status, 2, 'the account made after the backup is gone');
    assert.match(gone.stderr, /no account "second_mate"/);
    assert.is((await cli('create-admin', 'first_mate')).status, 0, 'the account in the backup is back');
    const kept = readdirSync(join(dir, 'restore')).filter((name) => /^live\.db\.pre-restore-.*\.db$/.test(name));
    assert.is(kept.length, 1);
    // The kept database still has the replaced state.
    const keptEnv = { DATABASE_URL: `file:${join(dir, 'restore', kept[0]!)}` };
    assert.is((await run(['cli.js', 'create-admin', 'second_mate'], dist, keptEnv)).status, 0);
  },
);

Build('a bad configuration stops the bundle with a message naming the variable', async ({ dist }) => {
  const result = await run(['main.js'], dist, { PORT: 'harbour' });
  assert.is(result.status, 1);
  assert.match(result.stderr, /PORT: .*\(got "harbour"\)/);
});

Build.run();
