/**
 * Records the examples of the OpenAPI document (server/openapi-examples.json): starts a server with
 * the demo data in a temporary database, calls every REST operation once as a client would, and
 * keeps what each was sent and the `data` it answered (lists cut to two rows).
 *
 *   node --import tsx scripts/openapi-examples.ts
 *
 * Run it again when an operation or a schema changes: test/platform/openapi-quality.test.ts checks
 * that every JSON operation has a recorded answer and that each still fits its response schema.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DEMO_SUBSCRIPTION_CATALOG } from '../server/seed/subscription';
import { DEMO_COMPANIES, DEMO_ZONES, demoCampaigns } from '../server/seed/live-data';
import {
  MANUAL_SIGNATURE_HEADER,
  manualSecret,
  signManualWebhook,
} from '../server/domains/subscription/payment/manual';
import { DEMO_ASSEMBLY_PASSWORD, readDemoCatalog } from '../server/seed/assemblies';
import { DEMO_USERS } from '../server/seed';
import type { TRecordedExample } from '../server/openapi';
import { startTestServer, type TTestServer } from '../test/support/helpers';

export const EXAMPLES_FILE = 'server/openapi-examples.json';

type TJson = Record<string, unknown>;

/** Arrays cut to their first two items, at any depth: an example shows the shape, not the whole list. */
function trimmed(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(trimmed);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, trimmed(inner)]));
  return value;
}

interface TCall {
  parameters?: Record<string, string | number | boolean>;
  body?: unknown;
  token?: string;
  /** Request headers, recorded as the examples of the header parameters of the same name. */
  headers?: Record<string, string>;
  /** The answer is not an envelope (iCalendar feeds, avatar bytes): only the request is recorded. */
  raw?: boolean;
}

class Recorder {
  readonly examples: Record<string, TRecordedExample> = {};
  constructor(private readonly app: TTestServer) {}

  /** Calls `METHOD /path` with path parameters filled in and the others as the query; fails unless it answers 2xx. */
  private async send(key: string, call: TCall): Promise<TJson> {
    const [method, template] = key.split(' ') as [string, string];
    const query = new URLSearchParams();
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(String(call.parameters?.[name])),
    );
    for (const [name, value] of Object.entries(call.parameters ?? {}))
      if (!template.includes(`{${name}}`)) query.set(name, String(value));
    const url = `/api${path}${query.size > 0 ? `?${query}` : ''}`;
    const response = await this.app.rest(method, url, { body: call.body, token: call.token, headers: call.headers });
    if (response.status >= 300) throw new Error(`${key} answered ${response.status}: ${response.text.slice(0, 300)}`);
    return call.raw ? { text: response.text } : response.body;
  }

  /** Records the operation's example: what it was sent, and the data it answered. */
  // biome-ignore lint/suspicious/noExplicitAny: the recorder reads fields of the demo data's answers (uuids, tokens) to make the next call
  async call(key: string, call: TCall = {}): Promise<any> {
    const answer = await this.send(key, call);
    this.examples[key] = {
      ...(call.parameters && { parameters: call.parameters }),
      ...(call.headers && { headers: call.headers }),
      ...(call.body !== undefined && { body: call.body }),
      ...(!call.raw && { response: trimmed(answer.data) }),
    };
    return call.raw ? answer.text : answer.data;
  }

  /**
   * A second call of a recorded operation, for the examples of parameters the first did not send
   * (another form of the same query, a private assembly's password); its answer is not kept.
   */
  async otherParameters(key: string, call: TCall): Promise<void> {
    await this.send(key, call);
    this.examples[key] ??= {};
    const recorded = this.examples[key];
    recorded.parameters = { ...call.parameters, ...recorded.parameters };
  }
}

async function signIn(recorder: Recorder, username: string): Promise<string> {
  const user = DEMO_USERS.find((candidate) => candidate.username === username)!;
  const session = await recorder.call('POST /user/signin', {
    body: { username: user.username, password: user.password },
  });
  return session.token as string;
}

/** Calls every operation, in an order where each finds what it needs (reads first, deletions last). */
export async function recordExamples(): Promise<Record<string, TRecordedExample>> {
  const app = await startTestServer({ SEED_DEMO: true });
  try {
    const r = new Recorder(app);
    await r.call('GET /health');
    await r.call('GET /captcha', { parameters: { t: '0.7391' } });
    const admin = await signIn(r, 'captain');
    const user = await signIn(r, 'deckhand');
    const pageOne = { page: 1, pageSize: 2 };

    // Users.
    const newcomer = await r.call('POST /user/signup', {
      body: {
        username: 'saltwater_sam',
        email: 'sam@example.com',
        password: 'correct horse battery',
        alternativeName: 'Salty Sam',
      },
    });
    const me = await r.call('GET /user/me', { token: user });
    await r.call('POST /user/me', {
      token: user,
      body: { attr: { introduction: 'Hunting merchant convoys off Red Isle.', language: 'en' } },
    });
    await r.call('GET /user/info', { parameters: { id: me.id } });
    await r.call('PUT /user/changeAlternativeName', { token: newcomer.token, body: { username: 'Sam of the Shoals' } });
    await r.call('POST /user/password', {
      token: newcomer.token,
      body: { currentPassword: 'correct horse battery', newPassword: 'stronger horse battery' },
    });
    // A password change ends the account's sessions.
    const again = await app.rest('POST', '/api/user/signin', {
      body: { username: 'saltwater_sam', password: 'stronger horse battery' },
    });
    await r.call('PUT /user/changePassword', {
      token: again.body.data.token,
      body: { oldPassword: 'stronger horse battery', newPassword: 'correct horse battery' },
    });
    const newcomerToken = (
      await app.rest('POST', '/api/user/signin', {
        body: { username: 'saltwater_sam', password: 'correct horse battery' },
      })
    ).body.data.token as string;
    const avatar = await r.call('PUT /user/avatar', {
      token: newcomerToken,
      body: { image: TINY_PNG_BASE64, contentType: 'image/png' },
    });
    await r.call('GET /user/avatar/{userId}', {
      parameters: { userId: newcomer.userId, v: new URL(avatar.userAvatar, 'http://x').searchParams.get('v') ?? '1' },
      raw: true,
    });
    await r.call('DELETE /user/avatar', { token: newcomerToken });
    await r.call('GET /user/me/assemblys', { token: user, parameters: pageOne });
    await r.call('GET /user/space/assemblys', { parameters: { userId: me.id, ...pageOne } });

    // Assemblies.
    const list = await r.call('GET /assembly/list', {
      parameters: { page: 1, pageSize: 2, sort: 'hottest', sortOrder: 'desc', keyword: 'brig', shipType: 'medium' },
    });
    const all = await app.rest('GET', '/api/assembly/list?pageSize=100');
    const first = list.data[0] ?? all.body.data.data[0];
    await r.call('GET /assembly/item', { parameters: { uuid: first.uuid } });
    await r.call('GET /assembly/attr', { parameters: { uuid: first.uuid } });
    const published = await r.call('POST /assembly/publish', {
      token: user,
      body: {
        name: 'Broadside brawler',
        shipId: first.shipId,
        weapons: [],
        description: 'Close range, heavy armor, long guns on both sides.',
        tags: ['pvp', 'brawler'],
        isPublic: true,
      },
    });
    const etagOf = async (uuid: string) =>
      (await app.rest('GET', `/api/assembly/item?uuid=${uuid}`, { token: user })).headers.get('etag')!;
    await r.call('POST /assembly/edit', {
      token: user,
      headers: { 'if-match': await etagOf(published.uuid) },
      body: { uuid: published.uuid, data: { description: 'Close range, heavy armor; reload before you turn.' } },
    });
    await r.call('POST /assembly/attr/edit', {
      token: user,
      headers: { 'if-match': await etagOf(published.uuid) },
      body: { uuid: published.uuid, assembly: { visibility: 'publicly', attr: { isShowItemName: true } } },
    });
    const others = all.body.data.data.find((item: TJson) => item.userId !== me.id) ?? first;
    await r.call('POST /assembly/like', { token: user, body: { uuid: others.uuid, like: true } });
    await r.call('POST /assembly/rate', { token: user, body: { uuid: others.uuid, score: 4 } });
    await r.call('POST /assembly/fork', { token: user, body: { uuid: others.uuid } });
    await r.call('GET /likes/check', { token: user, parameters: { targetType: 'assembly', targetId: others.uuid } });
    await r.call('POST /likes/toggle', { token: user, body: { targetType: 'assembly', targetId: others.uuid } });
    await r.call('GET /likes/count', { parameters: { targetType: 'assembly', targetId: others.uuid } });
    await r.call('GET /user/likes', { token: user, parameters: pageOne });
    await r.call('GET /user/space/likes', { parameters: { userId: me.id, ...pageOne } });
    const comment = await r.call('POST /comment', {
      token: user,
      body: {
        targetType: 'assembly',
        targetId: others.uuid,
        content: 'Tried it in the Red Isle convoy: the mortars carry the fight.',
      },
    });
    await r.call('POST /comment/edit', {
      token: user,
      body: {
        id: comment.id,
        content: 'Tried it in the Red Isle convoy: the mortars carry the fight. Bring repair kits.',
      },
    });
    await r.call('GET /comment/comments', {
      parameters: { targetType: 'assembly', targetId: others.uuid, page: 1, pageSize: 2, sortOrder: 'desc' },
    });
    await r.call('GET /user/comments', { token: user, parameters: pageOne });
    await r.call('POST /comment/delete', { token: user, body: { id: comment.id } });
    await r.call('POST /assembly/delete', { token: user, body: { uuid: published.uuid } });
    await r.call('GET /assembly/trash', { token: user, parameters: pageOne });
    await r.call('POST /assembly/restore', { token: user, body: { uuid: published.uuid } });
    // The web client's form of the list query, and the demo's private assembly read with its password.
    const weekAgo = new Date(app.clock.now().getTime() - 7 * 86_400_000).toISOString();
    await r.otherParameters('GET /assembly/list', {
      parameters: {
        sortField: 'likes',
        isHasPassword: false,
        createdStart: weekAgo,
        createdEnd: app.clock.now().toISOString(),
        updatedStart: weekAgo,
        updatedEnd: app.clock.now().toISOString(),
      },
    });
    // Private assemblies are missing from the public list; the demo's one has a password.
    const publicUuids = new Set(all.body.data.data.map((item: TJson) => item.uuid));
    const own = await app.rest('GET', '/api/user/me/assemblys?pageSize=100', { token: user });
    const locked = own.body.data.data.find((item: TJson) => !publicUuids.has(item.uuid));
    if (!locked) throw new Error('the demo has no private assembly');
    const withPassword = { uuid: locked.uuid, password: DEMO_ASSEMBLY_PASSWORD };
    await r.otherParameters('GET /assembly/item', { parameters: { ...withPassword, force: true } });
    await r.otherParameters('GET /assembly/attr', { parameters: withPassword });
    await r.otherParameters('GET /likes/check', {
      token: user,
      parameters: { targetType: 'assembly', targetId: locked.uuid, password: DEMO_ASSEMBLY_PASSWORD },
    });
    await r.otherParameters('GET /likes/count', {
      parameters: { targetType: 'assembly', targetId: locked.uuid, password: DEMO_ASSEMBLY_PASSWORD },
    });
    await r.otherParameters('GET /comment/comments', {
      parameters: { targetType: 'assembly', targetId: locked.uuid, password: DEMO_ASSEMBLY_PASSWORD },
    });

    // Catalog.
    await r.call('GET /catalog/hulls', { parameters: { page: 1, pageSize: 2, size: 'medium' } });
    await r.call('GET /catalog/items', { parameters: { page: 1, pageSize: 2, category: 'weapon', type: 'culverin' } });

    // Maps.
    const collections = await r.call('GET /map/collections', { token: user, parameters: pageOne });
    const collection = collections.data[0];
    await r.call('GET /map/collections/{uuid}/points', {
      token: user,
      parameters: { uuid: collection.uuid, ...pageOne },
    });
    const created = await r.call('POST /map/collection', {
      token: user,
      body: {
        title: 'Treasure spots',
        description: 'Chests found on the Red Isle coast',
        isPublic: true,
        points: [{ title: 'Saint-Anne', latitude: -12.5, longitude: 48.25, tags: ['chest'] }],
      },
    });
    await r.call('GET /map/collection/{uuid}', { parameters: { uuid: created.uuid } });
    await r.call('PUT /map/collection/{uuid}', {
      token: user,
      parameters: { uuid: created.uuid },
      body: { description: 'Chests and wrecks on the Red Isle coast' },
    });
    const point = await r.call('POST /map/point', {
      token: user,
      body: {
        collectionUuid: created.uuid,
        title: 'Red Isle wreck',
        latitude: -12.75,
        longitude: 48.5,
        address: 'Red Isle, south reef',
        tags: ['wreck'],
        isPublic: true,
      },
    });
    await r.call('GET /map/point/{uuid}', { parameters: { uuid: point.uuid } });
    await r.call('PUT /map/point/{uuid}', {
      token: user,
      parameters: { uuid: point.uuid },
      body: { description: 'Sunk merchant brig; loot respawns daily' },
    });
    await r.call('GET /map/point/nearby', { parameters: { latitude: -12.5, longitude: 48.25, radius: 50, limit: 2 } });
    await r.call('GET /map/user/points', { token: user, parameters: { ...pageOne, collectionUuid: created.uuid } });
    await r.call('DELETE /map/collection/{uuid}/points', {
      token: user,
      parameters: { uuid: created.uuid },
      body: { pointUuids: [point.uuid] },
    });
    await r.call('GET /map/user/orphan-points', { token: user, parameters: pageOne });
    await r.call('POST /map/collection/{uuid}/points', {
      token: user,
      parameters: { uuid: created.uuid },
      body: { pointUuids: [point.uuid] },
    });
    await r.call('DELETE /map/point/{uuid}', { token: user, parameters: { uuid: point.uuid } });
    await r.call('DELETE /map/collection/{uuid}', { token: user, parameters: { uuid: created.uuid } });

    // Sponsorship.
    const plans = await r.call('GET /subscription/plans');
    const tier = plans.plans[0].tiers[0];
    const payType = plans.payTypes[0].payType;
    await r.call('GET /subscription/progress');
    await r.call('GET /subscription/hall', { parameters: pageOne });
    await r.call('GET /subscription/my-status', { token: user });
    const order = await r.call('POST /subscription/orders/create', {
      token: user,
      body: { tierId: tier.tierId, payType },
    });
    await r.call('GET /subscription/my-orders', { token: user, parameters: pageOne });
    await r.call('GET /admin/subscription/orders/{orderId}', { token: admin, parameters: { orderId: order.orderId } });
    await r.call('POST /admin/subscription/orders/{orderId}/confirm', {
      token: admin,
      parameters: { orderId: order.orderId },
    });
    const second = await app.rest('POST', '/api/subscription/orders/create', {
      token: user,
      body: { tierId: tier.tierId, payType },
    });
    await r.call('POST /subscription/orders/{orderId}/cancel', {
      token: user,
      parameters: { orderId: second.body.data.orderId },
    });
    const third = await app.rest('POST', '/api/subscription/orders/create', {
      token: user,
      body: { tierId: tier.tierId, payType: 'manual' },
    });
    const paid = {
      eventId: 'evt_2026_0001',
      type: 'order.paid',
      orderId: third.body.data.orderId,
      amountMinor: Math.round(tier.price * 100),
      currency: tier.currency,
      reference: 'bank transfer 2026-05-01',
    };
    await r.call('POST /subscription/webhook/{payType}', {
      parameters: { payType: 'manual' },
      body: paid,
      headers: {
        [MANUAL_SIGNATURE_HEADER]: signManualWebhook(manualSecret(app.config), JSON.stringify(paid), app.clock.now()),
      },
    });
    await r.call('GET /subscription/hall-visibility', { token: user });
    await r.call('POST /subscription/hall-visibility', { token: user, body: { visible: true } });
    await r.call('POST /admin/subscription/orders/expire', { token: admin });
    const plan = DEMO_SUBSCRIPTION_CATALOG.plans![0]!;
    await r.call('PUT /admin/subscription/plans/{planId}', {
      token: admin,
      parameters: { planId: plan.planId },
      body: { name: plan.name, description: 'Keeps the servers afloat', position: 0, active: true },
    });
    await r.call('PUT /admin/subscription/tiers/{tierId}', {
      token: admin,
      parameters: { tierId: tier.tierId },
      body: {
        planId: plan.planId,
        name: tier.name,
        price: tier.price,
        currency: tier.currency,
        months: tier.months,
        position: 0,
        active: true,
      },
    });
    await r.call('PUT /admin/subscription/pay-types/{payType}', {
      token: admin,
      parameters: { payType },
      body: { name: plans.payTypes[0].name, enabled: true, position: 0 },
    });
    await r.call('PUT /admin/subscription/goal', { token: admin, body: { amount: 500, currency: 'EUR' } });
    await r.call('POST /admin/subscription/import', { token: admin, body: DEMO_SUBSCRIPTION_CATALOG });

    // Live data: drops, the state of war, the calendar.
    const drops = await r.call('GET /drop/history', {
      parameters: { page: 1, pageSize: 2, status: 'active', keyword: 'straits' },
    });
    await r.call('GET /drop/current', { parameters: { refresh: false } });
    await r.call('GET /drop/{id}', { parameters: { id: drops.data[0].id } });
    const seasons = await r.call('GET /stateOfWar/seasons');
    const current = seasons.items.find((item: TJson) => item.status === 'active') ?? seasons.items[0];
    const season = current.id as string;
    await r.call('GET /stateOfWar/latest');
    await r.call('GET /stateOfWar/season/{season}', { parameters: { season } });
    await r.call('GET /stateOfWar/history', { parameters: { range: '1d', season } });
    await r.call('POST /admin/drop/campaigns', {
      token: admin,
      body: { campaigns: demoCampaigns(app.clock.now()).slice(0, 1) },
    });
    // The demo has no calendar: the admin writes one event first.
    const opening = Date.parse(current.startsAt) + 2 * 86_400_000;
    const kraken = {
      id: 'kraken',
      title: 'World event: Kraken Hunt',
      category: 'world-event',
      startsAt: new Date(opening + 18 * 3_600_000).toISOString(),
      endsAt: new Date(opening + 54 * 3_600_000).toISOString(),
    };
    await r.call('PUT /admin/calendar/{season}', { token: admin, parameters: { season }, body: { events: [kraken] } });
    await r.call('GET /calendar/data', { parameters: { season } });
    await r.call('GET /calendar/events.ics', { parameters: { season, language: 'en', eventId: '' }, raw: true });
    await r.call('GET /calendar/event.ics', { parameters: { season, language: 'en', eventId: kraken.id }, raw: true });
    await r.call('POST /admin/war/snapshots', {
      token: admin,
      body: {
        season,
        capturedAt: new Date().toISOString(),
        companies: DEMO_COMPANIES.slice(0, 2).map((company, index) => ({
          companyId: company.id,
          score: 125_000 - index * 20_000,
        })),
      },
    });
    await r.call('POST /admin/war/reference', {
      token: admin,
      body: { companies: DEMO_COMPANIES.slice(0, 1), zones: DEMO_ZONES.slice(0, 1) },
    });
    await r.call('POST /admin/war/thin', { token: admin, body: { olderThanDays: 30 } });
    const catalog = readDemoCatalog() as { ships: TJson; items: TJson };
    const [shipId, ship] = Object.entries(catalog.ships)[0]!;
    const [itemId, item] = Object.entries(catalog.items)[0]!;
    await r.call('POST /admin/catalog/import', {
      token: admin,
      body: { ships: { [shipId]: ship }, items: { [itemId]: item } },
    });
    await r.call('POST /user/signout', { token: newcomerToken });
    return r.examples;
  } finally {
    await app.stop();
  }
}

/** A 1×1 transparent PNG. */
const TINY_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  recordExamples()
    .then((examples) => {
      writeFileSync(EXAMPLES_FILE, `${JSON.stringify(examples, null, 2)}\n`);
      console.log(`wrote ${EXAMPLES_FILE}: ${Object.keys(examples).length} operations`);
    })
    .catch((error: unknown) => {
      console.error(String((error as Error).stack ?? error));
      process.exit(1);
    });
}
