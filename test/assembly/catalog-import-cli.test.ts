// The assembly CLI commands: import-catalog (the community sample's two files, bad and missing files)
// and purge-trash, against a database file of their own.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { importCatalogCommand, purgeTrashCommand } from '../../server/cli/assembly-commands';
import { runCommand, UsageError } from '../../server/cli/command';
import { SAMPLE_DIR } from '../support/community-sample';
import { suite } from '../support/suite';

/** Runs an assembly CLI command against a given database; returns what it printed, or the error it threw. */
async function cli(
  databaseUrl: string,
  name: 'import-catalog' | 'purge-trash',
  args: string[],
): Promise<string[] | Error> {
  const command = name === 'import-catalog' ? importCatalogCommand : purgeTrashCommand;
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = databaseUrl;
  const lines: string[] = [];
  try {
    await runCommand(command, args, (line) => lines.push(line));
    return lines;
  } catch (error) {
    return error as Error;
  } finally {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
}

function lines(result: string[] | Error): string[] {
  if (result instanceof Error) throw result;
  return result;
}

const Cli = suite('catalog import: the assembly CLI commands');

Cli('CLI import-catalog and purge-trash', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-cli-'));
  try {
    const database = `file:${join(dir, 'cli.db')}`;
    const files = [join(SAMPLE_DIR, 'ships.json'), join(SAMPLE_DIR, 'items.json')];
    const first = lines(await cli(database, 'import-catalog', files));
    assert.ok(first.includes('hulls: 3 (3 new, 0 updated)'), first.join('\n'));
    assert.ok(first.includes('items: 14 (14 new, 0 updated)'));
    assert.ok(first.some((line) => line.includes('other types kept: 1')));
    assert.ok(lines(await cli(database, 'import-catalog', files)).includes('hulls: 3 (0 new, 3 updated)'));
    writeFileSync(join(dir, 'bad.json'), '{ nope');
    const bad = await cli(database, 'import-catalog', [join(dir, 'bad.json'), files[1]!]);
    assert.instance(bad, UsageError);
    assert.match((bad as Error).message, /not valid JSON/);
    const missing = await cli(database, 'import-catalog', [files[0]!]);
    assert.instance(missing, UsageError);
    assert.match((missing as Error).message, /exactly two files/);
    assert.equal(await cli(database, 'purge-trash', []), ['purged 0 assemblies from the trash']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Cli.run();
