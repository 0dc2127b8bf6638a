// The set-up of the request logging and /metrics suites (ecosystem.test.ts, ecosystem-metrics.test.ts): the
// real app with the real logger configuration writing its JSON lines to memory, a suite on such a server of
// its own and a sign-up over REST.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { configWith, type TConfig } from '../../server/config';
import { createLogger } from '../../server/logger';
import { startServer, type TRunningServer } from '../../server/server';
import { GENEROUS_LIMITS, TestClock } from '../support/helpers';
import { rest } from '../support/http-clients';
import { suite } from '../support/suite';

export interface TLoggedServer extends TRunningServer {
  clock: TestClock;
  lines: () => Record<string, any>[];
  logText: () => string;
  stop: () => Promise<void>;
}

/** The real app with the real logger configuration, writing its JSON lines to memory. */
export async function startLoggedServer(overrides: Partial<TConfig> = {}): Promise<TLoggedServer> {
  const dir = mkdtempSync(join(tmpdir(), 'tidewatch-eco-'));
  const chunks: string[] = [];
  const logger = createLogger('info', { write: (chunk: string) => void chunks.push(chunk) });
  const clock = new TestClock();
  const running = await startServer(
    configWith({
      PORT: 0,
      DATABASE_URL: `file:${join(dir, 'eco.db')}`,
      SEED_DEMO: false,
      ...GENEROUS_LIMITS,
      ...overrides,
    }),
    { logger, now: clock.now },
  );
  const logText = () => chunks.join('');
  return {
    ...running,
    clock,
    logText,
    lines: () =>
      logText()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    async stop() {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A suite on a logged server of its own (with `overrides` over its configuration), stopped after its tests. */
export function loggedServerSuite(name: string, overrides: Partial<TConfig> = {}) {
  const tests = suite<{ server: TLoggedServer }>(name);
  tests.before(async (context) => {
    context.server = await startLoggedServer(overrides);
  });
  tests.after(async (context) => {
    await context.server.stop();
  });
  return tests;
}

/** Signs a new account up over REST: its token, its password and the request id of the sign-up. */
export async function signUp(url: string, username: string) {
  const password = `pw-${randomUUID()}`;
  const response = await rest(url, 'POST', '/api/user/signup', {
    body: { username, email: `${username}@example.test`, password },
  });
  assert.is(response.status, 200, response.text);
  return { token: response.body.data.token as string, password, requestId: response.headers.get('x-request-id')! };
}
