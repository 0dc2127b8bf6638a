// The comments suites' shared set-up (issue 19): a test server with the community sample, an admin and three
// accounts, and the calls the suites make on REST.
import type { TUser } from '../assembly/fixtures';
import type { TTestServer } from '../support/helpers';
import { importCommunitySample } from '../support/community-sample';
import { batchClient, statusOf } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { serverSuite, type TServerConfig } from '../support/server-suite';

/** The captcha key of the comments' test servers: the captcha suite opens its answers with it. */
export const HMAC_KEY = 'comment-suite-captcha-key-0123';

export interface TContext {
  app: TTestServer;
  owner: TUser;
  fan: TUser;
  other: TUser;
  admin: TUser;
}

/**
 * A suite of the comments' tests: a test server (with `overrides` of its config) holding the community sample,
 * an admin, and three accounts: owner (publishes the assemblies), fan and other.
 */
export function commentsSuite(name: string, overrides: TServerConfig = {}) {
  return serverSuite<Omit<TContext, 'app'>>(name, {
    config: { CAPTCHA_HMAC_KEY: HMAC_KEY, ...overrides },
    setUp: async (context) => {
      context.admin = await signUpAdmin(context.app);
      await importCommunitySample(context.app, context.admin);
      context.owner = await context.app.signUp();
      context.fan = await context.app.signUp();
      context.other = await context.app.signUp();
    },
  });
}

/** POST /api/comment on an assembly, with the body's `extra` fields (captcha, password). */
export const post = (
  app: TTestServer,
  token: string | undefined,
  targetId: string,
  content: string,
  extra: Record<string, unknown> = {},
) => app.rest('POST', '/api/comment', { token, body: { targetId, targetType: 'assembly', content, ...extra } });

/** GET /api/comment/comments of an assembly, `query` appended ('&page=2'). */
export const listOf = (app: TTestServer, targetId: string, query = '', token?: string) =>
  app.rest('GET', `/api/comment/comments?targetType=assembly&targetId=${targetId}${query}`, { token });

/**
 * The statuses of `tokens` deleting comment `id` at once: as concurrent REST requests, or as tRPC calls
 * each through a batch client of its own.
 */
export function deletesAtOnce(app: TTestServer, surface: 'REST' | 'tRPC', tokens: string[], id: string) {
  return Promise.all(
    tokens.map((token) =>
      surface === 'REST'
        ? app.rest('POST', '/api/comment/delete', { token, body: { id } }).then((response) => response.status)
        : statusOf(batchClient(app.url, { token, maxItems: 10 }).client.comment.delete.mutate({ id })),
    ),
  );
}
