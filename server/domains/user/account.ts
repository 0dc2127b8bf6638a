/** Accounts: sign-up, sign-in, password change and roles. Profiles are in profile.ts, sessions in session.ts. */
import { randomUUID } from 'node:crypto';
import { and, eq, or, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { prepared } from '../../../db/prepared';
import { transaction } from '../../../db/transaction';
import { users } from '../../../db/schema';
import type { TSessionUser } from '../../auth';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { limitGuess } from '../../http/rate-limit';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../infra/password';
import { assertDisplayNameUnlike, assertUsernameUnlike, skeletonsOf } from './names';
import { accountStateOf, effectivePrivileges } from '../privilege';
import { roleNames, type TProfileRow } from './profile';
import type { TChangePasswordInput, TRole, TSignedIn, TSignInInput, TSignUpInput } from './schemas';
import { createSession, createSessionIfPassword, invalidateUserSessions } from './session';

const badCredentials = () => new AppError('UNAUTHORIZED', 'Wrong username or password', { key: 'signin.wrong' });

/** The signed-in account as the web client stores it (its UserLocalResult), with the profile's display name and avatar. */
export function toSignedIn(
  user: TSessionUser & Pick<TProfileRow, 'alternativeName' | 'avatarUrl'>,
  session: { token: string; expiresAt: Date },
  privilege: string[],
): TSignedIn {
  return {
    token: session.token,
    expiresAt: session.expiresAt.toISOString(),
    userId: user.id,
    username: user.username,
    alternativeName: user.alternativeName,
    userAvatar: user.avatarUrl,
    role: roleNames(user.role),
    email: user.email,
    privilege,
  };
}

export interface TNewAccount {
  username: string;
  email: string;
  password: string;
  role?: TRole;
  /** The display name given at sign-up, if any. */
  alternativeName?: string | null;
}

/**
 * Creates an account; 409 when the username (any case) or the e-mail is taken, when the username
 * looks like another account's username or display name, or the display name like another
 * account's username (names.ts). The checks and the insert are one transaction.
 */
export async function createAccount(
  deps: TDepsOf<'db' | 'now'>,
  input: TNewAccount,
): Promise<TSessionUser & Pick<TProfileRow, 'alternativeName' | 'avatarUrl'>> {
  const now = deps.now();
  const { db } = deps;
  const usernameKey = input.username.toLowerCase();
  const email = input.email.toLowerCase();
  await assertAvailable(db, usernameKey, email);
  const passwordHash = await hashPassword(input.password);
  const user = {
    id: randomUUID(),
    username: input.username,
    usernameKey,
    email,
    passwordHash,
    role: input.role ?? 'user',
    alternativeName: input.alternativeName ?? null,
    ...skeletonsOf({ username: input.username, alternativeName: input.alternativeName ?? null }),
    createdAt: now,
    updatedAt: now,
  } as const;
  try {
    await transaction(db, async (tx) => {
      await assertAvailable(tx, usernameKey, email);
      await assertUsernameUnlike(tx, input.username);
      if (user.alternativeName !== null) await assertDisplayNameUnlike(tx, user.id, user.alternativeName);
      await tx.insert(users).values(user);
    });
  } catch (error) {
    // Two sign-ups racing past the check above: the unique index decides.
    if (String((error as { code?: string }).code ?? error).includes('CONSTRAINT')) {
      await assertAvailable(db, usernameKey, email);
    }
    throw error;
  }
  return {
    id: user.id,
    username: user.username,
    email,
    role: user.role,
    createdAt: now,
    alternativeName: user.alternativeName,
    avatarUrl: null,
  };
}

async function assertAvailable(db: TDb, usernameKey: string, email: string): Promise<void> {
  const taken = await db
    .select({ usernameKey: users.usernameKey, email: users.email })
    .from(users)
    .where(or(eq(users.usernameKey, usernameKey), eq(users.email, email)))
    .all();
  if (taken.some((row) => row.usernameKey === usernameKey)) {
    throw new AppError('CONFLICT', 'Username is already taken', {
      key: 'signup.userAlreadyHas',
      data: { field: 'username' },
    });
  }
  if (taken.length > 0) {
    throw new AppError('CONFLICT', 'E-mail is already registered', {
      key: 'signup.emailAlreadyHas',
      data: { field: 'email' },
    });
  }
}

/**
 * Creates a user account and signs it in. A captcha answer (ALTCHA captchaCode or SVG captcha), when
 * given, must be valid and unused (400 otherwise); without one it is a 400 when the server sets
 * SIGNUP_CAPTCHA=required.
 */
export async function signUp(
  deps: TDepsOf<'db' | 'now' | 'captcha' | 'config'>,
  input: TSignUpInput,
): Promise<TSignedIn> {
  const now = deps.now();
  if (input.captcha !== undefined) {
    await deps.captcha.verify(input.captcha, now);
  } else if (deps.config.SIGNUP_CAPTCHA === 'required') {
    throw new AppError(
      'BAD_REQUEST',
      'captchaCode (ALTCHA) or captcha (SVG) is required: get one from GET /api/captcha first',
      {
        key: 'captcha.bad',
        issues: [{ path: 'captchaCode', message: 'Required' }],
      },
    );
  }
  const at = { db: deps.db, now: () => now };
  const user = await createAccount(at, {
    username: input.username,
    email: input.email,
    password: input.password,
    role: 'user',
    alternativeName: input.alternativeName,
  });
  const session = await createSession(at, { userId: user.id });
  // A new account holds nothing yet.
  return toSignedIn(user, session, []);
}

/**
 * The key failed sign-ins count under: the account, whichever of its names (username or e-mail, any
 * case) was typed, so a lock-out by one name holds for the other; a login that names no account
 * counts under itself, so that unknown names lock out as known ones do.
 */
function failureKey(row: { id: string } | undefined, login: string): string {
  return row ? `account:${row.id}` : `login:${login}`;
}

/**
 * `login` is a username (any case) or an e-mail. A captcha answer, when given, must be valid and
 * unused; it is checked first and does not count as an attempt. Unknown user and wrong password look the same and
 * take the same time. Every attempt counts against the account (failureKey) before its password is
 * checked (an unknown login against itself, so lock-out does not reveal which accounts exist):
 * however many arrive at once, at most `failures.points` per window are checked, the rest are a 429,
 * and so is every attempt, the right password too, until the window passes. A right password gives
 * back only its own attempt.
 */
export async function signIn(
  deps: TDepsOf<'db' | 'now' | 'limits' | 'captcha'>,
  { login, password, captcha }: TSignInInput,
): Promise<TSignedIn> {
  const now = deps.now();
  if (captcha !== undefined) await deps.captcha.verify(captcha, now);
  const { db } = deps;
  const failures = deps.limits.signinAccount;
  const name = login.toLowerCase();
  const byEmail = name.includes('@');
  const row = await prepared(db, `user.signin:${byEmail ? 'email' : 'username'}`, (d) =>
    d
      .select()
      .from(users)
      .where(eq(byEmail ? users.email : users.usernameKey, sql.placeholder('name')))
      .prepare(),
  ).get({ name });
  const valid = await limitGuess([{ limit: failures, key: failureKey(row, name) }], async () => {
    if (row) return verifyPassword(row.passwordHash, password);
    // An unknown name costs what a known one does: the same hashing, always wrong.
    await burnPasswordCheck(password);
    return false;
  });
  if (!row || !valid) throw badCredentials();
  // Told only to whoever knows the password (issue 35): a frozen account cannot sign in.
  const at = { db, now: () => now };
  if ((await accountStateOf(at, { userId: row.id })) === 'freezed') {
    throw new AppError('FORBIDDEN', 'This account is frozen: it cannot sign in', { key: 'user.frozen' });
  }
  // Verifying took tens of milliseconds: a password change committed meanwhile has ended every session,
  // and one made now from the old password would outlive it. Then none is made, and the answer is the
  // wrong password's, which the old one now is.
  const session = await createSessionIfPassword(at, { userId: row.id, passwordHash: row.passwordHash });
  if (!session) throw badCredentials();
  return toSignedIn(row, session, await effectivePrivileges(at, row));
}

/** CLI only: admins are never made through the API. */
export async function setRole(
  deps: TDepsOf<'db'>,
  { username, role }: { username: string; role: TRole },
): Promise<boolean> {
  const updated = await deps.db
    .update(users)
    .set({ role })
    .where(eq(users.usernameKey, username.toLowerCase()))
    .returning({ id: users.id });
  return updated.length > 0;
}

/**
 * Changes the password after checking the current one, ends every session of the account (a thief
 * holding an old token is locked out) and returns a fresh session for the caller. The check counts
 * against the account's sign-in failures like a sign-in (before it runs: see signIn), so a stolen
 * token cannot be used to guess the password faster than sign-in allows.
 */
export async function changePassword(
  deps: TDepsOf<'db' | 'now' | 'limits'>,
  { userId, currentPassword, newPassword }: TChangePasswordInput & { userId: string },
): Promise<TSignedIn> {
  const now = deps.now();
  const { db } = deps;
  const failures = deps.limits.signinAccount;
  const row = await db.select().from(users).where(eq(users.id, userId)).get();
  if (!row) throw new AppError('UNAUTHORIZED', 'Invalid or expired access token', { key: 'user.tokenExpired' });
  if (
    !(await limitGuess([{ limit: failures, key: failureKey(row, row.usernameKey) }], () =>
      verifyPassword(row.passwordHash, currentPassword),
    ))
  ) {
    throw new AppError('FORBIDDEN', 'Current password is wrong', { data: { field: 'currentPassword' } });
  }
  const passwordHash = await hashPassword(newPassword);
  const session = await transaction(db, async (tx) => {
    // Only over the password just verified: a change that committed during this one's hashing has
    // ended this caller's sessions, and its password must not be overwritten by a stale check.
    const changed = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(and(eq(users.id, userId), eq(users.passwordHash, row.passwordHash)))
      .returning({ id: users.id });
    if (changed.length === 0) return undefined;
    const at = { db: tx, now: () => now };
    await invalidateUserSessions(at, { userId });
    return createSession(at, { userId });
  });
  if (!session) throw new AppError('FORBIDDEN', 'Current password is wrong', { data: { field: 'currentPassword' } });
  return toSignedIn(row, session, await effectivePrivileges({ db, now: () => now }, row));
}
