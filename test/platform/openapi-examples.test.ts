/**
 * scripts/openapi-examples.ts records on a fixed clock with seeded ids: recording again writes the
 * committed server/openapi-examples.json byte for byte, so a regeneration shows only what really
 * changed (issue 33). It also keeps the file current: an answer that changed is a failure here until
 * the examples are recorded again.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { ROOT, runNode, TSX_ARGS } from '../support/process';
import { suite } from '../support/suite';

const Examples = suite('recorded OpenAPI examples (scripts/openapi-examples.ts)');

Examples('recording again writes the committed examples, byte for byte', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-examples-'));
  try {
    const out = join(dir, 'examples.json');
    // On a local SQLite file whatever the pass, as the committed examples were recorded.
    const result = await runNode([...TSX_ARGS, 'scripts/openapi-examples.ts', '--out', out], {
      env: { DATABASE_DRIVER: '', TEST_DATABASE: '' },
    });
    assert.is(result.status, 0, result.stderr);
    const recorded = readFileSync(out, 'utf8');
    const committed = readFileSync(join(ROOT, 'server/openapi-examples.json'), 'utf8');
    if (recorded !== committed)
      assert.fixture(
        recorded,
        committed,
        'server/openapi-examples.json is not what the recorder writes now: run node --import tsx scripts/openapi-examples.ts and review the diff',
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Examples.run();
