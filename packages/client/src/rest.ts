/**
 * @tidewatch/client/rest: an openapi-fetch client of Tidewatch's REST surface (/api), typed by the
 * `paths` generated from the server's own OpenAPI document when the package is built.
 *
 *   const api = createTidewatchRestClient('http://127.0.0.1:3000', { token });
 *   const { data, error } = await api.GET('/assembly/list', { params: { query: { page: 1 } } });
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/openapi';
import { authorizationHeader, serverBase, type TidewatchClientOptions } from './token';

export type { TidewatchClientOptions, TokenSource } from './token';
export type { paths };
export type TidewatchRestClient = Client<paths>;

/**
 * A REST client of the server at `url` (its base address, e.g. http://127.0.0.1:3000). Every answer is
 * the `{ code, message, data }` envelope: `data` on success, `error` with the same shape otherwise.
 */
export function createTidewatchRestClient(url: string, options: TidewatchClientOptions = {}): TidewatchRestClient {
  const client = createClient<paths>({ baseUrl: `${serverBase(url)}/api` });
  client.use({
    onRequest({ request }) {
      for (const [name, value] of Object.entries(authorizationHeader(options.token))) request.headers.set(name, value);
      return request;
    },
  });
  return client;
}
