// The community data set's import (issue 34): `cli import-community-data <dir>` through the real CLI,
// and POST /admin/community-data/import on REST and native tRPC, on the full set the repository carries
// (server/seed/community-data/): every kind, one transaction each, idempotent (a second run changes
// nothing and says so), a summary per kind with its skipped entries and why; a bad entry refuses its
// kind, named by file and entry; progress on stderr, results on stdout.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../db/client';
import { codexEntries, seasons } from '../../db/schema';
import { importCommunityData } from '../../server/domains/codex';
import { readCommunityData } from '../../server/infra/packaged-files';
import { startTestServer, TEST_DRIVER } from '../support/helpers';
import { trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { runNode, TSX_ARGS } from '../support/process';
import { suite } from '../support/suite';

const CARRIED = 'server/seed/community-data';

const Cli = suite<{ dir: string; env: Record<string, string> }>('cli import-community-data <dir>');
Cli.before((context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-community-'));
  context.env = {
    DATABASE_URL: `file:${join(context.dir, 'cli.db')}`,
    ...(TEST_DRIVER ? { DATABASE_DRIVER: TEST_DRIVER } : {}),
    NODE_ENV: 'test',
  };
});
Cli.after(({ dir }) => rmSync(dir, { recursive: true, force: true }));

const cli = (env: Record<string, string>, ...args: string[]) =>
  runNode([...TSX_ARGS, 'server/cli.ts', ...args], { env });

Cli(
  'the carried set: every kind added, with its skipped entries and why; a second run changes nothing and says so',
  async ({ env }) => {
    const first = await cli(env, 'import-community-data', CARRIED);
    assert.is(first.status, 0, first.stderr + first.stdout);
    const lines = first.stdout.trim().split('\n');
    for (const expected of [
      'catalog: 764 read, 764 added, 0 changed, 0 unchanged, 0 skipped',
      'seasons: 10 read, 10 added, 0 changed, 0 unchanged, 0 skipped',
      'zones: 62 read, 62 added, 0 changed, 0 unchanged, 0 skipped',
      'companies: 22 read, 22 added, 0 changed, 0 unchanged, 0 skipped',
      'codex ship: 19 read, 19 added, 0 changed, 0 unchanged, 0 skipped',
      'codex item: 753 read, 753 added, 0 changed, 0 unchanged, 0 skipped',
      'codex cosmetic: 3856 read, 3856 added, 0 changed, 0 unchanged, 0 skipped',
      'codex npc: 33 read, 32 added, 0 changed, 0 unchanged, 1 skipped',
      'events: 12 read, 0 added, 0 changed, 0 unchanged, 12 skipped',
      'contracts: 95 read, 0 added, 0 changed, 0 unchanged, 95 skipped',
      'worldEvents: 79 read, 0 added, 0 changed, 0 unchanged, 79 skipped',
    ])
      assert.ok(lines.includes(expected), `${expected}\n${first.stdout}`);
    assert.match(
      first.stdout,
      /skipped 1: shares its id with an earlier entry.*npcs\.json "smugglersNetwork-telokPenjarah"/,
    );
    assert.match(first.stdout, /skipped 12: no dates: a calendar event needs its start and end/);
    assert.match(lines.at(-1)!, /^\d+ rows added or changed$/);
    // Off a terminal: a line per stage on stderr, the summary alone on stdout.
    assert.match(first.stderr, /^importing codex cosmetic: 3,856\/3,856 in \d+\.\d s$/m);
    assert.not.match(first.stdout, /importing/);

    const again = await cli(env, 'import-community-data', CARRIED);
    assert.is(again.status, 0, again.stderr);
    assert.ok(again.stdout.includes('codex cosmetic: 3856 read, 0 added, 0 changed, 3856 unchanged, 0 skipped'));
    assert.ok(again.stdout.includes('catalog: 764 read, 0 added, 0 changed, 764 unchanged, 0 skipped'));
    assert.is(again.stdout.trim().split('\n').at(-1), 'nothing changed: the database already holds this data set');
  },
);

Cli(
  'a changed entry is changed, a missing file skipped, a bad entry refuses its kind, named by file and entry',
  async ({ dir, env }) => {
    const set = join(dir, 'set');
    cpSync(CARRIED, set, { recursive: true });
    const ultimates = JSON.parse(readFileSync(join(set, 'ultimates.json'), 'utf8'));
    ultimates.hunter.rarity = 'epic';
    writeFileSync(join(set, 'ultimates.json'), JSON.stringify(ultimates));
    rmSync(join(set, 'contracts.json'));
    const changed = await cli(env, 'import-community-data', set);
    assert.is(changed.status, 0, changed.stderr);
    assert.ok(
      changed.stdout.includes('codex ultimate: 11 read, 0 added, 1 changed, 10 unchanged, 0 skipped'),
      changed.stdout,
    );
    assert.ok(changed.stdout.includes('contracts: 0 read, 0 added, 0 changed, 0 unchanged, 1 skipped'));
    assert.match(changed.stdout, /skipped 1: the file is not in the data set given \(contracts\.json\)/);
    assert.is(changed.stdout.trim().split('\n').at(-1), '1 rows added or changed');

    const sets = JSON.parse(readFileSync(join(set, 'sets.json'), 'utf8'));
    sets.wrecker = 'not an entry';
    sets.crownedPrince.type = 'ship\u0007';
    writeFileSync(join(set, 'sets.json'), JSON.stringify(sets));
    const refused = await cli(env, 'import-community-data', set);
    assert.is(refused.status, 1);
    assert.match(refused.stderr, /Invalid data \(2 problems\)/);
    assert.match(refused.stderr, /sets\.json "crownedPrince"\.type: must be one line without control characters/);
    assert.match(refused.stderr, /sets\.json "wrecker": must be an object/);

    const seasonsFile = JSON.parse(readFileSync(join(set, 'seasons.json'), 'utf8'));
    seasonsFile.shatteredSeas.endDate = '2026-02-30';
    writeFileSync(join(set, 'seasons.json'), JSON.stringify(seasonsFile));
    const badSeason = await cli(env, 'import-community-data', set);
    assert.is(badSeason.status, 1);
    assert.match(badSeason.stderr, /seasons\.json "shatteredSeas"\.endDate: is not a real calendar date/);

    const empty = await cli(env, 'import-community-data', dir);
    assert.is(empty.status, 2, 'a folder without the set is a usage error');
    assert.match(empty.stderr, /holds none of the data set's files/);
  },
);

Cli(
  'in process: a refused kind writes nothing of itself; the kinds before it stay, and a rerun completes it',
  async ({ dir }) => {
    const database = openDatabase(`file:${join(dir, 'service.db')}`, { driver: TEST_DRIVER });
    try {
      await database.migrate();
      const files = readCommunityData();
      const deps = { db: database.db, now: () => new Date() };
      const badZone = { ...files, 'territories.json': { ...(files['territories.json'] as object), bad: 5 } };
      const zoneError = await importCommunityData(deps, { files: badZone }).catch((caught: Error) => caught);
      assert.match(String((zoneError as Error).message), /territories\.json "bad": must be an object/);
      const broken = { ...files, 'modifications.json': { ...(files['modifications.json'] as object), bad: [] } };
      const error = await importCommunityData(deps, { files: broken }).catch((caught: Error) => caught);
      assert.match(String((error as Error).message), /modifications\.json "bad": must be an object/);
      const kinds = async (kind: string) =>
        (await database.db.select({ n: count() }).from(codexEntries).where(eq(codexEntries.kind, kind)).get())!.n;
      assert.equal([await kinds('material'), await kinds('mod'), await kinds('npc')], [159, 0, 0]);
      assert.is((await database.db.select({ n: count() }).from(seasons).get())!.n, 10);
      const rerun = await importCommunityData(deps, { files });
      assert.equal(
        rerun.kinds.filter((kind) => kind.added > 0).map((kind) => kind.kind),
        ['codex mod', 'codex npc', 'codex set', 'codex treasureMap', 'codex ultimate'],
      );
    } finally {
      database.close();
    }
  },
);

Cli.run();

const Admin = suite('POST /admin/community-data/import, on REST and native tRPC');

Admin('imports the carried set; a second call changes nothing; admins only', async () => {
  const app = await startTestServer();
  try {
    const admin = await signUpAdmin(app);
    const user = await app.signUp();
    assert.is((await app.rest('POST', '/api/admin/community-data/import', { token: user.token })).status, 403);
    const first = await app.rest('POST', '/api/admin/community-data/import', { token: admin.token });
    assert.is(first.status, 200, first.text);
    assert.is(first.body.data.changed, true);
    const cosmetics = first.body.data.kinds.find((kind: any) => kind.kind === 'codex cosmetic');
    assert.equal([cosmetics.files, cosmetics.read, cosmetics.added], [['cosmetics.json'], 3856, 3856]);
    const events = first.body.data.kinds.find((kind: any) => kind.kind === 'events');
    assert.equal([events.skipped, events.reasons[0].count, events.reasons[0].entries.length], [12, 12, 5]);
    const again = await app.trpc(admin.token).admin.communityData.import.mutate();
    assert.is(again.changed, false);
    assert.ok(again.kinds.every((kind) => kind.added + kind.changed === 0));
    assert.is((await trpcError(app.trpc(user.token).admin.communityData.import.mutate())).status, 403);
  } finally {
    await app.stop();
  }
});

Admin.run();
