// docs/live.md shows the Discord bot that examples/discord-bot.mjs is (the docs test runs the file): the two must not drift.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { fencedBlocks } from '../support/docs-blocks';
import { ROOT } from '../support/process';

const Docs = suite('docs/live.md: the Discord bot shown is the one that runs');

Docs('the js block of docs/live.md is examples/discord-bot.mjs, line for line', () => {
  const shown = fencedBlocks(ROOT, 'docs/live.md').filter((block) => block.info === 'js');
  assert.is(shown.length, 1);
  assert.is(`${shown[0]!.body}\n`, readFileSync(join(ROOT, 'examples/discord-bot.mjs'), 'utf8'));
});

Docs.run();
