// Procedures called in process, without HTTP: `appRouter.createCaller(createContextInner(...))` over a
// fresh migrated database. For service logic (formulas, validation matrices, state machines) where no
// HTTP is needed; each domain's HTTP suites still cover both surfaces, the envelope and access rules.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type TDatabase } from '../../db/client';
import { createDeps } from '../../server/app';
import { configWith, type TConfig } from '../../server/config';
import { createContextInner } from '../../server/context';
import { createAccount } from '../../server/domains/user/account';
import { createSession, validateSessionToken } from '../../server/domains/user/session';
import { appRouter } from '../../server/router';
import { GENEROUS_LIMITS, silentLogger, TEST_DRIVER, TestClock } from './helpers';

export type TCaller = ReturnType<typeof appRouter.createCaller>;

export interface TInProcessApp {
  database: TDatabase;
  clock: TestClock;
  deps: ReturnType<typeof createDeps>;
  /** A caller with no session. */
  anonymous: TCaller;
  /** Creates an account (role `user` or `admin`) and returns a caller signed in as it. */
  signUp: (options?: {
    username?: string;
    role?: 'user' | 'admin';
  }) => Promise<{ caller: TCaller; id: string; username: string }>;
  close: () => void;
}

let accountCounter = 0;

/** A migrated database on a fresh file, the app's deps on a test clock, and callers on both. */
export async function startInProcess(overrides: Partial<TConfig> = {}): Promise<TInProcessApp> {
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-caller-'));
  const config = configWith({
    DATABASE_URL: `file:${join(dir, 'test.db')}`,
    DATABASE_DRIVER: TEST_DRIVER,
    SEED_DEMO: false,
    ...GENEROUS_LIMITS,
    ...overrides,
  });
  const database = openDatabase(config.DATABASE_URL, { driver: config.DATABASE_DRIVER });
  await database.migrate();
  const clock = new TestClock();
  const deps = createDeps(config, silentLogger(), clock.now);
  const callerFor = (auth: Parameters<typeof createContextInner>[0]['auth']) =>
    appRouter.createCaller(
      createContextInner({ db: database.db, deps, auth, request: { headers: {}, clientIp: '127.0.0.9' } }),
    );
  return {
    database,
    clock,
    deps,
    anonymous: callerFor(null),
    async signUp(options = {}) {
      const username = options.username ?? `caller${process.pid}x${++accountCounter}`;
      const user = await createAccount(
        { db: database.db, now: clock.now },
        { username, email: `${username}@example.test`, password: 'correct horse battery', role: options.role },
      );
      const { token } = await createSession({ db: database.db, now: clock.now }, { userId: user.id });
      return {
        caller: callerFor(await validateSessionToken({ db: database.db, now: clock.now }, { token })),
        id: user.id,
        username,
      };
    },
    close() {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The tRPC error code (`NOT_FOUND`, `FORBIDDEN`…) a call in process fails with; throws if it succeeds. */
export async function errorCodeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return (error as { code: string }).code;
  }
  throw new Error('expected the call to fail');
}
