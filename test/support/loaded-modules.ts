/**
 * Prints, as JSON, every module the application's router and the CLI's commands load (URL and format), in order of URL.
 * With --shortcuts, server/module-resolution.ts's shortcuts are registered first, as the entry points
 * do. Run by test/platform/module-resolution.test.ts in two processes, to compare.
 */
import { readdirSync } from 'node:fs';
import nodeModule from 'node:module';

const loaded: string[] = [];
nodeModule.registerHooks({
  load(url, context, nextLoad) {
    if (!url.endsWith('/server/module-resolution.ts')) loaded.push(`${url} ${context.format ?? ''}`);
    return nextLoad(url, context);
  },
});
if (process.argv.includes('--shortcuts'))
  (await import('../../server/module-resolution')).registerResolutionShortcuts();
await import('../../server/router');
// The CLI's commands (cli/main.ts itself would run a command).
for (const file of readdirSync(new URL('../../server/cli/', import.meta.url)))
  if (file !== 'main.ts') await import(`../../server/cli/${file}`);
console.log(JSON.stringify(loaded.sort()));
