/**
 * Progress of long CLI operations (issue 21, item 6): off a terminal, one line per stage on stderr
 * once it is done, its count and time; the result lines stay on stdout. Run through the real CLI.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { createProgressReporter } from '../../server/cli/progress';
import { TEST_DRIVER } from '../support/helpers';
import { runNode, TSX_ARGS } from '../support/process';

const Progress = suite<{ dir: string; env: Record<string, string> }>('CLI progress: one line per stage off a terminal');

Progress.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-progress-'));
  context.env = {
    DATABASE_URL: `file:${join(context.dir, 'cli.db')}`,
    ...(TEST_DRIVER ? { DATABASE_DRIVER: TEST_DRIVER } : {}),
    NODE_ENV: 'test',
  };
});
Progress.after(({ dir }) => rmSync(dir, { recursive: true, force: true }));

const cli = (env: Record<string, string>, ...args: string[]) =>
  runNode([...TSX_ARGS, 'server/cli.ts', ...args], { env });

Progress('the reporter: a line when a stage reaches its total or the next begins, and a failed one marked', () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  const reporter = createProgressReporter(stream);
  reporter.listener('reading', 1, 3);
  reporter.listener('reading', 2, 3);
  assert.equal(lines, [], 'nothing while a stage runs');
  reporter.listener('writing', 0, 1_500);
  reporter.listener('writing', 1_500, 1_500);
  reporter.listener('pruning', 1, 4);
  reporter.finish(true);
  assert.is(lines.length, 3);
  assert.match(lines[0]!, /^reading: 2\/3 in \d+\.\d s$/);
  assert.match(lines[1]!, /^writing: 1,500\/1,500 in \d+\.\d s$/);
  assert.match(lines[2]!, /^failed: pruning: 1\/4 in \d+\.\d s$/);
});

Progress('imports and a backup through the CLI: progress on stderr, results on stdout', async ({ dir, env }) => {
  const drops = join(dir, 'drops.json');
  writeFileSync(
    drops,
    JSON.stringify([
      { campaignId: 'p-1', name: 'One', startsAt: '2025-11-01T00:00:00Z', endsAt: '2025-11-08T00:00:00Z' },
      { campaignId: 'p-2', name: 'Two', startsAt: '2025-12-01T00:00:00Z', endsAt: '2025-12-08T00:00:00Z' },
    ]),
  );
  const imported = await cli(env, 'import-drops', drops);
  assert.is(imported.status, 0, imported.stderr + imported.stdout);
  assert.is(imported.stdout.trim(), 'drop campaigns: 2 created, 0 updated');
  assert.match(imported.stderr, /^writing drop campaigns: 2\/2 in \d+\.\d s$/m);

  // The calendar belongs to a season: the community seasons first (y1s0 to y3s1, y2s4 among them).
  const seasons = await cli(env, 'import-war', 'test/fixtures/seasons.json');
  assert.is(seasons.status, 0, seasons.stderr);
  const calendar = join(dir, 'calendar.json');
  writeFileSync(
    calendar,
    JSON.stringify({
      season: 'y2s4',
      events: [
        {
          id: 'e1',
          title: 'Event',
          category: 'event',
          startsAt: '2025-11-01T00:00:00Z',
          endsAt: '2025-11-02T00:00:00Z',
        },
      ],
    }),
  );
  const calendared = await cli(env, 'import-calendar', calendar);
  assert.is(calendared.status, 0, calendared.stderr);
  assert.match(calendared.stderr, /^writing season calendars: 1\/1 in \d+\.\d s$/m);

  const backedUp = await cli(env, 'backup', join(dir, 'backups'), '--keep', '7');
  assert.is(backedUp.status, 0, backedUp.stderr);
  assert.match(backedUp.stderr, /^backup: 1\/1 in \d+\.\d s$/m);
  assert.match(backedUp.stdout, /backup of .* written to /);
});

Progress.run();
