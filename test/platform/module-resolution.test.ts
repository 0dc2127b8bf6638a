/**
 * server/module-resolution.ts: the entry points' shortcuts in Node's module resolution change no
 * module that is loaded, nor its format. Two processes load the router and the CLI's commands, one
 * with the shortcuts and one without, and list every module with its format.
 */
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { runNode, TSX_ARGS } from '../support/process';

const Resolution = suite('module resolution shortcuts (server/module-resolution.ts)');

async function loadedModules(shortcuts: boolean): Promise<string[]> {
  const result = await runNode([...TSX_ARGS, 'test/support/loaded-modules.ts', ...(shortcuts ? ['--shortcuts'] : [])], {
    env: { NODE_ENV: 'test' },
  });
  assert.is(result.status, 0, result.stderr);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as string[];
}

Resolution('the router and the CLI load the same modules, in the same formats, with and without them', async () => {
  const [plain, shortened] = await Promise.all([loadedModules(false), loadedModules(true)]);
  assert.equal(shortened, plain);
  // Not a vacuous comparison: drizzle-orm's ES modules (the first shortcut's) and our own are among them.
  assert.ok(
    plain.filter((entry) => entry.includes('/node_modules/drizzle-orm/') && entry.endsWith(' module')).length > 100,
    'drizzle-orm loaded as ES modules',
  );
  assert.ok(
    plain.some((entry) => entry.includes('/server/domains/assembly/')),
    'our modules',
  );
});

Resolution.run();
