import { replaceCalendar } from '../calendar';
import { ZCalendarReplaceInput, ZCalendarReplaceResult } from '../calendar/schemas';
import { upsertCampaigns } from '../drop';
import { ZDropUpsertInput, ZDropUpsertResult } from '../drop/schemas';
import { recordSnapshots, thinWarSnapshots, upsertWarReference } from '../war';
import {
  ZSnapshotInput,
  ZSnapshotRecorded,
  ZThinInput,
  ZThinResult,
  ZWarReferenceInput,
  ZWarReferenceResult,
} from '../war/schemas';
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
    .output(ZDropUpsertResult)
    .mutation(({ input, ctx }) => upsertCampaigns(ctx.deps, { campaigns: input.campaigns })),
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
    .output(ZWarReferenceResult)
    .mutation(({ input, ctx }) => upsertWarReference(ctx.deps, input)),

  recordSnapshot: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/war/snapshots',
        tags: ['admin'],
        protect: true,
        summary: 'Record one war snapshot (zone control, company scores, hotspots)',
        description:
          'Unknown season, zone or company, a capturedAt outside the season or already recorded: 400, nothing written.',
      },
    })
    .input(ZSnapshotInput)
    .output(ZSnapshotRecorded)
    .mutation(async ({ input, ctx }) => {
      const { ids, seasonIds } = await recordSnapshots(ctx.deps, { snapshots: [input], pathOf: () => '' });
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
    .input(ZThinInput)
    .output(ZThinResult)
    .mutation(({ input, ctx }) =>
      thinWarSnapshots(ctx.deps, { olderThanDays: input.olderThanDays ?? ctx.deps.config.WAR_THIN_AFTER_DAYS }),
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
    .input(ZCalendarReplaceInput)
    .output(ZCalendarReplaceResult)
    .mutation(({ input, ctx }) => replaceCalendar(ctx.deps, { season: input.season, events: input.events })),
});
