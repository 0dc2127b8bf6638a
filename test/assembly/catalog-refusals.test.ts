// Catalog imports that are refused whole (issue 31 item 15): an entry that is not a usable hull or item, and the two
// files given the wrong way round, on both surfaces and the CLI; nothing is written.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { catalogHulls, catalogItems } from '../../db/schema';
import { importCatalogCommand } from '../../server/cli/assembly-commands';
import { runCommand } from '../../server/cli/command';
import { AppError } from '../../server/errors';
import { startTestServer, TEST_DRIVER, type TTestServer } from '../support/helpers';
import { COMMUNITY_SAMPLE, importCommunitySample, SAMPLE_DIR } from '../support/community-sample';
import { trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { runNode, TSX_ARGS } from '../support/process';
import type { TUser } from './fixtures';

const sample = COMMUNITY_SAMPLE;

const Refusals = suite<{ app: TTestServer; admin: TUser }>('catalog imports refused whole');

Refusals.before(async (context) => {
  context.app = await startTestServer();
  context.admin = await signUpAdmin(context.app);
  await importCommunitySample(context.app, context.admin);
});
Refusals.after(async ({ app }) => app.stop());

/** Hulls and items in the catalog, to show that a refused import wrote nothing. */
async function catalogRows(app: TTestServer): Promise<string> {
  const hulls = await app.database.db.select().from(catalogHulls).orderBy(catalogHulls.id).all();
  const items = await app.database.db.select().from(catalogItems).orderBy(catalogItems.id).all();
  return JSON.stringify([hulls, items]);
}

Refusals(
  'one bad entry among good ones refuses the whole import, each problem listed by file and entry, on both surfaces',
  async ({ app, admin }) => {
    const before = await catalogRows(app);
    const ships: Record<string, any> = {
      ...structuredClone(sample.ships),
      bare: {},
      broken: 'not an object',
      flat: { size: 'medium', slots: { furniture: 'x' } },
    };
    ships.hulk.hitpoints = 1;
    const items = {
      ...structuredClone(sample.items),
      typeless: { weight: 4 },
      'bad\nid': { type: 'culverin' },
      stray: { ...sample.ships.bedar },
    };
    const expected = [
      {
        path: 'ships.json "bare"',
        message:
          'size: must be extraSmall, small, medium or large; slots: must be an object of slot kinds, each [count, gun ports]',
      },
      { path: 'ships.json "broken"', message: 'entry is not an object' },
      { path: 'ships.json "flat"', message: 'slots: none is [count, gun ports]' },
      { path: 'items.json "typeless"', message: 'type: is required (a string such as culverin, armor, consumable)' },
      { path: 'items.json "bad\\nid"', message: 'id must be 1-100 characters without control characters' },
      { path: 'items.json "stray"', message: 'type: is "ships": the entry is a hull, not an item' },
    ];
    const response = await app.rest('POST', '/api/admin/catalog/import', {
      token: admin.token,
      body: { ships, items },
    });
    assert.is(response.status, 400, response.text);
    assert.equal(response.body.data.issues, expected);
    assert.match(
      response.body.message,
      /^Invalid data \(6 problems\):\n {2}ships\.json "bare": size: must be extraSmall/,
    );
    const viaTrpc = await trpcError(app.trpc(admin.token).admin.catalog.import.mutate({ ships, items }));
    assert.is(viaTrpc.status, 400);
    assert.is(viaTrpc.message, response.body.message);
    assert.equal(viaTrpc.data.issues, expected);
    assert.is(await catalogRows(app), before, "nothing written: not the good entries, not the hulk's new hitpoints");
  },
);

Refusals(
  'imported texts follow the one text rule: control characters in a perk, a type, an archetype or a blueprint refuse the import (issue 31, item 8); so does opaque JSON nested too deep (item 1)',
  async ({ app, admin }) => {
    const before = await catalogRows(app);
    const ships: Record<string, any> = structuredClone(sample.ships);
    ships.hulk.perks = ['fine', 'bell\u0007'];
    ships.hulk.archetype = 'tank\u001b[31m';
    const items: Record<string, any> = structuredClone(sample.items);
    items.culverin1.type = 'culverin\u0000';
    items.culverin1.blueprint = [['ok', 'nul\u0000']];
    items.ballista1 = { ...items.ballista1, notes: JSON.parse('['.repeat(40) + ']'.repeat(40)) };
    const response = await app.rest('POST', '/api/admin/catalog/import', {
      token: admin.token,
      body: { ships, items },
    });
    assert.is(response.status, 400, response.text);
    assert.equal(
      response.body.data.issues.map((issue: { path: string; message: string }) => `${issue.path}: ${issue.message}`),
      [
        'ships.json "hulk": archetype: must be one line without control characters; perks.1: must be one line without control characters',
        'items.json "culverin1": type: must be one line without control characters; blueprint: must be one line without control characters',
        'items.json "ballista1": must be JSON nested at most 32 levels deep',
      ],
    );
    assert.is((await trpcError(app.trpc(admin.token).admin.catalog.import.mutate({ ships, items }))).status, 400);
    assert.is(await catalogRows(app), before);
  },
);

Refusals('swapped files are refused whole, each file named, on both surfaces', async ({ app, admin }) => {
  const before = await catalogRows(app);
  const swapped = { ships: sample.items, items: sample.ships };
  const response = await app.rest('POST', '/api/admin/catalog/import', { token: admin.token, body: swapped });
  assert.is(response.status, 400, response.text);
  assert.equal(
    response.body.data.issues.map((issue: { path: string }) => issue.path),
    ['ships.json', 'items.json'],
  );
  assert.match(
    response.body.message,
    /\n {2}ships\.json: holds items, not hulls: each of its 14 entries reads as one of the items, none as one of the hulls \("\w+": size: must be extraSmall, small, medium or large; slots: [^)]+\); are the two files swapped\?/,
  );
  assert.match(
    response.body.message,
    /\n {2}items\.json: holds hulls, not items: each of its 3 entries .*\("bedar": type: is "ships": the entry is a hull, not an item\); are the two files swapped\?/,
  );
  const viaTrpc = await trpcError(app.trpc(admin.token).admin.catalog.import.mutate(swapped));
  assert.is(viaTrpc.status, 400);
  assert.is(viaTrpc.message, response.body.message);
  assert.is(await catalogRows(app), before);
  // No item became a hull that an assembly could name as its shipId.
  assert.is(
    (await app.database.db.select().from(catalogHulls).where(eq(catalogHulls.id, 'demicannon1')).all()).length,
    0,
  );
});

Refusals('CLI: swapped files are refused naming each path, exit code 1, nothing written', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-cli-'));
  const previous = process.env.DATABASE_URL;
  const database = `file:${join(dir, 'cli.db')}`;
  const [ships, items] = [join(SAMPLE_DIR, 'ships.json'), join(SAMPLE_DIR, 'items.json')];
  try {
    process.env.DATABASE_URL = database;
    let refused: unknown;
    await runCommand(importCatalogCommand, [items, ships], () => {}).catch((error: unknown) => (refused = error));
    assert.instance(refused, AppError);
    assert.ok(
      (refused as Error).message.includes(`\n  ${items}: holds items, not hulls: `),
      (refused as Error).message,
    );
    assert.ok((refused as Error).message.includes(`\n  ${ships}: holds hulls, not items: `));

    const run = await runNode([...TSX_ARGS, 'server/cli.ts', 'import-catalog', items, ships], {
      env: { DATABASE_URL: database, ...(TEST_DRIVER ? { DATABASE_DRIVER: TEST_DRIVER } : {}) },
    });
    assert.is(run.status, 1, run.stderr);
    assert.ok(
      run.stderr.startsWith(`import-catalog: Invalid data (2 problems):\n  ${items}: holds items, not hulls`),
      run.stderr,
    );
    assert.match(run.stderr, /are the two files swapped\?/);
    assert.is(run.stdout, '');

    const printed: string[] = [];
    await runCommand(importCatalogCommand, [ships, items], (line) => printed.push(line));
    assert.ok(printed.includes('hulls: 3 (3 new, 0 updated)'), `the refused runs wrote nothing: ${printed.join('\n')}`);
  } finally {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
    rmSync(dir, { recursive: true, force: true });
  }
});

Refusals.run();
