/**
 * The peer baseline: what a developer would write by hand instead of Tidewatch. Fastify plus
 * better-sqlite3 prepared statements, the same SQL as our services, the same envelope and field
 * names, no validation library, no tRPC, no per-request context. Only what the benchmark drives.
 *
 *   node --import tsx bench/peer/server.ts <database file> <port> [--equipped [--log <file>]]
 *
 * Like ours, /drop/current is served from a short-lived cache (the contract says so). Assembly list
 * pages are not cached: a hand-written service would query each time.
 *
 * `--equipped`: the same service with what ours does on every request, each the stock Fastify way
 * (bench/README.md, "The equipped peer"): security headers (@fastify/helmet, with our CSP), a
 * per-client rate limit counted in memory (@fastify/rate-limit, a limit no benchmark reaches), a
 * request id and one info log line per request (Fastify's pino, to `--log <file>` or a file in a new
 * temporary directory, never stdout) and a weak ETag on every answer (@fastify/etag, 304 on a match).
 */
import { randomBytes, randomUUID, createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { verify } from '@node-rs/argon2';
import fastifyEtag from '@fastify/etag';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import Database from 'better-sqlite3';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

const RATING_PRIOR_MEAN = 3;
const RATING_PRIOR_COUNT = 5;
const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const DROP_TTL_MS = 30_000;
const HISTORY_RANGES = { '1h': [60_000, 60], '1d': [900_000, 96], '7d': [3_600_000, 168] } as const;

const { positionals, values: options } = parseArgs({
  allowPositionals: true,
  options: { equipped: { type: 'boolean', default: false }, log: { type: 'string' } },
});
const [file, portArg] = positionals;
if (!file) throw new Error('usage: bench/peer/server.ts <database file> <port> [--equipped [--log <file>]]');
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');

const round2 = (value: number) => Math.round(value * 100) / 100;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

// The same form as ours (selectRows in server/domains/assembly/queries.ts): the creator's name and the hull through
// correlated scalar subqueries, three times cheaper per row than joins with better-sqlite3 12.
const hull = (column: string) => `(select h.${column} from catalog_hulls h where h.id = a.ship_id)`;
const ASSEMBLY_COLUMNS = `a.id, a.uuid, a.name, a.ship_id, a.weapons, a.armor, a.furnitures, a.description, a.tags, a.is_public,
  a.password_hash, a.creator_id, (select u.username from users u where u.id = a.creator_id) as creator_name, a.likes,
  (select v.views from assembly_views v where v.assembly_id = a.id) as views,
  a.rating_sum, a.rating_count, a.created_at, a.updated_at, a.deleted_at, ${hull('id')} as hull_id, ${hull('size')} as hull_size,
  ${hull('archetype')} as hull_archetype
  from assemblies a`;

type TAssemblyRow = Record<string, any>;

function summary(row: TAssemblyRow) {
  const n = row.rating_count as number;
  return {
    uuid: row.uuid,
    name: row.name,
    shipId: row.ship_id,
    ship: row.hull_id ? { id: row.hull_id, size: row.hull_size, archetype: row.hull_archetype } : null,
    description: row.description,
    tags: JSON.parse(row.tags),
    isPublic: row.is_public === 1,
    hasPassword: row.password_hash !== null,
    creator: { id: row.creator_id, username: row.creator_name },
    likes: row.likes,
    views: row.views,
    rating: {
      average: n > 0 ? round2(row.rating_sum / n) : null,
      count: n,
      smoothed: round2((row.rating_sum + RATING_PRIOR_MEAN * RATING_PRIOR_COUNT) / (n + RATING_PRIOR_COUNT)),
    },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** Our service's cap (MAX_SEARCH_RESULTS): a keyword search pages through the newest 1,000 matches. */
const MAX_SEARCH_RESULTS = 1000;
const LISTABLE = 'a.deleted_at is null and a.is_public = 1';
const statements = {
  // Ours reads the listable count from the table its triggers keep (migration 0011), not count(*) over every row.
  listCount: db.prepare('select coalesce(sum(n), 0) as n from assembly_listable_counts'),
  listPage: db.prepare(`select ${ASSEMBLY_COLUMNS} where ${LISTABLE} order by a.id desc limit ? offset ?`),
  // The FTS5 index holds only listable assemblies (migration 0006): newest matches first, capped.
  searchCandidates: db.prepare(
    'select rowid as id from assemblies_fts where assemblies_fts match ? order by rowid desc limit ?',
  ),
  searchPage: db.prepare(
    `select ${ASSEMBLY_COLUMNS} where a.id in (select value from json_each(?)) and ${LISTABLE} order by a.id desc`,
  ),
  item: db.prepare(`select ${ASSEMBLY_COLUMNS} where a.uuid = ?`),
  // Views live in their own table (migration 0017): the row of a live assembly by id.
  countView: db.prepare(
    'update assembly_views set views = views + 1 where assembly_id = ? and exists (select 1 from assemblies a where a.id = ? and a.deleted_at is null) returning views',
  ),
  activeCampaigns: db.prepare(
    'select * from drop_campaigns where starts_at <= ? and ends_at > ? order by ends_at asc, id asc',
  ),
  nextStart: db.prepare('select min(starts_at) as at from drop_campaigns where starts_at > ?'),
  currentSeason: db.prepare(
    'select * from seasons where starts_at <= ? order by (ends_at > ?) desc, starts_at desc limit 1',
  ),
  latestSnapshot: db.prepare('select * from war_snapshots where season_id = ? order by captured_at desc limit 1'),
  companies: db.prepare('select * from war_companies'),
  zones: db.prepare('select * from war_zones'),
  snapshotScores: db.prepare('select * from war_company_scores where snapshot_id = ?'),
  snapshotZones: db.prepare('select * from war_zone_control where snapshot_id = ? order by zone_id asc'),
  snapshotHotspots: db.prepare('select * from war_hotspots where snapshot_id = ? order by id asc'),
  lastCapture: db.prepare('select max(captured_at) as at from war_snapshots where season_id = ?'),
  historyBuckets: db.prepare(
    `select cast((captured_at - ?) / ? as integer) as bucket, count(*) as n, max(captured_at) as last_at, id as last_id
     from war_snapshots where season_id = ? and captured_at >= ? and captured_at < ? group by bucket`,
  ),
  historyCompanies: db.prepare(
    `select cast((s.captured_at - ?) / ? as integer) as bucket, c.company_id, avg(c.score) as average, min(c.score) as min, max(c.score) as max
     from war_snapshots s join war_company_scores c on c.snapshot_id = s.id
     where s.season_id = ? and s.captured_at >= ? and s.captured_at < ? group by bucket, c.company_id`,
  ),
  userByName: db.prepare('select * from users where username_key = ?'),
  userByEmail: db.prepare('select * from users where email = ?'),
  insertSession: db.prepare('insert into sessions (id, user_id, expires_at, created_at) values (?, ?, ?, ?)'),
};

function ftsQuery(keyword: string): string | null {
  const words = keyword
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .slice(0, 16)
    // As ours: every word as a prefix.
    .map((word) => `"${word.replace(/"/g, '""')}"*`);
  return words.length ? words.join(' ') : null;
}

function seasonOut(row: Record<string, any>, nowMs: number) {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    number: row.number,
    startDate: row.start_date,
    endDate: row.end_date,
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    status: nowMs < row.starts_at ? 'upcoming' : nowMs < row.ends_at ? 'active' : 'ended',
  };
}

function companyMap() {
  return new Map(
    (statements.companies.all() as Record<string, any>[]).map((row) => [row.id, { name: row.name, color: row.color }]),
  );
}

let dropCache: { body: object; expiresAt: number } | undefined;

/** The per-client limit of the equipped peer: counted like ours, per minute and client address, but never reached by a benchmark. */
const EQUIPPED_RATE_LIMIT = 1_000_000_000;

/** What the equipped peer adds, registered (awaited) before the routes so that their hooks apply to every one. */
async function equip(server: FastifyInstance): Promise<void> {
  await server.register(fastifyHelmet, {
    // Our security headers (server/http/security.ts): the same CSP and resource policy; HSTS on, as ours in production.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
  // In memory (the plugin's default LRU store), keyed by the client address, with the limit headers on every answer.
  await server.register(fastifyRateLimit, { global: true, max: EQUIPPED_RATE_LIMIT, timeWindow: 60_000 });
  await server.register(fastifyEtag, { weak: true });
  server.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}

/** One log line per finished request, as ours writes (Fastify's default is two: "incoming request" and "request completed"). */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      route: request.routeOptions.url ?? '(unmatched)',
      path: request.url.split('?', 1)[0],
      status: reply.statusCode,
      durationMs: reply.elapsedTime,
    };
    if (error || reply.statusCode >= 500) request.log.error({ ...line, err: error }, 'request');
    else request.log.info(line, 'request');
  }
}

const logFile = options.equipped
  ? (options.log ?? join(mkdtempSync(join(tmpdir(), 'tidewatch-peer-log-')), 'requests.log'))
  : undefined;
const app = logFile
  ? Fastify({
      logger: { level: 'info', file: logFile },
      logController: new OneLinePerRequest(),
      requestIdHeader: 'x-request-id',
      genReqId: () => randomUUID(),
    })
  : Fastify({ logger: false });
if (options.equipped) await equip(app);
const ok = (data: unknown) => ({ code: 200, message: 'success', data });
const fail = (reply: any, code: number, message: string) => reply.code(code).send({ code, message, data: {} });

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

app.get('/api/stateOfWar/latest', async (_request, reply) => {
  const nowMs = Date.now();
  const season = statements.currentSeason.get(nowMs, nowMs) as Record<string, any> | undefined;
  if (!season) return fail(reply, 404, 'No season has started yet');
  const snapshot = statements.latestSnapshot.get(season.id) as Record<string, any> | undefined;
  if (!snapshot) return fail(reply, 404, 'No war snapshot recorded yet');
  const companies = companyMap();
  const zoneNames = new Map((statements.zones.all() as Record<string, any>[]).map((row) => [row.id, row.name]));
  const scores = statements.snapshotScores.all(snapshot.id) as Record<string, any>[];
  const zones = statements.snapshotZones.all(snapshot.id) as Record<string, any>[];
  const hotspots = statements.snapshotHotspots.all(snapshot.id) as Record<string, any>[];
  const held = new Map<string, number>();
  for (const zone of zones)
    if (zone.controller_id) held.set(zone.controller_id, (held.get(zone.controller_id) ?? 0) + 1);
  const company = (id: string) => companies.get(id) ?? { name: id, color: '#808080' };
  return ok({
    season: seasonOut(season, nowMs),
    capturedAt: iso(snapshot.captured_at),
    companies: scores
      .map((s) => ({
        id: s.company_id,
        ...company(s.company_id),
        score: s.score,
        zonesControlled: held.get(s.company_id) ?? 0,
      }))
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
      .map((entry, index) => ({ ...entry, rank: index + 1 })),
    zones: zones.map((zone) => ({
      id: zone.zone_id,
      name: zoneNames.get(zone.zone_id) ?? zone.zone_id,
      controller: zone.controller_id ? { id: zone.controller_id, ...company(zone.controller_id) } : null,
      scores: Object.entries(JSON.parse(zone.scores) as Record<string, number>)
        .map(([companyId, score]) => ({ companyId, name: company(companyId).name, score }))
        .sort((a, b) => b.score - a.score || a.companyId.localeCompare(b.companyId)),
    })),
    hotspots: hotspots.map((h) => ({
      zoneId: h.zone_id,
      zoneName: zoneNames.get(h.zone_id) ?? h.zone_id,
      name: h.name,
      kind: h.kind,
      endsAt: iso(h.ends_at),
    })),
  });
});

app.get('/api/stateOfWar/history', async (request, reply) => {
  const range = ((request.query as Record<string, string | undefined>).range ?? '1d') as keyof typeof HISTORY_RANGES;
  if (!(range in HISTORY_RANGES)) return fail(reply, 400, 'Invalid input: range: must be one of 1h, 1d, 7d');
  const [bucketMs, bucketCount] = HISTORY_RANGES[range];
  const nowMs = Date.now();
  const season = statements.currentSeason.get(nowMs, nowMs) as Record<string, any> | undefined;
  if (!season) return fail(reply, 404, 'No season has started yet');
  const base = { season: seasonOut(season, nowMs), range, bucketSeconds: bucketMs / 1000 };
  const last = (statements.lastCapture.get(season.id) as { at: number | null }).at;
  if (last === null) return ok({ ...base, from: null, to: null, lastSnapshotAt: null, buckets: [] });
  const lastBucketStart = Math.floor(last / bucketMs) * bucketMs;
  const fromMs = lastBucketStart - (bucketCount - 1) * bucketMs;
  const toMs = lastBucketStart + bucketMs;
  const perBucket = statements.historyBuckets.all(fromMs, bucketMs, season.id, fromMs, toMs) as Record<string, any>[];
  const perCompany = statements.historyCompanies.all(fromMs, bucketMs, season.id, fromMs, toMs) as Record<
    string,
    any
  >[];
  const lastIds = perBucket.map((row) => row.last_id as number);
  const marks = lastIds.map(() => '?').join(',') || 'null';
  const closing = db
    .prepare(`select * from war_company_scores where snapshot_id in (${marks})`)
    .all(...lastIds) as Record<string, any>[];
  const heldRows = db
    .prepare(
      `select snapshot_id, controller_id, count(*) as n from war_zone_control where snapshot_id in (${marks}) and controller_id is not null group by snapshot_id, controller_id`,
    )
    .all(...lastIds) as Record<string, any>[];
  const names = companyMap();
  const closingScore = new Map(closing.map((row) => [`${row.snapshot_id}/${row.company_id}`, row.score]));
  const heldCount = new Map(heldRows.map((row) => [`${row.snapshot_id}/${row.controller_id}`, row.n]));
  const stats = new Map(perBucket.map((row) => [row.bucket, row]));
  const byBucket = new Map<number, Record<string, any>[]>();
  for (const row of perCompany) {
    const list = byBucket.get(row.bucket) ?? [];
    list.push(row);
    byBucket.set(row.bucket, list);
  }
  const buckets = Array.from({ length: bucketCount }, (_, index) => {
    const start = fromMs + index * bucketMs;
    const stat = stats.get(index);
    return {
      start: iso(start),
      end: iso(start + bucketMs),
      snapshotCount: stat?.n ?? 0,
      lastSnapshotAt: stat ? iso(stat.last_at) : null,
      companies: (byBucket.get(index) ?? [])
        .map((row) => {
          const company = names.get(row.company_id) ?? { name: row.company_id, color: '#808080' };
          const key = `${stat!.last_id}/${row.company_id}`;
          return {
            id: row.company_id,
            name: company.name,
            color: company.color,
            score: closingScore.get(key) ?? 0,
            average: round2(row.average),
            min: row.min,
            max: row.max,
            zonesControlled: heldCount.get(key) ?? 0,
          };
        })
        .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id)),
    };
  });
  return ok({ ...base, from: iso(fromMs), to: iso(toMs), lastSnapshotAt: iso(last), buckets });
});

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
    user: { id: user.id, username: user.username, email: user.email, role: user.role, createdAt: iso(user.created_at) },
  });
});

await app.listen({ port: Number(portArg ?? 3101), host: '127.0.0.1' });
console.log(`peer${logFile ? ` (equipped, request log ${logFile})` : ''} listening on ${portArg ?? 3101}`);
// A clean exit on SIGTERM, so `node --cpu-prof` (bench/profile.ts) writes its profile.
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
