// Who is calling: the signed-in session a call carries (`ctx.auth`). The user domain reads it from the
// access token (domains/user/session.ts, given to the app as `deps.validateSession`); the base
// procedures check it (trpc.ts).
import type { users } from '../db/schema';

/** The account of a signed-in session: the columns the session read loads. */
export type TSessionUser = Pick<typeof users.$inferSelect, 'id' | 'username' | 'email' | 'role' | 'createdAt'>;

/**
 * The account's state as its grants in force say (issue 35, docs/privileges.md), read with the
 * session: `blacklisted` writes nothing, `freezed` has no working session (and cannot sign in).
 */
export type TAccountState = 'active' | 'blacklisted' | 'freezed';

export interface TAuth {
  sessionId: string;
  expiresAt: Date;
  user: TSessionUser;
  accountState: TAccountState;
}
