import { z } from 'zod';
import { zInt } from '../../schemas';
import { replaceCalendar, ZCalendarEvents } from '../calendar/service';
import { upsertCampaigns, ZDropUpsertInput } from '../drop/service';
import { ZSeasonRef } from '../war/seasons';
import { recordSnapshots, upsertWarReference, ZSnapshotInput, ZWarReferenceInput } from '../war/service';
import { thinWarSnapshots } from '../war/history';
import { adminProcedure, router } from '../../trpc';

export const dropAdminRouter = router({
  upsertCampaigns: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/drop/campaigns',
        tags: ['admin'],
        protect: true,
        summary: 'Create or update drop campaigns by campaignId (rewards and channels are replaced)',
      },
    })
    .input(ZDropUpsertInput)
    .output(
      z.object({
        created: z.number().int(),
        updated: z.number().int(),
        items: z.array(z.object({ id: z.number().int(), campaignId: z.string(), created: z.boolean() })),
      }),
    )
    .mutation(({ input, ctx }) => upsertCampaigns(ctx.db, input.campaigns, ctx.deps.now(), ctx.deps.liveData)),
});

export const warAdminRouter = router({
  upsertReference: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/war/reference',
        tags: ['admin'],
        protect: true,
        summary: 'Create or update seasons, zones and trading companies',
      },
    })
    .input(ZWarReferenceInput)
    .output(z.object({ seasons: z.number().int(), zones: z.number().int(), companies: z.number().int() }))
    .mutation(({ input, ctx }) => upsertWarReference(ctx.db, input)),

  recordSnapshot: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/war/snapshots',
        tags: ['admin'],
        protect: true,
        summary: 'Record one war snapshot (zone control, company scores, hotspots)',
        description: 'Unknown season, zone or company, a capturedAt outside the season or already recorded: 400, nothing written.',
      },
    })
    .input(ZSnapshotInput)
    .output(z.object({ id: z.number().int(), seasonId: z.string(), capturedAt: z.string() }))
    .mutation(async ({ input, ctx }) => {
      const { ids, seasonIds } = await recordSnapshots(ctx.db, [input], ctx.deps.now(), () => '');
      return { id: ids[0]!, seasonId: seasonIds[0]!, capturedAt: new Date(input.capturedAt).toISOString() };
    }),

  thinSnapshots: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/war/thin',
        tags: ['admin'],
        protect: true,
        summary: 'Thin snapshots older than N days to one per hour (the periodic job does this hourly)',
      },
    })
    .input(z.object({ olderThanDays: zInt({ min: 1, max: 3650 }).optional().meta({ description: 'Default WAR_THIN_AFTER_DAYS' }) }).prefault({}))
    .output(z.object({ cutoff: z.string(), deleted: z.number().int() }))
    .mutation(({ input, ctx }) =>
      thinWarSnapshots(ctx.db, ctx.deps.now(), input.olderThanDays ?? ctx.deps.config.WAR_THIN_AFTER_DAYS),
    ),
});

export const calendarAdminRouter = router({
  replace: adminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/admin/calendar/{season}',
        tags: ['admin'],
        protect: true,
        summary: "Replace a season's calendar with the given events",
      },
    })
    .input(z.object({ season: ZSeasonRef, events: ZCalendarEvents }))
    .output(z.object({ seasonId: z.string(), events: z.number().int() }))
    .mutation(({ input, ctx }) => replaceCalendar(ctx.db, input.season, input.events)),
});
