/**
 * Starting and stopping test servers: the real app on a free port over a fresh database (with its
 * clock, its REST and tRPC clients and a sign-up), the driver and limits it runs with, and the REST
 * adapter alone over any router.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyRouter } from '@trpc/server';
import { pino } from 'pino';
import type { TDatabaseDriver } from '../../db/client';
import { createDeps } from '../../server/app';
import { configWith, type TConfig } from '../../server/config';
import { createContext } from '../../server/context';
import { RouteTable } from '../../server/rest/routes';
import { createRestHandler } from '../../server/rest/handler';
import { startServer, type TRunningServer } from '../../server/server';
import { rest, type TRestOptions, type TRestResponse, trpcClient } from './http-clients';
import { startSqld, TEST_SQLD } from './sqld';

/** A controllable clock: tests move time forward instead of waiting. */
export class TestClock {
  offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export function silentLogger() {
  return pino({ level: (process.env.TEST_LOG_LEVEL as 'silent' | undefined) ?? 'silent' });
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
