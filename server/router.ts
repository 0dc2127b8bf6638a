import { adminRouter } from './domains/admin/router';
import { assemblyRouter } from './domains/assembly/router';
import { calendarRouter } from './domains/calendar/router';
import { dropRouter } from './domains/drop/router';
import { captchaRouter } from './domains/captcha/router';
import { catalogRouter } from './domains/catalog/router';
import { commentRouter } from './domains/comment/router';
import { healthRouter } from './domains/health/router';
import { liveRouter } from './domains/live/router';
import { mapRouter } from './domains/map/router';
import { privilegeRouter } from './domains/privilege/router';
import { smugglersRouter } from './domains/smugglers/router';
import { subscriptionRouter } from './domains/subscription/router';
import { teamUpRouter } from './domains/teamup/router';
import { userRouter } from './domains/user/router';
import { warRouter } from './domains/war/router';
import { router } from './trpc';

export const appRouter = router({
  user: userRouter,
  captcha: captchaRouter,
  health: healthRouter,
  map: mapRouter,
  subscription: subscriptionRouter,
  drop: dropRouter,
  war: warRouter,
  calendar: calendarRouter,
  admin: adminRouter,
  assembly: assemblyRouter,
  catalog: catalogRouter,
  comment: commentRouter,
  teamup: teamUpRouter,
  live: liveRouter,
  privilege: privilegeRouter,
  smugglers: smugglersRouter,
});

/** Import this type in a TypeScript client: `import type { AppRouter } from 'tidewatch'`. */
export type AppRouter = typeof appRouter;
