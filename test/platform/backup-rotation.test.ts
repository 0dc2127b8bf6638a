/**
 * `backup <directory> --keep <days>` (issue 21, item 5), as the timer in docs/operations.md runs it:
 * each run writes a new tidewatch-<UTC time>.db (twice a day never collides with an existing file),
 * then deletes the rotated copies older than the given days and nothing else in the directory. And
 * the image's build context (.dockerignore) leaves every database and backup out, at any depth.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dockerignore from '@balena/dockerignore';
import Database from 'better-sqlite3';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { TEST_DRIVER } from '../support/helpers';
import { ROOT, runNode, TSX_ARGS } from '../support/process';

const Rotation = suite<{ dir: string; env: Record<string, string> }>('backup --keep: rotated copies, pruned by age');

Rotation.before(async (context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-rotation-'));
  context.env = {
    DATABASE_URL: `file:${join(context.dir, 'data', 'tidewatch.db')}`,
    ...(TEST_DRIVER ? { DATABASE_DRIVER: TEST_DRIVER } : {}),
    SEED_DEMO: 'false',
    NODE_ENV: 'test',
  };
  // The database exists and is migrated before the first backup.
  const migrated = await runNode([...TSX_ARGS, 'server/cli.ts', 'migrate'], { env: context.env });
  assert.is(migrated.status, 0, migrated.stderr);
});
Rotation.after(({ dir }) => rmSync(dir, { recursive: true, force: true }));

const backup = (env: Record<string, string>, ...args: string[]) =>
  runNode([...TSX_ARGS, 'server/cli.ts', 'backup', ...args], { env });
const stampOf = (daysAgo: number) =>
  `tidewatch-${new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 19).replace(/:/g, '-')}Z.db`;

Rotation(
  'two runs in a row write two copies; older rotated copies are pruned, other files stay',
  async ({ dir, env }) => {
    const backups = join(dir, 'backups');
    mkdirSync(backups);
    const [twentyDays, fifteenDays, threeDays] = [stampOf(20), stampOf(15), stampOf(3)];
    for (const old of [twentyDays, fifteenDays]) writeFileSync(join(backups, old), 'old');
    writeFileSync(join(backups, threeDays), 'recent');
    writeFileSync(join(backups, 'manual-copy.db'), 'mine');
    writeFileSync(join(backups, 'notes.txt'), 'mine');

    const first = await backup(env, backups, '--keep', '14');
    assert.is(first.status, 0, first.stderr);
    assert.match(first.stdout, /kept 14 days: 2 older backups deleted/);
    // A second run a second later: a new name, never "exists".
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = await backup(env, backups, '--keep', '14');
    assert.is(second.status, 0, second.stderr);
    assert.match(second.stdout, /kept 14 days: 0 older backups deleted/);

    const names = readdirSync(backups).sort();
    const fresh = names.filter((name) => /^tidewatch-.*Z\.db$/.test(name) && name !== threeDays);
    assert.is(fresh.length, 2, `two new copies: ${names.join(', ')}`);
    assert.ok(names.includes(threeDays), 'a copy inside the window stays');
    assert.ok(names.includes('manual-copy.db') && names.includes('notes.txt'), 'files of other names stay');
    assert.not.ok(names.includes(twentyDays) || names.includes(fifteenDays), 'copies older than 14 days are gone');
    // Each new copy is a whole database.
    for (const name of fresh) {
      const copy = new Database(join(backups, name), { readonly: true });
      try {
        assert.is((copy.pragma('integrity_check') as { integrity_check: string }[])[0]!.integrity_check, 'ok');
        assert.ok(
          (copy.prepare("select count(*) as n from sqlite_master where name = 'assemblies'").get() as { n: number })
            .n === 1,
        );
      } finally {
        copy.close();
      }
    }
  },
);

Rotation(
  'a directory that does not exist is created; bad --keep values and --force with --keep are usage errors (exit 2)',
  async ({ dir, env }) => {
    const created = join(dir, 'new', 'nested');
    const made = await backup(env, created, '--keep', '7');
    assert.is(made.status, 0, made.stderr);
    assert.is(readdirSync(created).length, 1);
    for (const bad of ['0', 'seven', '1.5', '99999']) {
      const refused = await backup(env, created, '--keep', bad);
      assert.is(refused.status, 2, `--keep ${bad}: ${refused.stderr}`);
      assert.match(refused.stderr, /--keep takes a number of days from 1 to 3650/);
    }
    assert.is((await backup(env, created, '--keep=-1')).status, 2, 'a negative number');
    const both = await backup(env, created, '--keep', '7', '--force');
    assert.is(both.status, 2);
    const file = join(dir, 'plain.db');
    writeFileSync(file, 'x');
    const notDirectory = await backup(env, file, '--keep', '7');
    assert.is(notDirectory.status, 2);
    assert.match(notDirectory.stderr, /is not a directory/);
    assert.ok(existsSync(file));
  },
);

Rotation.run();

// ---------- the image's build context ----------

const DockerContext = suite('.dockerignore: no database or backup reaches the image, at any depth');

DockerContext(
  'databases, their WAL and locks, backups and pre-restore copies are left out wherever they are; the sources are sent',
  () => {
    const rules = dockerignore({ ignorecase: false }).add(readFileSync(join(ROOT, '.dockerignore'), 'utf8'));
    for (const path of [
      'tidewatch.db',
      'data/tidewatch.db',
      'srv/state/tidewatch.db-wal',
      'deep/er/x.db-shm',
      'a/b/c.db.lock',
      'backups/tidewatch-2026-11-25T03-00-00Z.db',
      'var/lib/backups/notes.txt',
      'some/where/tidewatch.db.pre-restore-2026-11-25.db',
      'nested/store.sqlite',
      'nested/.env',
      '.tools/sqld/sqld',
    ]) {
      assert.ok(rules.ignores(path), `${path} is left out`);
    }
    for (const path of [
      'package.json',
      'package-lock.json',
      'server/main.ts',
      'db/migrations/0016_issue19_comments_profiles_points_forks.sql',
      'scripts/build.ts',
    ]) {
      assert.not.ok(rules.ignores(path), `${path} is sent`);
    }
  },
);

DockerContext.run();
