// The team-up board on both surfaces. The web client publishes and cancels over its WebSocket
// (server/live/websocket.ts), which calls these same procedures: limits, validation and errors are written once.
import { AppError } from '../../errors';
import { ZNoInput } from '../../schemas';
import { authedProcedure, publicProcedure, router } from '../../trpc';
import { cancelTeamUp, publishTeamUp } from './board';
import { listOwnTeamUps, listTeamUps, teamUpStatistics } from './queries';
import {
  MAX_TEAMUP_WINDOW,
  ZMyTeamUpsInput,
  ZTeamUp,
  ZTeamUpBoard,
  ZTeamUpCancelInput,
  ZTeamUpCancelled,
  ZTeamUpListInput,
  ZTeamUpPage,
  ZTeamUpPublishInput,
  ZTeamUpStatistics,
} from './schemas';

const PAGING = `Newest first; expired team-ups are never listed. Paged (pageSize 20 by default, at most 100); page × pageSize at most ${MAX_TEAMUP_WINDOW} (400 beyond).`;
const NO_STORE = { cacheControl: 'no-store' } as const;

export const teamUpRouter = router({
  list: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/teamups',
        tags: ['teamup'],
        protect: false,
        summary: 'The team-up board (looking for a group)',
        description: `${PAGING} \`data\` is the page's array of team-ups, as the web client's board reads it (no pagination block). Live changes: GET /api/events?topics=teamups, or the WebSocket.`,
      },
      http: NO_STORE,
    })
    .input(ZTeamUpListInput.prefault({}))
    .output(ZTeamUpBoard)
    .query(({ input, ctx }) => listTeamUps(ctx.deps, input)),

  mine: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/user/me/teamups',
        tags: ['teamup'],
        protect: true,
        summary: 'Your team-ups still on the board',
        description: PAGING,
      },
      http: NO_STORE,
    })
    .input(ZMyTeamUpsInput.prefault({}))
    .output(ZTeamUpPage)
    .query(({ input, ctx }) => listOwnTeamUps(ctx.deps, { ...input, userId: ctx.user.id })),

  statistics: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/teamup/statistics',
        tags: ['teamup'],
        protect: false,
        summary: 'Team-ups on the board now, per tag, and published lately',
      },
      http: NO_STORE,
    })
    .input(ZNoInput)
    .output(ZTeamUpStatistics)
    .query(({ ctx }) => teamUpStatistics(ctx.deps)),

  publish: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/teamup/publish',
        tags: ['teamup'],
        protect: false,
        summary: 'Publish a team-up, signed in or anonymously',
        description:
          'Without a token it is published anonymously, at most RATE_LIMIT_TEAMUP_ANONYMOUS an hour per client address; signed in, at most RATE_LIMIT_TEAMUP_ACCOUNT an hour per account (429 beyond, with Retry-After). An invalid or expired token is a 401, never an anonymous publication. Every live stream gets it (teamup.published; new_team_up on the WebSocket).',
      },
    })
    .input(ZTeamUpPublishInput)
    .output(ZTeamUp)
    .mutation(({ input, ctx }) => {
      if (!ctx.auth && ctx.authFailure === 'invalid')
        throw new AppError('UNAUTHORIZED', 'Invalid or expired access token', { key: 'user.tokenExpired' });
      const publisher = ctx.auth ? { user: ctx.auth.user } : { clientIp: ctx.request.clientIp };
      return publishTeamUp(ctx.deps, { ...input, publisher });
    }),

  cancel: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/teamup/cancel',
        tags: ['teamup'],
        protect: true,
        summary: 'Cancel a team-up: its publisher or an admin',
        description:
          'An anonymous team-up can be cancelled by an admin only (it has no publisher to sign in). 404 once it is cancelled or expired. Every live stream gets it (teamup.cancelled; cancel_team_up on the WebSocket).',
      },
    })
    .input(ZTeamUpCancelInput)
    .output(ZTeamUpCancelled)
    .mutation(({ input, ctx }) => cancelTeamUp(ctx.deps, { id: input.id, user: ctx.user })),
});
