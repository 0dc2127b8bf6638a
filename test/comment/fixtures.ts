// The comments suites' shared set-up (issue 19): a test server with the community sample, an admin and three
// accounts, and the calls the suites make on REST.
import type { TUser } from '../assembly/fixtures';
import { importCommunitySample, signUpAdmin, startTestServer, type TTestServer } from '../support/helpers';
import { suite } from '../support/suite';

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
export function commentsSuite(name: string, overrides: Parameters<typeof startTestServer>[0] = {}) {
  const comments = suite<TContext>(name);
  comments.before(async (context) => {
    context.app = await startTestServer({ CAPTCHA_HMAC_KEY: HMAC_KEY, ...overrides });
    context.admin = await signUpAdmin(context.app);
    await importCommunitySample(context.app, context.admin);
    context.owner = await context.app.signUp();
    context.fan = await context.app.signUp();
    context.other = await context.app.signUp();
  });
  comments.after(async ({ app }) => app.stop());
  return comments;
}

/** How many of each status: { 200: 1, 400: 2 }. */
export function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
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
