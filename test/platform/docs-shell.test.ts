/**
 * The shell blocks of README.md and docs/*.md run as written (issue 21, item 3). For each file with run
 * blocks (```sh or ```bash), a fresh server with the demo data, then the file's run blocks in order in one
 * bash process (`set -euo pipefail`), with TIDEWATCH_URL set to that server and the CLI's DATABASE_URL to
 * its database, from the repository root. And no shell block is left unmarked: run, or ```sh illustrative.
 *
 * The blocks run in a fresh clone of the working tree (freshClone), not in the repository: a new user's
 * state. In the repository a block passed or failed with what other suites or builds had left there:
 * docs/client.md's `openapi:types --out packages/client/src/generated/…` failed when that git-ignored
 * folder did not exist yet, and passed once a later suite (ecosystem-clients) had made it, so a run
 * failed and its reruns passed (issue 33). And what the blocks write stays out of the repository.
 *
 * The database is always a SQLite file, as in the set-up the README describes (the driver is the pass's:
 * better-sqlite3 or libSQL): under TEST_DATABASE=sqld too, since `backup` copies local databases only.
 * The blocks' scratch files (mktemp) go to a directory of the run's own (TMPDIR), removed afterwards, and
 * PAYMENT_MANUAL_SECRET is the key the server signs webhooks with.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { docFiles, failedBlock, fencedBlocks, scriptOf, shellBlockKind } from '../support/docs-blocks';
import { manualSecret } from '../../server/domains/subscription/payment/manual';
import { startTestServer } from '../support/helpers';
import { freshClone } from '../support/fresh-clone';
import { ROOT, runCommand } from '../support/process';

// A file's blocks take 5 to 20 s here (each `npm run cli` starts node with tsx); the machine may be busy.
const BASH_TIMEOUT_MS = 180_000;

const files = docFiles(ROOT);
const Docs = suite('docs: every shell block of README.md and docs/ runs, or is marked illustrative');

Docs(
  'the blocks run in a fresh clone: the tree as git has it, with node_modules, and nothing git ignores',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidewatch-docs-clone-'));
    try {
      const clone = await freshClone(join(dir, 'clone'));
      for (const file of ['package.json', 'README.md', 'scripts/openapi-types.ts', 'node_modules/tsx/package.json'])
        assert.ok(existsSync(join(clone, file)), file);
      // What suites and builds leave in the repository (the client's REST types, its dist/) is not there.
      assert.not.ok(existsSync(join(clone, 'packages/client/src/generated')), 'packages/client/src/generated');
      assert.not.ok(existsSync(join(clone, 'packages/client/dist')), 'packages/client/dist');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

Docs('no shell block is unmarked', () => {
  const unmarked = files
    .flatMap((file) => fencedBlocks(ROOT, file))
    .filter((block) => shellBlockKind(block) === 'unmarked')
    .map((block) => `${block.file}:${block.line} \`\`\`${block.info}`);
  assert.equal(unmarked, [], 'fence these ```sh (run) or ```sh illustrative (only read)');
});

for (const file of files) {
  const runBlocks = fencedBlocks(ROOT, file).filter((block) => shellBlockKind(block) === 'run');
  if (runBlocks.length === 0) continue;
  Docs(`${file}: ${runBlocks.length} run blocks against a fresh demo server`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tidewatch-docs-'));
    const scratch = join(dir, 'tmp');
    mkdirSync(scratch);
    const clone = await freshClone(join(dir, 'clone'));
    const app = await startTestServer({ SEED_DEMO: true, DATABASE_URL: `file:${join(dir, 'tidewatch.db')}` });
    try {
      // A process group of its own, so that a timeout ends the commands the blocks started (npm, node) too.
      const result = await runCommand('bash', ['-c', scriptOf(runBlocks)], {
        cwd: clone,
        env: {
          TIDEWATCH_URL: app.url,
          DATABASE_URL: app.config.DATABASE_URL,
          ...(app.config.DATABASE_DRIVER ? { DATABASE_DRIVER: app.config.DATABASE_DRIVER } : {}),
          PAYMENT_MANUAL_SECRET: manualSecret(app.config),
          TMPDIR: scratch,
        },
        timeoutMs: BASH_TIMEOUT_MS,
        processGroup: true,
      });
      if (result.status !== 0) {
        const failed = failedBlock(result.stderr);
        assert.unreachable(
          `the block at ${failed.where} failed (exit ${result.status}):\n${failed.stderr}\n--- stdout (end) ---\n${result.stdout.slice(-1500)}`,
        );
      }
    } finally {
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

Docs.run();
