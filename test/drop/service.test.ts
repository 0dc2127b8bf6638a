// Drop service logic called in process (no HTTP): status filters at the clock's time, keyword matching,
// lookups by either id, the current-campaigns cache, and the messages of invalid import files.
// test/drop/drop.test.ts covers the routes on both surfaces (status codes, headers, access rules).
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { parseDropImport } from '../../server/domains/drop/ingestion';
import { startInProcess, type TCaller, type TInProcessApp } from '../support/caller';
import { campaign, DAY, HOUR } from './fixtures';

interface TCtx {
  app: TInProcessApp;
  admin: TCaller;
  base: number;
}

const Drop = suite<TCtx>('drop services (in process)');

Drop.before(async (context) => {
  context.app = await startInProcess();
  context.admin = (await context.app.signUp({ role: 'admin' })).caller;
  // Whole hours keep the status boundaries far from the clock.
  const base = Math.floor(context.app.clock.now().getTime() / HOUR) * HOUR;
  context.base = base;
  await context.admin.admin.drop.upsertCampaigns({
    campaigns: [
      campaign('active-1', 'Kraken Week Drops', -HOUR, DAY, base, ['Ember Sail']),
      campaign('upcoming-1', 'Finale Drops', 2 * DAY, 3 * DAY, base, ['Golden Trim']),
      campaign('ended-1', 'Launch Drops', -3 * DAY, -2 * DAY, base, ['Fog Banner 100%']),
      campaign('ended-2', 'Convoy_Week Drops', -5 * DAY, -4 * DAY, base, ['Fog Banner 1000']),
      campaign('424242', 'Numeric Platform Id Drops', -10 * DAY, -9 * DAY, base),
    ],
  });
});
Drop.after(({ app }) => {
  app.close();
});

/** The campaign ids of a history page (`data`) or of the current campaigns (`items`). */
const ids = (list: { data: { campaignId: string }[] } | { items: { campaignId: string }[] }) =>
  ('data' in list ? list.data : list.items).map((item) => item.campaignId);

Drop('status filters follow the clock, newest start first', async ({ app }) => {
  const drop = app.anonymous.drop;
  assert.equal(ids(await drop.listHistory({ status: 'active' })), ['active-1']);
  assert.equal(ids(await drop.listHistory({ status: 'upcoming' })), ['upcoming-1']);
  assert.equal(ids(await drop.listHistory({ status: 'ended' })), ['ended-1', 'ended-2', '424242']);
  const all = await drop.listHistory({ pageSize: 2, page: 2 });
  assert.equal(ids(all), ['ended-1', 'ended-2']);
  assert.equal(all.pagination, { page: 2, pageSize: 2, total: 5, totalPages: 3 });

  app.clock.advance(2 * DAY + HOUR);
  try {
    assert.equal(ids(await drop.listHistory({ status: 'active' })), ['upcoming-1']);
    assert.equal(ids(await drop.listHistory({ status: 'upcoming' })), []);
    assert.equal(ids(await drop.listHistory({ status: 'ended' })), ['active-1', 'ended-1', 'ended-2', '424242']);
    assert.is((await drop.getItem({ id: 'active-1' })).status, 'ended');
  } finally {
    app.clock.advance(-(2 * DAY + HOUR));
  }
});

Drop('keywords match campaign or reward names, with LIKE wildcards taken literally', async ({ app }) => {
  const drop = app.anonymous.drop;
  assert.equal(ids(await drop.listHistory({ keyword: 'kraken' })), ['active-1']);
  assert.equal(ids(await drop.listHistory({ keyword: 'golden TRIM' })), ['upcoming-1']);
  assert.equal(ids(await drop.listHistory({ keyword: '100%' })), ['ended-1']);
  assert.equal(ids(await drop.listHistory({ keyword: 'Fog Banner 100' })), ['ended-1', 'ended-2']);
  assert.equal(ids(await drop.listHistory({ keyword: 'y_W' })), ['ended-2']);
  assert.equal(ids(await drop.listHistory({ keyword: 'Fog', status: 'active' })), []);
  assert.equal(ids(await drop.listHistory({ keyword: '   ' })).length, 5, 'a blank keyword filters nothing');
});

Drop('one campaign by our id first, then by the platform campaign id', async ({ app }) => {
  const drop = app.anonymous.drop;
  const byPlatform = await drop.getItem({ id: '424242' });
  assert.is(byPlatform.name, 'Numeric Platform Id Drops');
  assert.equal(await drop.getItem({ id: byPlatform.id }), byPlatform);
  const ours = await drop.getItem({ id: 'active-1' });
  assert.is((await drop.getItem({ id: String(ours.id) })).campaignId, 'active-1');
  assert.equal(ours.rewards, [{ name: 'Ember Sail', imageUrl: null, requiredMinutes: 30 }]);
  try {
    await drop.getItem({ id: 'nope' });
    assert.unreachable('an unknown campaign is a 404');
  } catch (error) {
    assert.is((error as { code: string }).code, 'NOT_FOUND');
    assert.is((error as Error).message, 'No drop campaign with id or campaign id "nope"');
  }
});

Drop('current campaigns come from the cache until an upsert drops it', async ({ app, admin, base }) => {
  const drop = app.anonymous.drop;
  const first = await drop.getCurrent({});
  assert.equal([first.cache, ids(first)], ['miss', ['active-1']]);
  assert.is(
    first.expiresAt,
    new Date(
      Math.min(Date.parse(first.generatedAt) + app.deps.config.DROP_CACHE_TTL_SECONDS * 1000, base + DAY),
    ).toISOString(),
  );
  assert.is((await drop.getCurrent({})).cache, 'hit');
  await admin.admin.drop.upsertCampaigns({
    campaigns: [campaign('active-2', 'Helm Partner Week', -2 * HOUR, DAY, base)],
  });
  const rebuilt = await drop.getCurrent({});
  assert.equal([rebuilt.cache, ids(rebuilt)], ['miss', ['active-1', 'active-2']]);
});

Drop('import files: a bare array or { campaigns }, problems listed one per line (at most ten)', () => {
  const base = Date.parse('2026-01-01T00:00:00Z');
  const good = campaign('file-1', 'File Drops', 0, DAY, base);
  assert.equal(
    parseDropImport([good]).map((entry) => entry.game),
    ['Skull and Bones'],
  );
  assert.equal(
    parseDropImport({ campaigns: [good] }).map((entry) => entry.campaignId),
    ['file-1'],
  );
  const message = (data: unknown) => {
    try {
      parseDropImport(data);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('expected a parse error');
  };
  assert.is(
    message([{ ...good, endsAt: good.startsAt }]),
    'Invalid data (1 problem):\n  campaigns[0].endsAt: must be after startsAt',
  );
  assert.is(message([good, good]), 'Invalid data (1 problem):\n  campaigns[1].campaignId: duplicates campaigns[0]');
  const many = message(Array.from({ length: 12 }, (_, index) => ({ ...good, campaignId: `bad ${index}` })));
  assert.is(many.split('\n').length, 12, 'a title, ten problems and the rest counted');
  assert.ok(
    many.startsWith(
      'Invalid data (12 problems):\n  campaigns[0].campaignId: may contain only letters, digits and . _ : -',
    ),
  );
  assert.ok(many.endsWith('\n  ... and 2 more'));
});

Drop.run();
