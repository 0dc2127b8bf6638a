import { solveChallenge } from 'altcha-lib';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyRouter } from '@trpc/server';
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import { pino } from 'pino';
import superjson from 'superjson';
import { eq, inArray } from 'drizzle-orm';
import type { TDatabaseDriver, TDb } from '../../db/client';
import { assemblies, assemblyViews } from '../../db/schema';
import { createDeps } from '../../server/app';
import { configWith, type TConfig } from '../../server/config';
import { createContext } from '../../server/context';
import { setRole } from '../../server/domains/user/account';
import { RouteTable } from '../../server/rest/routes';
import { createRestHandler } from '../../server/rest/handler';
import type { AppRouter } from '../../server/router';
import { startServer, type TRunningServer } from '../../server/server';
import { startSqld, TEST_SQLD } from './sqld';

export interface TRestResponse<T = any> {
  status: number;
  headers: Headers;
  body: { code: number; message: string; data: T };
  text: string;
}

export interface TRestOptions {
  body?: unknown;
  /** Sent verbatim instead of JSON-encoding `body`. */
  rawBody?: string | Buffer;
  token?: string;
  headers?: Record<string, string>;
}

/** A controllable clock: tests move time forward instead of waiting. */
export class TestClock {
  offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** Solves an ALTCHA challenge (as GET /api/captcha returns it) and encodes the solution as the `captchaCode` clients send. */
export async function solveCaptcha(
  challenge: { algorithm: string; challenge: string; salt: string; signature: string; maxnumber?: number },
  tamper?: (payload: Record<string, unknown>) => void,
): Promise<string> {
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber)
    .promise;
  if (!solution) throw new Error('captcha challenge not solvable');
  const payload: Record<string, unknown> = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number: solution.number,
    salt: challenge.salt,
    signature: challenge.signature,
  };
  tamper?.(payload);
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/** The stored view counts (assembly_views, migration 0017) of assemblies by uuid, in the order given; undefined for an unknown one. */
export async function storedViewsOf(db: TDb, uuids: string[]): Promise<(number | undefined)[]> {
  const rows = await db
    .select({ uuid: assemblies.uuid, views: assemblyViews.views })
    .from(assemblies)
    .innerJoin(assemblyViews, eq(assemblyViews.assemblyId, assemblies.id))
    .where(inArray(assemblies.uuid, uuids));
  const byUuid = new Map(rows.map((row) => [row.uuid, row.views]));
  return uuids.map((uuid) => byUuid.get(uuid));
}

export function silentLogger() {
  return pino({ level: (process.env.TEST_LOG_LEVEL as 'silent' | undefined) ?? 'silent' });
}

export async function rest<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: TRestOptions = {},
): Promise<TRestResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export function trpcClient(baseUrl: string, token?: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${baseUrl}/trpc`,
        transformer: superjson,
        headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
      }),
    ],
  });
}

/**
 * A real tRPC client with the batch link: calls made in the same tick go out as one HTTP request.
 * `sent.requests` counts the requests it made, so a test can show its calls travelled as one batch.
 */
export function batchClient(
  baseUrl: string,
  options: { token?: string; headers?: Record<string, string>; maxItems?: number } = {},
) {
  const sent = { requests: 0 };
  const headers = { ...options.headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
  const client = createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${baseUrl}/trpc`,
        transformer: superjson,
        maxItems: options.maxItems ?? 50,
        // Batched queries travel in the URL; the server refuses URLs over 8 KiB.
        maxURLLength: 6000,
        headers: () => headers,
        fetch: (url, init) => {
          sent.requests++;
          return fetch(url, init as RequestInit);
        },
      }),
    ],
  });
  return { client, sent };
}

/** The HTTP status a tRPC call answered: 200, or its error's status. */
export async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (error) {
    if (error instanceof TRPCClientError) return (error.data as { httpStatus: number }).httpStatus;
    throw error;
  }
}

/** Runs a tRPC call expected to fail and returns its status and message. */
export async function trpcError(call: Promise<unknown>): Promise<{ status: number; message: string; data: any }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof TRPCClientError) {
      return { status: error.data?.httpStatus, message: error.message, data: error.data };
    }
    throw error;
  }
  throw new Error('expected the tRPC call to fail');
}

// A copy of the community data set's sample (glow-prow-data, AGPL-3.0), kept in the repo so tests need nothing outside it.
export const SAMPLE_DIR = join(import.meta.dirname, '..', 'fixtures', 'community-sample');

/** The community catalog sample in its import format: `ships.json` and `items.json`, keyed by id. */
export const COMMUNITY_SAMPLE = {
  ships: JSON.parse(readFileSync(join(SAMPLE_DIR, 'ships.json'), 'utf8')) as Record<string, any>,
  items: JSON.parse(readFileSync(join(SAMPLE_DIR, 'items.json'), 'utf8')) as Record<string, any>,
};

/** A valid loadout on a hull of COMMUNITY_SAMPLE: two demi-cannons on a hulk. */
export const HULK = {
  name: 'Hulk brawler',
  shipId: 'hulk',
  weapons: [
    { slot: 'leftSideWeapon' as const, itemId: 'demicannon1' },
    { slot: 'rightSideWeapon' as const, itemId: 'demicannon1' },
  ],
};

/** Signs up a fresh account and gives it the admin role (as the CLI does). */
export async function signUpAdmin(app: TTestServer): Promise<Awaited<ReturnType<TTestServer['signUp']>>> {
  const admin = await app.signUp();
  if (!(await setRole({ db: app.database.db }, { username: admin.username, role: 'admin' })))
    throw new Error(`setRole failed for ${admin.username}`);
  return admin;
}

/** Imports COMMUNITY_SAMPLE through the admin API and returns the import report. */
export async function importCommunitySample(app: TTestServer, admin: { token: string }): Promise<any> {
  const response = await app.rest('POST', '/api/admin/catalog/import', { token: admin.token, body: COMMUNITY_SAMPLE });
  if (response.status !== 200) throw new Error(`catalog import failed: ${response.text}`);
  return response.body.data;
}

export interface TTestServer extends TRunningServer {
  clock: TestClock;
  config: TConfig;
  rest: <T = any>(method: string, path: string, options?: TRestOptions) => Promise<TRestResponse<T>>;
  trpc: (token?: string) => ReturnType<typeof trpcClient>;
  /** Signs up a fresh account and returns its token and id. */
  signUp: (username?: string) => Promise<{ token: string; id: string; username: string; password: string }>;
  stop: () => Promise<void>;
}

let userCounter = 0;

export const GENEROUS_LIMITS = {
  RATE_LIMIT_GLOBAL: 1_000_000,
  RATE_LIMIT_SIGNIN: 1_000_000,
  RATE_LIMIT_SIGNIN_ACCOUNT: 1_000,
  RATE_LIMIT_SIGNUP: 1_000_000,
  RATE_LIMIT_CAPTCHA: 1_000_000,
  RATE_LIMIT_ORDERS: 1_000_000,
  RATE_LIMIT_COMMENTS: 1_000_000,
  RATE_LIMIT_AVATAR_UPLOADS: 1_000_000,
  RATE_LIMIT_FORKS: 1_000_000,
  RATE_LIMIT_ASSEMBLY_PASSWORD_CLIENT: 1_000,
  RATE_LIMIT_ASSEMBLY_PASSWORD: 1_000,
  RATE_LIMIT_TEAMUP_ANONYMOUS: 1_000_000,
  RATE_LIMIT_TEAMUP_ACCOUNT: 1_000_000,
} satisfies Partial<TConfig>;

/**
 * The driver under test: CI runs the whole suite once per driver. Tests that open a file the app
 * or the CLI also opens must use it too: two SQLite libraries in one process do not see each
 * other's POSIX locks, so one closing the file can pull the WAL from under the other.
 */
export const TEST_DRIVER: TDatabaseDriver | undefined =
  process.env.DATABASE_DRIVER === 'libsql' || TEST_SQLD ? 'libsql' : undefined;

/** The real app on a free port, over a fresh SQLite file. */
export async function startTestServer(overrides: Partial<TConfig> = {}): Promise<TTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-test-'));
  // Under TEST_DATABASE=sqld the database is a libSQL server of this test server's own, over HTTP.
  const sqld = TEST_SQLD ? await startSqld(join(dir, 'sqld')) : undefined;
  const config = configWith({
    PORT: 0,
    HOST: '127.0.0.1',
    DATABASE_URL: sqld ? sqld.url : `file:${join(dir, 'test.db')}`,
    DATABASE_DRIVER: TEST_DRIVER,
    SEED_DEMO: false,
    CAPTCHA_MAX_NUMBER: 2000,
    // Suites make many calls from one address; the hardening suite sets real limits.
    ...GENEROUS_LIMITS,
    ...overrides,
  });
  const clock = new TestClock();
  const running = await startServer(config, { logger: silentLogger(), now: clock.now }).catch(
    async (error: unknown) => {
      await sqld?.stop();
      throw error;
    },
  );
  const server: TTestServer = {
    ...running,
    clock,
    config,
    rest: (method, path, options) => rest(running.url, method, path, options),
    trpc: (token) => trpcClient(running.url, token),
    async signUp(username) {
      const name = username ?? `sailor${process.pid}x${++userCounter}`;
      const password = 'correct horse battery';
      const response = await rest(running.url, 'POST', '/api/user/signup', {
        body: { username: name, email: `${name}@example.test`, password },
      });
      if (response.status !== 200) throw new Error(`signUp failed: ${response.text}`);
      return { token: response.body.data.token, id: response.body.data.userId, username: name, password };
    },
    async stop() {
      // The suite is over: the clients' idle keep-alive connections go now, rather than after the
      // grace a production shutdown leaves connections that may not have sent their request yet.
      const closed = running.close();
      running.server.closeIdleConnections();
      await closed;
      await sqld?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

/** Serves any router through the real REST adapter, for tests of the adapter itself. */
export async function serveRestRouter(router: AnyRouter): Promise<{ url: string; close: () => Promise<void> }> {
  const deps = createDeps(configWith(), silentLogger());
  const handler = createRestHandler({
    routes: RouteTable.fromRouter(router),
    createContext: (req, identity, rawBody) => createContext({ req, db: undefined as never, deps, identity, rawBody }),
    onServerError: () => {},
    caches: deps.caches,
    nowMs: () => deps.now().getTime(),
    counters: { assemblyViews: (uuid) => deps.views.recordKnown(uuid) },
  });
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    void handler(req, res, url.pathname.replace(/^\/api/, ''), url.search.slice(1), {
      requestId: 'test-request',
      clientIp: req.socket.remoteAddress ?? 'unknown',
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
