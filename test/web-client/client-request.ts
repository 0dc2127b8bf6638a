// How the community web client (GlowProw/website) calls the API, for the replay suites of this folder:
// its axios wrapper (src/assets/sripts/http.ts, http_util.ts) sends `http.post(url, {data})`'s `data`
// as the JSON body, GET `params` as the query string (axios leaves out null and undefined values), and
// the token in `x-access-token`. `handleResponse` (src/assets/sripts/api/api-util.ts:20-37) hands the
// whole body on as `result.data`, so a view's `result.data.data.x` is the envelope's `data.x`.
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { rest, type TRestResponse } from '../support/http-clients';

export const DEMO_PASSWORD = 'tidewatch-demo';

export type TClientParams = Record<string, string | number | boolean | null | undefined>;

/** An answer as the client reads it: the envelope, and the fields some views read beside it (docs/compatibility.md). */
export type TClientResponse = TRestResponse & { body: TRestResponse['body'] & Record<string, any> };

/** One request as the client sends it. */
export function send(
  app: TTestServer,
  method: string,
  path: string,
  options: { token?: string; params?: TClientParams; data?: unknown } = {},
): Promise<TClientResponse> {
  const entries = Object.entries(options.params ?? {}).filter(
    (entry): entry is [string, string | number | boolean] => entry[1] !== null && entry[1] !== undefined,
  );
  const query =
    entries.length > 0
      ? `?${new URLSearchParams(entries.map(([key, value]): [string, string] => [key, String(value)]))}`
      : '';
  return rest(app.url, method, `/api/${path}${query}`, {
    headers: options.token ? { 'x-access-token': options.token } : {},
    ...(options.data !== undefined && { body: options.data }),
  });
}

/** Signs a demo account in and returns its token. */
export async function signIn(app: TTestServer, username: string): Promise<string> {
  const response = await rest(app.url, 'POST', '/api/user/signin', { body: { username, password: DEMO_PASSWORD } });
  assert.is(response.status, 200, response.text);
  return response.body.data.token;
}

/** The context of a replay suite: a demo server, captain (the admin) and deckhand signed in. */
export interface TDemoClient {
  app: TTestServer;
  captain: string;
  deckhand: string;
  deckhandId: string;
}

/** Starts a demo server and signs captain and deckhand in, as a replay suite's `before` does. */
export async function startDemoClient(context: Partial<TDemoClient>): Promise<void> {
  context.app = await startTestServer({ SEED_DEMO: true });
  context.captain = await signIn(context.app, 'captain');
  context.deckhand = await signIn(context.app, 'deckhand');
  context.deckhandId = (await send(context.app, 'GET', 'user/me', { token: context.deckhand })).body.data.userId;
}
