import { adminRouter } from './routers/admin';
import { assemblyRouter } from './routers/assembly';
import { calendarRouter } from './routers/calendar';
import { dropRouter } from './routers/drop';
import { captchaRouter } from './routers/captcha';
import { catalogRouter } from './routers/catalog';
import { healthRouter } from './routers/health';
import { mapRouter } from './routers/map';
import { subscriptionRouter } from './routers/subscription';
import { userRouter } from './routers/user';
import { warRouter } from './routers/war';
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
});

/** Import this type in a TypeScript client: `import type { AppRouter } from 'tidewatch'`. */
export type AppRouter = typeof appRouter;
