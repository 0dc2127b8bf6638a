// The team-up board (looking for a group), as the community web client uses it: its page
// (src/views/Team.vue), its WebSocket messages (publish_team_up, cancel_team_up) and its reads
// (src/assets/sripts/api/teamup_service.ts, user_service.ts getUserTeamups; src/views/user/account/teamup.vue).
import { z } from 'zod';
import { zInt, zPage, zPageInput } from '../../schemas';
import { zText } from '../../text';

/** The web client's form checks a description of 3 to 300 characters (Team.vue:51); the service holds it to the same. */
export const TEAMUP_DESCRIPTION = { min: 3, max: 300 } as const;
export const MAX_TEAMUP_TAGS = 10;
/** The longest wait the client offers (Team.vue:72: 7 days), in minutes. */
export const MAX_TEAMUP_MINUTES = 7 * 24 * 60;
/** A board reaches its first this many team-ups: page × pageSize above it is a 400. */
export const MAX_TEAMUP_WINDOW = 1000;
/** Expired team-ups are kept this long (the day's statistics), then purged. */
export const TEAMUP_RETENTION_MS = 24 * 60 * 60 * 1000;

export const TEAMUP_TOPIC = 'teamups';
export const TEAMUP_EVENTS = {
  published: 'teamup.published',
  cancelled: 'teamup.cancelled',
  expired: 'teamup.expired',
} as const;

export const ZTeamUpId = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .regex(
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    'must be a team-up id (a UUID)',
  )
  .transform((id) => id.toLowerCase())
  .meta({ description: "The team-up's id (a UUID)" });

/**
 * Tags as the client's combobox sends them (Team.vue:157: `tags.map(i => i.value)`): its own tags
 * (pve, pvp, ...) or words typed in, which reach the wire as null (a typed entry has no `value`) and
 * are left out. Deduplicated, in the order given.
 */
const ZTags = z
  .array(z.union([zText({ min: 1, max: 32 }), z.null()]), { error: 'must be an array of tags' })
  .max(MAX_TEAMUP_TAGS, `must have at most ${MAX_TEAMUP_TAGS} tags`)
  .transform((tags) => [...new Set(tags.filter((tag): tag is string => tag !== null))])
  .meta({
    description: `Up to ${MAX_TEAMUP_TAGS} tags of 1-32 characters (the client's: pve, pvp, timeWander, plotTask, sideQuest, reward, fortressRaiding, transaction, other); null entries are left out`,
  });

export const ZTeamUpPublishInput = z.strictObject({
  player: zText({ min: 1, max: 64, kind: 'name' }).meta({
    description: 'Your in-game player id, for others to add you',
  }),
  description: zText({ ...TEAMUP_DESCRIPTION, kind: 'multiline' }).meta({
    description: `What you are looking for, ${TEAMUP_DESCRIPTION.min}-${TEAMUP_DESCRIPTION.max} characters (plain text, never HTML)`,
  }),
  tags: ZTags.default([]),
  expiresMinutesAt: zInt({ min: 1, max: MAX_TEAMUP_MINUTES }).meta({
    description: `Minutes until it expires, 1 to ${MAX_TEAMUP_MINUTES} (the client offers 10, 30, 60, 120 minutes and 1, 3 or 7 days)`,
  }),
});
export type TTeamUpPublishInput = z.infer<typeof ZTeamUpPublishInput>;

export const ZTeamUpCancelInput = z.strictObject({ id: ZTeamUpId });

export const ZTeamUp = z
  .object({
    id: z.string().meta({ description: "The team-up's id" }),
    userId: z.string().nullable().meta({ description: "The publisher's user id; null when published anonymously" }),
    username: z.string().nullable().meta({ description: "The publisher's username; null when anonymous" }),
    player: z.string().meta({ description: 'The in-game player id to add' }),
    description: z.string().meta({ description: 'Plain text, as given' }),
    tags: z.array(z.string()).meta({ description: 'Tags, as given' }),
    createdAt: z.number().int().meta({ description: 'Published, in Unix seconds (Team.vue reads seconds)' }),
    expiresAt: z.number().int().meta({ description: 'Expires, in Unix seconds' }),
    createdTime: z.string().meta({ description: 'Published (ISO-8601), as the account page reads it' }),
    expiresTime: z.string().meta({ description: 'Expires (ISO-8601)' }),
  })
  .meta({ id: 'TeamUp', description: 'A team-up (looking for a group) on the board' });
export type TTeamUp = z.infer<typeof ZTeamUp>;

function withinWindow(input: { page: number; pageSize: number }, ctx: z.RefinementCtx): void {
  if (input.page * input.pageSize > MAX_TEAMUP_WINDOW) {
    ctx.addIssue({
      code: 'custom',
      path: ['page'],
      message: `page × pageSize must be at most ${MAX_TEAMUP_WINDOW}: the board reaches its first ${MAX_TEAMUP_WINDOW} team-ups`,
    });
  }
}

export const ZTeamUpListInput = z
  .strictObject({
    keyword: z
      .string()
      .max(64, 'must be at most 64 characters')
      .optional()
      .meta({ description: "Only team-ups whose player, description or tags contain it, ignoring case ('' for all)" }),
    ...zPageInput(20),
  })
  .superRefine(withinWindow);
export type TTeamUpListInput = z.infer<typeof ZTeamUpListInput>;

export const ZMyTeamUpsInput = z.strictObject(zPageInput(20)).superRefine(withinWindow);

export const ZTeamUpPage = zPage(ZTeamUp);
export type TTeamUpPage = z.infer<typeof ZTeamUpPage>;

/**
 * The board's page as the web client reads it: `data` is the array of team-ups (Team.vue:107-114 puts
 * `d.data` in its list), where the caller's own list (user/me/teamups) is the house's paged shape
 * (account/teamup.vue reads `d.data.data`).
 */
export const ZTeamUpBoard = z.array(ZTeamUp).meta({ description: "The page's team-ups, newest first" });
export type TTeamUpBoard = z.infer<typeof ZTeamUpBoard>;

export const ZTeamUpStatistics = z.object({
  active: z.number().int().meta({ description: 'Team-ups on the board now (not expired)' }),
  publishedLastHour: z
    .number()
    .int()
    .meta({ description: 'Team-ups published in the last hour (still listed or not)' }),
  publishedLastDay: z
    .number()
    .int()
    .meta({ description: 'Team-ups published in the last 24 hours (cancelled ones excluded)' }),
  byTag: z.record(z.string(), z.number().int()).meta({ description: 'Team-ups on the board now, per tag' }),
});
export type TTeamUpStatistics = z.infer<typeof ZTeamUpStatistics>;

export const ZTeamUpCancelled = z.object({
  id: z.string().meta({ description: 'The cancelled team-up' }),
  cancelled: z.literal(true).meta({ description: 'Always true' }),
});
