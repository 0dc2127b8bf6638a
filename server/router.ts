import { adminRouter } from './routers/admin';
import { captchaRouter } from './routers/captcha';
import { healthRouter } from './routers/health';
import { mapRouter } from './routers/map';
import { subscriptionRouter } from './routers/subscription';
import { userRouter } from './routers/user';
import { router } from './trpc';

export const appRouter = router({
  user: userRouter,
  captcha: captchaRouter,
  health: healthRouter,
  map: mapRouter,
  subscription: subscriptionRouter,
  admin: adminRouter,
});

/** Import this type in a TypeScript client: `import type { AppRouter } from 'tidewatch'`. */
export type AppRouter = typeof appRouter;
