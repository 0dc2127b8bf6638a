/**
 * Records the examples of the OpenAPI document (server/openapi-examples.json): starts a server with
 * the demo data in a temporary database, calls every REST operation once as a client would, and
 * keeps what each was sent and the `data` it answered (lists cut to two rows).
 *
 *   node --import tsx scripts/openapi-examples.ts [--out <file>]
 *
 * Run it again when an operation or a schema changes: test/platform/openapi-quality.test.ts checks
 * that every JSON operation has a recorded answer and that each still fits its response schema. The
 * recording runs on a fixed clock with seeded ids (openapi-examples/fixed-clock-and-ids.ts), so it
 * writes the same file every time and a regeneration changes only what really changed
 * (test/platform/openapi-examples.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fixClockAndIds } from './openapi-examples/fixed-clock-and-ids';

const EXAMPLES_FILE = 'server/openapi-examples.json';

const { values } = parseArgs({ options: { out: { type: 'string', default: EXAMPLES_FILE } } });
fixClockAndIds();
try {
  // Loaded once the clock and ids are fixed: the server's modules read them when they load.
  const { recordExamples } = await import('./openapi-examples/record');
  const examples = await recordExamples();
  writeFileSync(values.out, `${JSON.stringify(examples, null, 2)}\n`);
  console.log(`wrote ${values.out}: ${Object.keys(examples).length} operations`);
} catch (error) {
  console.error(String((error as Error).stack ?? error));
  process.exit(1);
}
