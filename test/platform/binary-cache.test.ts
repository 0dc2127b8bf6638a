// The single executable (issue 32: scripts/build-binary.ts, server/binary/, docs/binary.md), continued from
// binary.test.ts: its private cache of native addons, code and migrations. A file in it that is not what was built is
// written again, processes that meet an empty cache together all start, and a cache it cannot write is one line.
// Left out under TEST_DATABASE=sqld (it serves a local file).
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { binarySuite, mode, oneLine, outdir, place, sha256, type TRun } from './binary-fixtures';

const NAME = 'single executable: its private cache';

function tests(Binary: Test, _binary: unknown, run: TRun): void {
  Binary(
    'a file in the cache that is not what was built, or open to others, is written again before it is used',
    async () => {
      const { cwd, env } = place();
      assert.is((await run(['migrate'], { cwd, env })).status, 0);
      const cache = join(cwd, '.tidewatch-cache');
      const build = readdirSync(cache)[0]!;
      const addon = join(cache, build, 'native', 'better_sqlite3.node');
      const journal = join(cache, build, 'migrations', 'meta', '_journal.json');
      const [addonHash, journalHash] = [sha256(addon), sha256(journal)];
      appendFileSync(addon, 'x');
      chmodSync(journal, 0o644);
      const again = await run(['migrate'], { cwd, env });
      assert.is(again.status, 0, again.stderr);
      assert.is(sha256(addon), addonHash);
      assert.equal([mode(addon), mode(journal), sha256(journal)], [0o600, 0o600, journalHash]);
    },
  );

  Binary('processes that meet an empty cache together each write it whole, and all start', async () => {
    const { cwd, env } = place({ XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'tidewatch-shared-cache-')) });
    const runs = await Promise.all(
      [1, 2, 3, 4].map((n) => run(['migrate'], { cwd, env: { ...env, DATABASE_URL: `file:./db${n}.db` } })),
    );
    for (const result of runs) assert.is(result.status, 0, result.stderr);
    const cache = join(env.XDG_CACHE_HOME!, 'tidewatch');
    const native = join(cache, readdirSync(cache)[0]!, 'native');
    assert.equal(readdirSync(native).sort(), [
      `argon2.linux-${process.arch}-gnu.node`,
      'better_sqlite3.node',
      `libsql.linux-${process.arch}-gnu.node`,
    ]);
  });

  Binary('a cache directory it cannot write to: one line that names it and says what to do', async () => {
    const { cwd, env } = place();
    const readOnly = join(cwd, 'read-only');
    mkdirSync(readOnly, { mode: 0o555 });
    // Root writes anywhere: in CI (root) the executable runs as nobody, as a systemd service runs as its own user.
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    for (const dir of [cwd, outdir]) chmodSync(dir, 0o755);
    const failed = await run(['migrate'], { cwd, env: { ...env, XDG_CACHE_HOME: readOnly }, ...asNobody });
    assert.is(failed.status, 1);
    assert.match(
      oneLine(failed.stderr),
      /^tidewatch: cannot create the cache directory .*\/read-only\/tidewatch\/[^ ]+ \(EACCES\): set XDG_CACHE_HOME to a directory/,
    );
  });
}

const Binary = await binarySuite(NAME, tests);
Binary.run();
