/**
 * A typed REST client of Tidewatch with the @tidewatch/client package (docs/client.md): openapi-fetch
 * over the `paths` types its build generates from the app's OpenAPI document.
 *
 *   npm run client:build     # generates the types; only needed to type-check (tsc -p examples/rest-client)
 *   TIDEWATCH_URL=http://127.0.0.1:3000 node --import tsx examples/rest-client/client.ts
 *
 * A front end imports from '@tidewatch/client/rest'; inside this repository the example imports the
 * package's source. Every path, query, body and response below is checked against the `paths` type.
 */
import { pathToFileURL } from 'node:url';
import { createTidewatchRestClient } from '../../packages/client/src/rest';

export interface TRestClientResult {
  health: string;
  username: string;
  email: string;
  publicProfileHasEmail: boolean;
  unauthorized: { status: number; message: string };
}

export async function run(baseUrl: string): Promise<TRestClientResult> {
  let token: string | undefined;
  // The token is read before every request: the client is made once, before signing up.
  const api = createTidewatchRestClient(baseUrl, { token: () => token });

  const health = await api.GET('/health');
  if (!health.data) throw new Error(`health failed: ${health.response.status}`);

  const anonymous = await api.GET('/user/me');

  const username = `rest_${Date.now().toString(36)}`;
  const signup = await api.POST('/user/signup', {
    body: { username, email: `${username}@example.com`, password: 'pieces of eight' },
  });
  if (!signup.data) throw new Error(`signup failed: ${signup.error?.message}`);
  token = signup.data.data.token;

  const me = await api.GET('/user/me');
  if (!me.data) throw new Error(`me failed: ${me.error?.message}`);

  const info = await api.GET('/user/info', { params: { query: { id: signup.data.data.userId } } });
  if (!info.data) throw new Error(`info failed: ${info.error?.message}`);

  // Never called: tsc must refuse these lines, or the generated types would be too loose to help.
  const typeChecks = () => {
    // @ts-expect-error the generated types know every path: this one does not exist
    void api.GET('/user/no-such-path');
    // @ts-expect-error sign-up needs an e-mail
    void api.POST('/user/signup', { body: { username, password: 'pieces of eight' } });
  };
  void typeChecks;

  return {
    health: health.data.data.status,
    username: me.data.data.username,
    email: me.data.data.email,
    publicProfileHasEmail: 'email' in info.data.data,
    unauthorized: { status: anonymous.response.status, message: anonymous.error?.message ?? '' },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run(process.env.TIDEWATCH_URL ?? 'http://127.0.0.1:3000').then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
