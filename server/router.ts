import { adminRouter } from './routers/admin';
import { calendarRouter } from './routers/calendar';
import { dropRouter } from './routers/drop';
import { captchaRouter } from './routers/captcha';
import { healthRouter } from './routers/health';
import { userRouter } from './routers/user';
import { warRouter } from './routers/war';
import { router } from './trpc';

export const appRouter = router({
  user: userRouter,
  captcha: captchaRouter,
  health: healthRouter,
  drop: dropRouter,
  war: warRouter,
  calendar: calendarRouter,
  admin: adminRouter,
});

/** Import this type in a TypeScript client: `import type { AppRouter } from 'tidewatch'`. */
export type AppRouter = typeof appRouter;
