import { router } from '../../trpc';
import { subscriptionAdminRouter } from './subscription';
import { catalogAdminRouter } from './catalog';
import { communityDataAdminRouter } from './community-data';
import { calendarAdminRouter, dropAdminRouter, warAdminRouter } from './live-data';

/**
 * Ingestion of data that comes from outside (catalog, drops, war snapshots, calendar, plans, the
 * community data set).
 * Each domain mounts its admin router here; REST paths live under /api/admin/... and every
 * procedure is built on adminProcedure (401 without a session, 403 for non-admins).
 */
export const adminRouter = router({
  subscription: subscriptionAdminRouter,
  catalog: catalogAdminRouter,
  drop: dropAdminRouter,
  war: warAdminRouter,
  calendar: calendarAdminRouter,
  communityData: communityDataAdminRouter,
});
