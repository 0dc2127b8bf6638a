// The single executable (issue 32: scripts/build-binary.ts, server/binary/, docs/binary.md), built once and run as
// a self-hoster runs it: from an empty directory, with `env -i`, a PATH holding no node, npm, python3, make or cc,
// and a fresh HOME. Here: the file, its command line and --config, serving (on a local file and on an embedded
// replica), a second start; its private cache is binary-cache.test.ts's. Left out under TEST_DATABASE=sqld (it
// serves a local file); on CI's libSQL pass it runs with DATABASE_DRIVER=libsql, so each native SQLite library
// serves from inside it on one pass.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { HULK, SAMPLE_DIR } from '../support/community-sample';
import { rest, trpcClient } from '../support/http-clients';
import { startSqld } from '../support/sqld';
import { startBinary, type TBuiltBinary } from '../support/binary';
import { binarySuite, mode, oneLine, place, sha256, type TRun } from './binary-fixtures';

const VERSION = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')).version;
const NAME = 'single executable: built, then run as a self-hoster runs it';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function tests(Binary: Test, binary: TBuiltBinary, run: TRun): void {
  Binary('one file under 150 MB, with a SHA-256 file that sha256sum -c reads', () => {
    assert.ok(binary.bytes < 150 * 1024 * 1024, `${(binary.bytes / 1024 / 1024).toFixed(1)} MB`);
    assert.is(sha256(binary.file), binary.sha256);
    assert.is(readFileSync(`${binary.file}.sha256`, 'utf8'), `${binary.sha256}  ${basename(binary.file)}\n`);
  });

  Binary('--version, --help, and a mistaken option', async () => {
    const { cwd, env } = place();
    const version = await run(['--version'], { cwd, env });
    assert.is(version.status, 0, version.stderr);
    assert.match(
      version.stdout.trim(),
      new RegExp(
        `^tidewatch ${VERSION.replace(/\./g, '\\.')} \\(commit ([0-9a-f]{12}(-dirty)?|unknown), Node\\.js 26\\.\\d+\\.\\d+, linux-${process.arch}\\)$`,
      ),
    );
    const help = await run(['--help'], { cwd, env });
    assert.is(help.status, 0);
    assert.match(help.stdout, /^Usage: tidewatch \[--config <file>\]/);
    const wrong = await run(['--port', '80'], { cwd, env });
    assert.is(wrong.status, 2);
    assert.match(wrong.stderr, /^tidewatch: unknown option --port\nUsage: /);
  });

  Binary(
    'from an empty directory: a catalog import, then it serves (health, sign-up, publish, list, an iCalendar feed, the docs page and its assets, a captcha picture) on both surfaces; backup and restore; SIGTERM',
    async () => {
      const { cwd, env } = place({ PORT: '0', LOG_LEVEL: 'info' });
      for (const tool of ['node', 'npm', 'python3', 'make', 'cc'])
        assert.not.ok(existsSync(join(env.PATH!, tool)), `${tool} is not on PATH`);
      const imported = await run(['import-catalog', join(SAMPLE_DIR, 'ships.json'), join(SAMPLE_DIR, 'items.json')], {
        cwd,
        env,
      });
      assert.is(imported.status, 0, imported.stderr);
      assert.match(imported.stdout, /^hulls: \d+ \(\d+ new/m);

      const server = await startBinary(binary.file, [], { cwd, env });
      try {
        assert.ok(existsSync(join(cwd, 'tidewatch.db')), 'the database is ./tidewatch.db');
        const client = trpcClient(server.url);
        assert.is((await rest(server.url, 'GET', '/api/health')).body.data.database, 'ok');
        assert.is((await client.health.get.query()).database, 'ok');
        const signup = await rest(server.url, 'POST', '/api/user/signup', {
          body: { username: 'first_mate', email: 'first@example.test', password: 'correct horse battery' },
        });
        assert.is(signup.status, 200, signup.text);
        const token = signup.body.data.token as string;
        const published = await trpcClient(server.url, token).assembly.publish.mutate({
          ...HULK,
          name: 'Binary brawler',
        });
        const listed = await rest(server.url, 'GET', '/api/assembly/list');
        assert.ok(listed.body.data.data.some((item: { uuid: string }) => item.uuid === published.uuid));
        assert.ok((await client.assembly.list.query({})).data.some((item) => item.uuid === published.uuid));

        // The demo's seasons and their events come from the community data set, read from the executable's assets.
        const feed = await fetch(`${server.url}/api/calendar/events.ics?season=shatteredSeas`);
        assert.is(feed.headers.get('content-type'), 'text/calendar; charset=utf-8');
        const ics = await feed.text();
        assert.match(ics, /^BEGIN:VCALENDAR\r\n/);
        assert.match(ics, /^UID:gloryAdorned@y3s2\.tidewatch\r$/m);
        assert.is(await client.calendar.eventsFeed.query({ season: 'shatteredSeas' }), ics);
        assert.is(
          (await rest(server.url, 'GET', '/api/likes/count?targetType=cosmetic&targetId=crownedPrince')).status,
          200,
        );

        assert.match(await (await fetch(`${server.url}/api/docs`)).text(), /swagger-ui-bundle\.js/);
        const swagger = join(import.meta.dirname, '..', '..', 'node_modules', 'swagger-ui-dist');
        for (const asset of [
          'swagger-ui.css',
          'swagger-ui-bundle.js',
          'swagger-ui-standalone-preset.js',
          'favicon-32x32.png',
        ]) {
          const answer = await fetch(`${server.url}/api/docs/${asset}`);
          assert.is(answer.status, 200, asset);
          assert.ok(Buffer.from(await answer.arrayBuffer()).equals(readFileSync(join(swagger, asset))), asset);
        }
        const captcha = await rest(server.url, 'GET', '/api/captcha');
        assert.match(captcha.body.data.content, /^<svg[^>]*>.*<path[^>]* d="M/, 'svg-captcha drew with its font');

        const cache = join(cwd, '.tidewatch-cache');
        const [build] = readdirSync(cache);
        assert.is(mode(join(cache, build!)), 0o700, 'the cache directory is private');
        assert.is(mode(join(cache, build!, 'native', 'better_sqlite3.node')), 0o600, 'and so are its files');

        const backup = await run(['backup', 'backups/copy.db'], { cwd, env });
        assert.is(backup.status, 0, backup.stderr);
        const refused = await run(['restore', 'backups/copy.db'], { cwd, env });
        assert.is(refused.status, 1, 'no restore under a running server');
        assert.match(refused.stderr, /a running Tidewatch server \(or another command\) has .*tidewatch\.db open/);

        server.child.kill('SIGTERM');
        assert.is(await server.exited, 0);
        assert.match(server.output(), /"msg":"stopped"/);
      } finally {
        server.child.kill('SIGKILL');
      }
      const admin = await run(
        ['create-admin', 'purser', '--email', 'purser@example.test', '--password', 'long password'],
        {
          cwd,
          env,
        },
      );
      assert.is(admin.status, 0, admin.stderr);
      const restored = await run(['restore', 'backups/copy.db'], { cwd, env });
      assert.is(restored.status, 0, restored.stderr);
      assert.match(restored.stdout, /^restored .*tidewatch\.db from .*copy\.db/m);
      const gone = await run(['create-admin', 'purser'], { cwd, env });
      assert.is(gone.status, 2, 'the account made after the backup is gone');
      assert.is((await run(['create-admin', 'first_mate'], { cwd, env })).status, 0, 'the one in the backup is back');
      // The community data set the executable carries, imported without a folder: the demo seed wrote its codex already.
      const community = await run(['import-community-data'], { cwd, env });
      assert.is(community.status, 0, community.stderr);
      assert.match(community.stdout, /^codex cosmetic: 3856 read, 0 added, 0 changed, 3856 unchanged, 0 skipped$/m);
      assert.match(community.stdout, /^catalog: 764 read, \d+ added/m);
    },
  );

  Binary(
    'on an embedded replica of a libSQL server: its sync thread starts from the cache, and reads come from the copy',
    async () => {
      const primaryDir = mkdtempSync(join(tmpdir(), 'tidewatch-binary-primary-'));
      const sqld = await startSqld(join(primaryDir, 'sqld'));
      const { cwd, env } = place({
        PORT: '0',
        LOG_LEVEL: 'info',
        DATABASE_DRIVER: 'libsql',
        DATABASE_URL: 'file:replica.db',
        DATABASE_SYNC_URL: sqld.url,
        DATABASE_SYNC_INTERVAL_S: '0.2',
      });
      const server = await startBinary(binary.file, [], { cwd, env });
      try {
        const signup = await rest(server.url, 'POST', '/api/user/signup', {
          body: { username: 'replica_mate', email: 'replica@example.test', password: 'correct horse battery' },
        });
        assert.is(signup.status, 200, signup.text);
        const [build] = readdirSync(join(cwd, '.tidewatch-cache'));
        assert.is(mode(join(cwd, '.tidewatch-cache', build!, 'code', 'replica-sync-worker.mjs')), 0o600);
        // The sign-up's write reaches the copy within the catch-up gap; then the primary goes away.
        await new Promise((resolve) => setTimeout(resolve, 500));
        await sqld.stop();
        const me = await rest(server.url, 'GET', '/api/user/me', { token: signup.body.data.token });
        assert.is(me.status, 200, `read from the local copy: ${me.text}`);
        assert.is(me.body.data.username, 'replica_mate');
        // The periodic sync fails now: the log says so, and stays one JSON object per line (libSQL's own lines are off).
        const deadline = Date.now() + 30_000;
        while (!server.output().includes('periodic sync of the database replica failed') && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 100));
        assert.match(server.output(), /periodic sync of the database replica failed/);
        for (const line of server
          .output()
          .split('\n')
          .filter((line) => line.trim() !== ''))
          assert.not.throws(() => JSON.parse(line), `not JSON: ${line}`);
      } finally {
        server.child.kill('SIGKILL');
        await sqld.stop();
        rmSync(primaryDir, { recursive: true, force: true });
      }
    },
  );

  Binary('started twice on one database, the second refuses, as npm start does', async () => {
    const { cwd, env } = place({ PORT: String(await freePort()), LOG_LEVEL: 'info' });
    const first = await startBinary(binary.file, [], { cwd, env });
    try {
      const second = await run([], { cwd, env });
      assert.is(second.status, 1);
      assert.match(
        oneLine(second.stderr),
        new RegExp(`^tidewatch failed to start: cannot listen on 127\\.0\\.0\\.1:${env.PORT}: the port is in use`),
      );
      assert.is((await rest(first.url, 'GET', '/api/health')).status, 200, 'the first one still serves');
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  });

  Binary(
    '--config <file>: the variables by the same names, under the environment; a name that is no setting is refused',
    async () => {
      const { cwd, env } = place();
      writeFileSync(join(cwd, 'tidewatch.env'), '# settings\nDATABASE_URL=file:./from-file.db\nLOG_LEVEL="warn"\n');
      assert.is((await run(['--config', 'tidewatch.env', 'migrate'], { cwd, env })).status, 0);
      assert.ok(existsSync(join(cwd, 'from-file.db')));
      const overridden = await run(['--config=tidewatch.env', 'migrate'], {
        cwd,
        env: { ...env, DATABASE_URL: 'file:./from-env.db' },
      });
      assert.is(overridden.status, 0, overridden.stderr);
      assert.ok(existsSync(join(cwd, 'from-env.db')), 'the environment wins');
      writeFileSync(join(cwd, 'typo.env'), 'PROT=8080\n');
      const typo = await run(['--config', 'typo.env'], { cwd, env });
      assert.is(typo.status, 1);
      assert.match(
        oneLine(typo.stderr),
        /^tidewatch failed to start: the config file typo\.env sets PROT, which is not a setting/,
      );
    },
  );
}

const Binary = await binarySuite(NAME, tests);
Binary.run();
