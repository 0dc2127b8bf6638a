// Writing the team-up board: publish (signed in or anonymous, each under its own limit) and cancel (the
// publisher or an admin). Each write is committed before its event goes out on the bus (server/infra/events).
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { teamUps } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TSessionUser } from '../../auth';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { findTeamUp, toTeamUp } from './queries';
import { TEAMUP_EVENTS, TEAMUP_TOPIC, type TTeamUp, type TTeamUpPublishInput } from './schemas';

/** Who publishes: an account, or an anonymous client known by its address. */
export type TPublisher = { user: Pick<TSessionUser, 'id' | 'username'> } | { clientIp: string };

/**
 * Publishes a team-up. The limit is counted first (anonymous: per client address, stricter; signed in:
 * per account), so however many calls arrive at once (a tRPC batch, a storm of WebSocket messages) no
 * more than the limit are written. The answer is the team-up as the board lists it.
 */
export async function publishTeamUp(
  deps: TDepsOf<'db' | 'now' | 'limits' | 'events'>,
  input: TTeamUpPublishInput & { publisher: TPublisher },
): Promise<TTeamUp> {
  const { publisher } = input;
  if ('user' in publisher) await deps.limits.teamUpAccount.hit(publisher.user.id);
  else await deps.limits.teamUpAnonymous.hit(publisher.clientIp);
  const now = deps.now();
  const row = {
    id: randomUUID(),
    publisherId: 'user' in publisher ? publisher.user.id : null,
    player: input.player,
    description: input.description,
    tags: input.tags,
    createdAt: now,
    expiresAt: new Date(now.getTime() + input.expiresMinutesAt * 60_000),
  };
  await deps.db.insert(teamUps).values(row).run();
  const teamUp = toTeamUp({ ...row, username: 'user' in publisher ? publisher.user.username : null });
  await deps.events.publish(TEAMUP_TOPIC, TEAMUP_EVENTS.published, teamUp);
  return teamUp;
}

/** Cancels a team-up still on the board: its publisher or an admin (403 for anyone else, 404 once it is gone or expired). */
export async function cancelTeamUp(
  deps: TDepsOf<'db' | 'now' | 'events'>,
  input: { id: string; user: Pick<TSessionUser, 'id' | 'role'> },
): Promise<{ id: string; cancelled: true }> {
  const now = deps.now();
  await transaction(deps.db, async (tx) => {
    const found = await findTeamUp(tx, input.id);
    if (!found || found.expiresAt.getTime() <= now.getTime())
      throw new AppError('NOT_FOUND', `Team-up ${input.id} not found (cancelled, expired or never published)`);
    if (found.publisherId !== input.user.id && input.user.role !== 'admin')
      throw new AppError('FORBIDDEN', 'Only its publisher or an admin cancels a team-up');
    await tx.delete(teamUps).where(eq(teamUps.id, input.id)).run();
  });
  await deps.events.publish(TEAMUP_TOPIC, TEAMUP_EVENTS.cancelled, { id: input.id });
  return { id: input.id, cancelled: true };
}
