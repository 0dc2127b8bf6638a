import { count } from 'drizzle-orm';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { dropCampaigns, dropRewards } from '../../db/schema';
import { setRole } from '../../server/domains/user/account';
import { startTestServer, type TTestServer } from '../support/helpers';
import { trpcError } from '../support/http-clients';
import { campaign as importable, DAY, HOUR } from './fixtures';

interface TCtx {
  app: TTestServer;
  admin: string;
  user: string;
  base: number;
}

const Drop = suite<TCtx>('drop campaigns');

/** Every campaign of this suite is watched on the official channel. */
const CHANNELS = [{ name: 'skullandbonesgame', url: 'https://www.twitch.tv/skullandbonesgame' }];
const campaign = (
  campaignId: string,
  name: string,
  startOffset: number,
  endOffset: number,
  base: number,
  rewards: string[] = [],
) => importable(campaignId, name, startOffset, endOffset, base, rewards, CHANNELS);

Drop.before(async (context) => {
  context.app = await startTestServer();
  const admin = await context.app.signUp();
  await setRole({ db: context.app.database.db }, { username: admin.username, role: 'admin' });
  context.admin = admin.token;
  context.user = (await context.app.signUp()).token;
  // Whole hours keep the status boundaries far from the request time.
  context.base = Math.floor(context.app.clock.now().getTime() / HOUR) * HOUR;
});
Drop.after(async (context) => {
  await context.app.stop();
});

Drop(
  'admin upsert creates campaigns; non-admins get 403 and no token 401, on both surfaces',
  async ({ app, admin, user, base }) => {
    const body = {
      campaigns: [
        campaign('aaaa-active-1', 'Kraken Week Drops', -HOUR, DAY, base, ['Ember Sail', 'Kraken Eye Trophy']),
        campaign('aaaa-upcoming-1', 'Finale Drops', 2 * DAY, 3 * DAY, base, ['Golden Trim']),
        campaign('aaaa-ended-1', 'Launch Drops', -3 * DAY, -2 * DAY, base, ['Fog Banner 100%']),
        campaign('424242', 'Numeric Platform Id Drops', -10 * DAY, -9 * DAY, base),
      ],
    };
    assert.is((await app.rest('POST', '/api/admin/drop/campaigns', { body })).status, 401);
    const forbidden = await app.rest('POST', '/api/admin/drop/campaigns', { body, token: user });
    assert.is(forbidden.status, 403);
    assert.is((await trpcError(app.trpc(user).admin.drop.upsertCampaigns.mutate(body))).status, 403);
    assert.is((await trpcError(app.trpc().admin.drop.upsertCampaigns.mutate(body))).status, 401);
    assert.is(
      (await app.database.db.select({ n: count() }).from(dropCampaigns).get())!.n,
      0,
      'nothing written by refused calls',
    );

    const created = await app.rest('POST', '/api/admin/drop/campaigns', { body, token: admin });
    assert.is(created.status, 200);
    assert.is(created.body.data.created, 4);
    assert.is(created.body.data.updated, 0);
    assert.equal(
      created.body.data.items.map((item: any) => item.id),
      [1, 2, 3, 4],
    );

    // Same campaignId again: an update, rewards replaced.
    const again = await app.trpc(admin).admin.drop.upsertCampaigns.mutate({
      campaigns: [
        campaign('aaaa-ended-1', 'Launch Drops', -3 * DAY, -2 * DAY, base, ['Fog Banner 100%', 'Shoal Sail']),
      ],
    });
    assert.equal(again, { created: 0, updated: 1, items: [{ id: 3, campaignId: 'aaaa-ended-1', created: false }] });
    assert.is((await app.database.db.select({ n: count() }).from(dropRewards).get())!.n, 5);
  },
);

Drop('invalid campaigns are a 400 naming the field, and nothing is written', async ({ app, admin, base }) => {
  const before = (await app.database.db.select({ n: count() }).from(dropCampaigns).get())!.n;
  const backwards = await app.rest('POST', '/api/admin/drop/campaigns', {
    token: admin,
    body: { campaigns: [campaign('ok-one', 'Fine', 0, DAY, base), campaign('bad-one', 'Backwards', DAY, 0, base)] },
  });
  assert.is(backwards.status, 400);
  assert.equal(backwards.body.data.issues, [{ path: 'campaigns[1].endsAt', message: 'must be after startsAt' }]);
  const duplicate = await app.rest('POST', '/api/admin/drop/campaigns', {
    token: admin,
    body: { campaigns: [campaign('dup', 'A', 0, DAY, base), campaign('dup', 'B', 0, DAY, base)] },
  });
  assert.is(duplicate.status, 400);
  assert.match(duplicate.body.message, /campaigns\[1\]\.campaignId/);
  const badReward = await trpcError(
    app.trpc(admin).admin.drop.upsertCampaigns.mutate({
      campaigns: [{ ...campaign('r', 'R', 0, DAY, base), rewards: [{ name: 'X', requiredMinutes: -5 }] }],
    }),
  );
  assert.is(badReward.status, 400);
  assert.match(badReward.message, /campaigns\[0\]\.rewards\[0\]\.requiredMinutes/);
  const badDate = await app.rest('POST', '/api/admin/drop/campaigns', {
    token: admin,
    body: { campaigns: [{ ...campaign('d', 'D', 0, DAY, base), startsAt: 'yesterday' }] },
  });
  assert.is(badDate.status, 400);
  assert.match(badDate.body.message, /startsAt/);
  assert.is((await app.database.db.select({ n: count() }).from(dropCampaigns).get())!.n, before);
});

Drop('current lists only active campaigns, from a cache with Cache-Control', async ({ app }) => {
  const first = await app.rest('GET', '/api/drop/current');
  assert.is(first.status, 200);
  assert.equal(
    first.body.data.items.map((item: any) => item.campaignId),
    ['aaaa-active-1'],
  );
  assert.is(first.body.data.items[0].status, 'active');
  assert.equal(first.body.data.items[0].rewards, [
    { name: 'Ember Sail', imageUrl: null, requiredMinutes: 30 },
    { name: 'Kraken Eye Trophy', imageUrl: null, requiredMinutes: 60 },
  ]);
  assert.equal(first.body.data.items[0].channels, [
    { name: 'skullandbonesgame', url: 'https://www.twitch.tv/skullandbonesgame' },
  ]);
  assert.is(first.body.data.cache, 'miss');
  const maxAge = Number(/^public, max-age=(\d+)$/.exec(first.headers.get('cache-control') ?? '')?.[1]);
  assert.ok(maxAge > 0 && maxAge <= 30, `max-age ${maxAge} within the 30 s TTL`);
  const second = await app.rest('GET', '/api/drop/current');
  assert.is(second.body.data.cache, 'hit');
  assert.is(second.body.data.generatedAt, first.body.data.generatedAt);
  const viaTrpc = await app.trpc().drop.getCurrent.query({});
  assert.is(viaTrpc.cache, 'hit');
  assert.equal(
    viaTrpc.items.map((item) => item.id),
    [1],
  );
});

Drop('refresh=1 rebuilds, at most once per interval per client; more is a 429 with Retry-After', async ({ app }) => {
  const refreshed = await app.rest('GET', '/api/drop/current?refresh=1');
  assert.is(refreshed.status, 200);
  assert.is(refreshed.body.data.cache, 'refresh');
  assert.is(refreshed.headers.get('cache-control'), 'no-cache');
  const tooSoon = await app.rest('GET', '/api/drop/current?refresh=1');
  assert.is(tooSoon.status, 429);
  assert.is(tooSoon.headers.get('retry-after'), '10');
  assert.is(tooSoon.body.data.retryAfterSeconds, 10);
  app.clock.advance(4_000);
  const stillSoon = await trpcError(app.trpc().drop.getCurrent.query({ refresh: true }));
  assert.is(stillSoon.status, 429);
  assert.is(stillSoon.data.retryAfterSeconds, 6);
  // Without refresh the cache still answers.
  assert.is((await app.rest('GET', '/api/drop/current')).status, 200);
  assert.is((await app.rest('GET', '/api/drop/current?refresh=0')).body.data.cache, 'hit');
  assert.is((await app.rest('GET', '/api/drop/current?refresh=2')).status, 400);
  app.clock.advance(6_000);
  assert.is((await app.trpc().drop.getCurrent.query({ refresh: true })).cache, 'refresh');
});

Drop(
  'an admin upsert invalidates the cache; the cache never outlives a status change',
  async ({ app, admin, base }) => {
    assert.is((await app.rest('GET', '/api/drop/current')).body.data.cache, 'hit');
    const soon = app.clock.now().getTime() + 5_000;
    await app.trpc(admin).admin.drop.upsertCampaigns.mutate({
      campaigns: [
        campaign('bbbb-active-2', 'Helm Partner Week', -2 * HOUR, 2 * DAY, base, ['Smuggler Lantern']),
        {
          ...campaign('bbbb-soon', 'Starting Soon', 0, 0, base),
          startsAt: new Date(soon).toISOString(),
          endsAt: new Date(soon + DAY).toISOString(),
        },
      ],
    });
    const after = await app.rest('GET', '/api/drop/current');
    assert.is(after.body.data.cache, 'miss');
    assert.equal(
      after.body.data.items.map((item: any) => item.campaignId),
      ['aaaa-active-1', 'bbbb-active-2'],
      'ending soonest first',
    );
    assert.is(after.body.data.expiresAt, new Date(soon).toISOString(), 'expires when the next campaign starts');
    app.clock.advance(6_000);
    const started = await app.rest('GET', '/api/drop/current');
    assert.is(started.body.data.cache, 'miss');
    assert.ok(started.body.data.items.some((item: any) => item.campaignId === 'bbbb-soon'));
  },
);

Drop('history paginates with defaults 1/10 and filters by status and keyword', async ({ app }) => {
  const all = await app.rest('GET', '/api/drop/history');
  assert.is(all.status, 200);
  assert.equal(all.body.data.pagination, { page: 1, pageSize: 10, total: 6, totalPages: 1 });
  assert.equal(
    all.body.data.data.map((item: any) => item.campaignId),
    ['aaaa-upcoming-1', 'bbbb-soon', 'aaaa-active-1', 'bbbb-active-2', 'aaaa-ended-1', '424242'],
    'newest start first',
  );
  assert.is(all.headers.get('cache-control'), 'public, max-age=60');
  const byStatus = async (status: string) =>
    (await app.rest('GET', `/api/drop/history?status=${status}`)).body.data.data.map((item: any) => item.campaignId);
  assert.equal(await byStatus('active'), ['bbbb-soon', 'aaaa-active-1', 'bbbb-active-2']);
  assert.equal(await byStatus('upcoming'), ['aaaa-upcoming-1']);
  assert.equal(await byStatus('ended'), ['aaaa-ended-1', '424242']);
  const page2 = await app.rest('GET', '/api/drop/history?page=2&pageSize=4');
  assert.equal(page2.body.data.pagination, { page: 2, pageSize: 4, total: 6, totalPages: 2 });
  assert.equal(
    page2.body.data.data.map((item: any) => item.campaignId),
    ['aaaa-ended-1', '424242'],
  );
  // Keyword: campaign name or reward name, case-insensitive; LIKE wildcards are literal.
  const keyword = async (text: string, extra = '') =>
    (await app.rest('GET', `/api/drop/history?keyword=${encodeURIComponent(text)}${extra}`)).body.data.data.map(
      (item: any) => item.campaignId,
    );
  assert.equal(await keyword('kraken'), ['aaaa-active-1']);
  assert.equal(await keyword('LANTERN'), ['bbbb-active-2'], 'matches a reward name');
  assert.equal(await keyword('100%'), ['aaaa-ended-1']);
  assert.equal(await keyword('%'), ['aaaa-ended-1'], '% is not a wildcard');
  assert.equal(await keyword('_'), []);
  assert.equal(await keyword('drops', '&status=ended'), ['aaaa-ended-1', '424242']);
  const viaTrpc = await app.trpc().drop.listHistory.query({ status: 'upcoming', keyword: 'finale' });
  assert.equal(
    viaTrpc.data.map((item) => item.name),
    ['Finale Drops'],
  );
  assert.equal(viaTrpc.pagination, { page: 1, pageSize: 10, total: 1, totalPages: 1 });
});

Drop('history rejects bad filters with a 400 naming them', async ({ app }) => {
  const status = await app.rest('GET', '/api/drop/history?status=running');
  assert.is(status.status, 400);
  assert.match(status.body.message, /status/);
  const size = await app.rest('GET', '/api/drop/history?pageSize=101');
  assert.is(size.status, 400);
  assert.match(size.body.message, /pageSize/);
  assert.is((await app.rest('GET', `/api/drop/history?keyword=${'x'.repeat(101)}`)).status, 400);
  assert.is((await trpcError(app.trpc().drop.listHistory.query({ page: 0 } as never))).status, 400);
});

Drop('one campaign by our id or the platform campaign id; static paths still route', async ({ app }) => {
  const byId = await app.rest('GET', '/api/drop/2');
  assert.is(byId.status, 200);
  assert.is(byId.body.data.campaignId, 'aaaa-upcoming-1');
  assert.is(byId.body.data.status, 'upcoming');
  const byCampaignId = await app.rest('GET', '/api/drop/aaaa-ended-1');
  assert.is(byCampaignId.body.data.id, 3);
  assert.equal(
    byCampaignId.body.data.rewards.map((reward: any) => reward.name),
    ['Fog Banner 100%', 'Shoal Sail'],
  );
  assert.is(byCampaignId.body.data.status, 'ended');
  // A numeric platform id that is not one of our ids still resolves.
  assert.is((await app.rest('GET', '/api/drop/424242')).body.data.id, 4);
  assert.is((await app.trpc().drop.getItem.query({ id: 1 })).campaignId, 'aaaa-active-1');
  assert.is((await app.trpc().drop.getItem.query({ id: 'bbbb-active-2' })).name, 'Helm Partner Week');
  const missing = await app.rest('GET', '/api/drop/999');
  assert.is(missing.status, 404);
  assert.match(missing.body.message, /999/);
  assert.is((await trpcError(app.trpc().drop.getItem.query({ id: 'no-such-campaign' }))).status, 404);
  assert.is((await app.rest('GET', '/api/drop/current')).body.data.items.length, 3);
  assert.ok(Array.isArray((await app.rest('GET', '/api/drop/history')).body.data.data));
});

Drop('GETs carry an ETag and answer 304 to If-None-Match', async ({ app }) => {
  for (const path of ['/api/drop/history?status=ended', '/api/drop/1', '/api/drop/current']) {
    const first = await app.rest('GET', path);
    const etag = first.headers.get('etag');
    assert.ok(etag, `${path} has an ETag`);
    const second = await fetch(`${app.url}${path}`, { headers: { 'if-none-match': etag! } });
    assert.is(second.status, 304, `${path} answers 304`);
  }
});

Drop('statuses follow the clock', async ({ app }) => {
  app.clock.advance(2 * DAY + HOUR);
  const upcoming = await app.rest('GET', '/api/drop/aaaa-upcoming-1');
  assert.is(upcoming.body.data.status, 'active');
  const current = await app.rest('GET', '/api/drop/current');
  assert.equal(
    current.body.data.items.map((item: any) => item.campaignId),
    ['aaaa-upcoming-1'],
    'the others have ended',
  );
  const ended = await app.rest('GET', '/api/drop/history?status=ended');
  assert.is(ended.body.data.pagination.total, 5);
});

Drop.run();
