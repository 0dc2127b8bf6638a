import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { prepared } from '../../../db/prepared';
import { sessions, users } from '../../../db/schema';
import type { TAuth } from '../../auth';
import type { TDepsOf } from '../../deps';
import { accountStateSql } from '../privilege';

/** Lucia's session design: random token to the client, its SHA-256 in the database. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const RENEW_WHEN_LEFT_MS = SESSION_LIFETIME_MS / 2;

export function generateSessionToken(): string {
  return encodeBase32LowerCaseNoPadding(randomBytes(20));
}

export function sessionIdFromToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

/** A new session's token (for the client), its id (the token's hash) and its expiry. */
function newSession(now: Date) {
  const token = generateSessionToken();
  return { token, id: sessionIdFromToken(token), expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS) };
}

export async function createSession(deps: TDepsOf<'db' | 'now'>, { userId }: { userId: string }) {
  const now = deps.now();
  const { token, id, expiresAt } = newSession(now);
  await deps.db.insert(sessions).values({ id, userId, expiresAt, createdAt: now });
  return { token, expiresAt };
}

/**
 * A session, only if the account's password hash is still `passwordHash`: checked and inserted by one
 * statement (atomic on its own, one round trip on a libSQL server), prepared once per database. A
 * password change ends every session in its transaction: a session made before it is ended with the
 * rest, and none can be made from the old password after it. Undefined when the hash has changed.
 */
export async function createSessionIfPassword(
  deps: TDepsOf<'db' | 'now'>,
  { userId, passwordHash }: { userId: string; passwordHash: string },
) {
  const now = deps.now();
  const { token, id, expiresAt } = newSession(now);
  const query = prepared(deps.db, 'session.createIfPassword', (d) =>
    d
      .insert(sessions)
      .select(
        sql`select ${sql.placeholder('id')}, ${users.id}, ${sql.placeholder('expiresAtMs')}, ${sql.placeholder('createdAtMs')}
          from ${users} where ${users.id} = ${sql.placeholder('userId')} and ${users.passwordHash} = ${sql.placeholder('passwordHash')}`,
      )
      .returning({ id: sessions.id })
      .prepare(),
  );
  const created = await query.all({
    id,
    userId,
    passwordHash,
    expiresAtMs: expiresAt.getTime(),
    createdAtMs: now.getTime(),
  });
  return created.length > 0 ? { token, expiresAt } : undefined;
}

/**
 * Every signed-in call's one statement, prepared once per database: over `users` alone, the session
 * read through scalar subqueries (a join of the two with the token bound is re-prepared on every call
 * once the database has been analyzed: see selectRows in domains/assembly/queries.ts and
 * bench/README.md, issue 22), with the account's state (issue 35) read in it.
 */
function sessionQuery(db: TDb) {
  return prepared(db, 'session.validate', (d) => {
    const ofSession = (column: typeof sessions.userId | typeof sessions.expiresAt) =>
      sql`(select ${column} from ${sessions} where ${sessions.id} = ${sql.placeholder('sessionId')})`;
    return d
      .select({
        expiresAt: ofSession(sessions.expiresAt).mapWith(sessions.expiresAt),
        // Blacklisted or frozen (issue 35): read with the session, checked once by the base procedures (trpc.ts).
        accountState: accountStateSql(users.id, sql.placeholder('nowMs')),
        user: {
          id: users.id,
          username: users.username,
          email: users.email,
          role: users.role,
          createdAt: users.createdAt,
        },
      })
      .from(users)
      .where(eq(users.id, ofSession(sessions.userId)))
      .prepare();
  });
}

/** Returns the session's user and its account state, or null for an unknown or expired token. Slides the expiry when half used. */
export async function validateSessionToken(
  deps: TDepsOf<'db' | 'now'>,
  { token }: { token: string },
): Promise<TAuth | null> {
  const now = deps.now();
  const { db } = deps;
  const sessionId = sessionIdFromToken(token);
  const row = await sessionQuery(db).get({ sessionId, nowMs: now.getTime() });
  if (!row) return null;
  if (now.getTime() >= row.expiresAt.getTime()) {
    await db.delete(sessions).where(eq(sessions.id, sessionId));
    return null;
  }
  let expiresAt = row.expiresAt;
  if (expiresAt.getTime() - now.getTime() < RENEW_WHEN_LEFT_MS) {
    expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
    await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, sessionId));
  }
  return { sessionId, expiresAt, user: row.user, accountState: row.accountState };
}

export async function invalidateSession(deps: TDepsOf<'db'>, { sessionId }: { sessionId: string }): Promise<void> {
  await deps.db.delete(sessions).where(eq(sessions.id, sessionId));
}

export async function invalidateUserSessions(deps: TDepsOf<'db'>, { userId }: { userId: string }): Promise<void> {
  await deps.db.delete(sessions).where(eq(sessions.userId, userId));
}
