// Set-up shared by the user suites: the calls several files make.
import type { TTestServer } from '../support/helpers';

export type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

/** A day in milliseconds (sessions last 30 of them). */
export const DAY = 24 * 60 * 60 * 1000;

/** PUT /user/avatar with `body`, as `user` (or without a token). */
export const putAvatar = (app: TTestServer, user: TUser | undefined, body: unknown) =>
  app.rest('PUT', '/api/user/avatar', { token: user?.token, body });

/** The uploaded picture as a browser fetches it: the path userAvatar gives, under the server's origin. */
export const fetchAvatar = (app: TTestServer, path: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${path}`, { headers });
