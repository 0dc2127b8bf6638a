// Who may read and write an assembly: the creator's rights, private assemblies' passwords, and the
// caller's budget of password guesses.
import type { TContext } from '../../context';
import { AppError } from '../../errors';
import { limitGuess } from '../../http/rate-limit';
import { verifySharedSecret } from '../../infra/password';

export function assertCreator(row: { creatorId: string }, userId: string, action: string): void {
  if (row.creatorId !== userId) throw new AppError('FORBIDDEN', `Only the creator may ${action} this assembly`);
}

/**
 * Runs a check of a private assembly's password counted beforehand against the caller's limits
 * (a 429 once over them), and resolves with its outcome: see passwordGuesses below. Callers without
 * one (the CLI, benches) check unlimited.
 */
export type TPasswordGuesses = (uuid: string, check: () => Promise<boolean>) => Promise<boolean>;

const unlimitedGuesses: TPasswordGuesses = (_uuid, check) => check();

/**
 * The caller's guesses at private assemblies' passwords: each check is counted before it runs,
 * against the client and assembly first, then the assembly from all clients (limitGuess), so a
 * flood, however batched, reaches Argon2 at most that many times; a right password gives back its
 * points. A client over its own limit never spends the assembly's shared budget.
 */
export function passwordGuesses(ctx: Pick<TContext, 'deps' | 'request'>): TPasswordGuesses {
  const { assemblyPasswordClient, assemblyPassword } = ctx.deps.limits;
  return (uuid, check) =>
    limitGuess(
      [
        { limit: assemblyPasswordClient, key: `${ctx.request.clientIp}|${uuid}` },
        { limit: assemblyPassword, key: uuid },
      ],
      check,
    );
}

/**
 * Read access of a private assembly: the creator always (never asked for the password); others only
 * with its password (and never when it has none). Public assemblies are open to all, and so is any
 * other target of comments and likes (targets.ts: a codex entry is public and has no creator).
 */
export async function assertReadable(
  uuid: string,
  access: { isPublic: boolean; creatorId: string | null; passwordHash: string | null },
  viewerId: string | undefined,
  password: string | undefined,
  guesses: TPasswordGuesses = unlimitedGuesses,
): Promise<void> {
  if (access.isPublic || access.creatorId === viewerId) return;
  const passwordHash = access.passwordHash;
  if (passwordHash === null) throw new AppError('FORBIDDEN', 'This assembly is private');
  if (password === undefined || password === '')
    throw new AppError('FORBIDDEN', 'This assembly is private: a password is required');
  if (!(await guesses(uuid, () => verifySharedSecret(passwordHash, password)))) {
    throw new AppError('FORBIDDEN', 'Wrong password for this private assembly');
  }
}

/**
 * Only a private assembly may have a password: a 400 on the `password` field otherwise (publish, and
 * an edit judged on the assembly as it would be).
 */
export function assertPasswordFits(isPublic: boolean, password: string | null | undefined): void {
  if (isPublic && typeof password === 'string') {
    throw new AppError(
      'BAD_REQUEST',
      'Invalid input: password: only a private assembly (isPublic: false) can have a password',
      {
        issues: [{ path: 'password', message: 'only a private assembly (isPublic: false) can have a password' }],
      },
    );
  }
}
