// The list's FTS5 search index: it holds exactly the listable assemblies (publish state, trash, rename
// and purge move rows in and out), read through the list on both surfaces and in the index itself.
import { eq, sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { assemblies } from '../../db/schema';
import { ftsQuery } from '../../server/domains/assembly/search';
import { JOBS } from '../../server/jobs';
import type { TTestServer } from '../support/helpers';
import { HULK } from '../support/community-sample';
import { DAY, ownerAndFansSuite, publish } from './fixtures';

const Index = ownerAndFansSuite('list: the search index');

/** Ids in the FTS5 index itself that match a keyword (not through the list). */
async function indexedIds(app: TTestServer, keyword: string): Promise<number[]> {
  const rows = await app.database.db.all<{ id: number }>(
    sql`select rowid as id from assemblies_fts where assemblies_fts match ${ftsQuery(keyword)} order by rowid`,
  );
  return rows.map((row) => Number(row.id));
}

async function idOf(app: TTestServer, uuid: string): Promise<number> {
  return (await app.database.db.select({ id: assemblies.id }).from(assemblies).where(eq(assemblies.uuid, uuid)).get())!
    .id;
}

Index(
  'the index holds only listable assemblies: publish state, trash, rename and purge move rows in and out',
  async ({ app, owner }) => {
    const names = async (keyword: string) =>
      (await app.rest('GET', `/api/assembly/list?keyword=${encodeURIComponent(keyword)}`)).body.data.data.map(
        (item: { name: string }) => item.name,
      );
    const viaTrpc = async (keyword: string) =>
      (await app.trpc().assembly.list.query({ keyword })).data.map((item) => item.name);
    const shown = await publish(app, owner.token, { ...HULK, name: 'Lagoon shown', tags: ['lagoonidx'] });
    const hidden = await publish(app, owner.token, {
      ...HULK,
      name: 'Lagoon hidden',
      tags: ['lagoonidx'],
      isPublic: false,
      password: 'open-sesame',
    });
    const binned = await publish(app, owner.token, { ...HULK, name: 'Lagoon binned', tags: ['lagoonidx'] });
    await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: binned.uuid } });
    const [shownId, hiddenId, binnedId] = [
      await idOf(app, shown.uuid),
      await idOf(app, hidden.uuid),
      await idOf(app, binned.uuid),
    ];
    assert.equal(await names('lagoonidx'), ['Lagoon shown']);
    assert.equal(await viaTrpc('lagoon'), ['Lagoon shown']);
    assert.equal(await indexedIds(app, 'lagoonidx'), [shownId], 'private and trashed are not in the index at all');
    assert.equal(await indexedIds(app, 'hidden'), [], 'a private name is not searchable text anywhere');

    // Made public, restored from the trash: findable.
    await app.trpc(owner.token).assembly.edit.mutate({ uuid: hidden.uuid, data: { isPublic: true } });
    await app.rest('POST', '/api/assembly/restore', { token: owner.token, body: { uuid: binned.uuid } });
    assert.equal(await names('lagoonidx'), ['Lagoon binned', 'Lagoon hidden', 'Lagoon shown']);
    assert.equal(await viaTrpc('lagoonidx'), ['Lagoon binned', 'Lagoon hidden', 'Lagoon shown']);
    assert.equal(await indexedIds(app, 'lagoonidx'), [shownId, hiddenId, binnedId]);

    // Renamed: the index follows (old words gone, new words in).
    await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid: shown.uuid, data: { name: 'Atoll shown', tags: ['atollidx'] } },
    });
    assert.equal(await names('atollidx'), ['Atoll shown']);
    assert.equal(await indexedIds(app, 'atoll'), [shownId]);
    assert.equal(await indexedIds(app, 'lagoonidx'), [hiddenId, binnedId]);

    // Made private again, trashed: out of the index.
    await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid: hidden.uuid, data: { isPublic: false } },
    });
    await app.trpc(owner.token).assembly.delete.mutate({ uuid: binned.uuid });
    assert.equal(await names('lagoonidx'), []);
    assert.equal(await viaTrpc('lagoonidx'), []);
    assert.equal(await indexedIds(app, 'lagoonidx'), []);
    // Editing a private one (name included) keeps it out.
    await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid: hidden.uuid, data: { name: 'Lagoon hidden renamed' } },
    });
    assert.equal(await indexedIds(app, 'lagoonidx'), []);
    // Views and likes never touch the index (the update trigger fires on name, tags, is_public, deleted_at only).
    await app.rest('GET', `/api/assembly/item?uuid=${shown.uuid}`);
    assert.equal(await indexedIds(app, 'atollidx'), [shownId]);

    // Purged (trashed 30 days ago) and deleted outright (an account's cascade, say): gone for good.
    await app.trpc(owner.token).assembly.delete.mutate({ uuid: shown.uuid });
    app.clock.advance(30 * DAY + 1000);
    const job = JOBS.find((candidate) => candidate.name === 'assembly-trash-purge')!;
    const purged = (await job.run(app.database.db, app.app.deps)) as { uuids: string[] };
    assert.ok(purged.uuids.includes(shown.uuid) && purged.uuids.includes(binned.uuid));
    assert.equal(await indexedIds(app, 'atollidx'), []);
    assert.equal(await names('atollidx'), []);
    const later = await app.signUp(); // the owner's session has expired with the 30 days
    const doomed = await publish(app, later.token, { ...HULK, name: 'Lagoon doomed', tags: ['lagoonidx'] });
    assert.equal(await indexedIds(app, 'lagoonidx'), [await idOf(app, doomed.uuid)]);
    await app.database.db.delete(assemblies).where(eq(assemblies.uuid, doomed.uuid));
    assert.equal(await indexedIds(app, 'lagoonidx'), []);
    // What is left in the index is exactly the listable rows.
    const listable = await app.database.db.get<{ n: number }>(
      sql`select count(*) as n from assemblies where is_public = 1 and deleted_at is null`,
    );
    const indexed = await app.database.db.get<{ n: number }>(sql`select count(*) as n from assemblies_fts_docsize`);
    assert.is(Number(indexed!.n), Number(listable!.n));
  },
);

Index.run();
