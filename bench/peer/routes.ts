/**
 * The peer's assembly, drop and sign-in routes (bench/peer/server.ts): each the same SQL as our
 * service and the same answer. The war routes are in war-routes.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { verify } from '@node-rs/argon2';
import type Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { fail, iso, ok, summary, type TAssemblyRow } from './answers';
import { ftsQuery, type TPeerStatements } from './statements';

const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const DROP_TTL_MS = 30_000;
/** Our service's cap (MAX_SEARCH_RESULTS): a keyword search pages through the newest 1,000 matches. */
const MAX_SEARCH_RESULTS = 1000;

/** GET /api/assembly/list (a page, or a keyword search's page) and GET /api/assembly/item (which counts a view). */
export function registerAssemblyRoutes(app: FastifyInstance, statements: TPeerStatements): void {
  app.get('/api/assembly/list', async (request) => {
    const query = request.query as Record<string, string | undefined>;
    const page = Math.max(1, Number(query.page ?? 1) || 1);
    const pageSize = Math.min(100, Math.max(1, Number(query.pageSize ?? 20) || 20));
    const keyword = query.keyword?.trim();
    const words = keyword ? ftsQuery(keyword) : null;
    // As ours (searchMatch): the words in the name and tags only, not in the hull column of migration 0012.
    const match = words && `{name tags} : (${words})`;
    const offset = (page - 1) * pageSize;
    let total: number;
    let rows: TAssemblyRow[];
    let truncated = false;
    if (match) {
      const found = (statements.searchCandidates.all(match, MAX_SEARCH_RESULTS + 1) as { id: number }[]).map(
        (row) => row.id,
      );
      truncated = found.length > MAX_SEARCH_RESULTS;
      total = Math.min(found.length, MAX_SEARCH_RESULTS);
      const pageIds = found.slice(0, total).slice(offset, offset + pageSize);
      rows = pageIds.length ? (statements.searchPage.all(JSON.stringify(pageIds)) as TAssemblyRow[]) : [];
    } else {
      total = (statements.listCount.get() as { n: number }).n;
      rows = statements.listPage.all(pageSize, offset) as TAssemblyRow[];
    }
    return ok({
      items: rows.map(summary),
      pagination: { page, pageSize, total, totalPages: Math.ceil(total / pageSize) },
      truncated,
    });
  });

  app.get('/api/assembly/item', async (request, reply) => {
    const uuid = (request.query as Record<string, string | undefined>).uuid ?? '';
    const row = statements.item.get(uuid) as TAssemblyRow | undefined;
    if (!row || row.deleted_at !== null) return fail(reply, 404, `Assembly ${uuid} not found`);
    if (row.is_public !== 1) return fail(reply, 403, 'This assembly is private');
    const counted = statements.countView.get(row.id, row.id) as { views: number } | undefined;
    return ok({
      ...summary(row),
      views: counted?.views ?? row.views,
      weapons: JSON.parse(row.weapons),
      armor: row.armor,
      furnitures: JSON.parse(row.furnitures),
    });
  });
}

let dropCache: { body: object; expiresAt: number } | undefined;

/** GET /api/drop/current, from a short-lived cache as ours (the contract says so). */
export function registerDropRoute(app: FastifyInstance, db: Database.Database, statements: TPeerStatements): void {
  app.get('/api/drop/current', async () => {
    const nowMs = Date.now();
    if (dropCache && dropCache.expiresAt > nowMs) return dropCache.body;
    const rows = statements.activeCampaigns.all(nowMs, nowMs) as Record<string, any>[];
    const ids = rows.map((row) => row.id);
    const placeholders = ids.map(() => '?').join(',') || 'null';
    const rewards = db
      .prepare(`select * from drop_rewards where campaign_id in (${placeholders}) order by campaign_id, position`)
      .all(...ids) as Record<string, any>[];
    const channels = db
      .prepare(`select * from drop_channels where campaign_id in (${placeholders}) order by campaign_id, position`)
      .all(...ids) as Record<string, any>[];
    const next = (statements.nextStart.get(nowMs) as { at: number | null }).at;
    const expiresAt = Math.min(nowMs + DROP_TTL_MS, ...rows.map((row) => row.ends_at), ...(next ? [next] : []));
    const items = rows.map((row) => ({
      id: row.id,
      campaignId: row.campaign_id,
      name: row.name,
      game: row.game,
      description: row.description,
      imageUrl: row.image_url,
      detailsUrl: row.details_url,
      startsAt: iso(row.starts_at),
      endsAt: iso(row.ends_at),
      status: 'active',
      rewards: rewards
        .filter((r) => r.campaign_id === row.id)
        .map((r) => ({ name: r.name, imageUrl: r.image_url, requiredMinutes: r.required_minutes })),
      channels: channels.filter((c) => c.campaign_id === row.id).map((c) => ({ name: c.name, url: c.url })),
    }));
    const body = ok({ items, generatedAt: iso(nowMs), expiresAt: iso(expiresAt), cache: 'hit' });
    dropCache = { body, expiresAt };
    return body;
  });
}

/** POST /api/user/signin: argon2 verification and a new session row, as ours. */
export function registerSignInRoute(app: FastifyInstance, statements: TPeerStatements): void {
  app.post('/api/user/signin', async (request, reply) => {
    const body = (request.body ?? {}) as { username?: string; password?: string };
    if (typeof body.username !== 'string' || typeof body.password !== 'string')
      return fail(reply, 400, 'username and password are required');
    const key = body.username.toLowerCase();
    const user = (key.includes('@') ? statements.userByEmail : statements.userByName).get(key) as
      | Record<string, any>
      | undefined;
    const valid = user ? await verify(user.password_hash, body.password).catch(() => false) : false;
    if (!user || !valid) return fail(reply, 401, 'Wrong username or password');
    const token = randomBytes(20).toString('base64url');
    const nowMs = Date.now();
    statements.insertSession.run(
      createHash('sha256').update(token).digest('hex'),
      user.id,
      nowMs + SESSION_LIFETIME_MS,
      nowMs,
    );
    return ok({
      token,
      expiresAt: iso(nowMs + SESSION_LIFETIME_MS),
      user: {
        id: user.id,
        username: user.username,
        email: user.email,
        role: user.role,
        createdAt: iso(user.created_at),
      },
    });
  });
}
