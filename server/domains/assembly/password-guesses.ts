import type { TContext } from '../../context';
import { limitGuess } from '../../http/rate-limit';
import type { TPasswordGuesses } from './service';

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
