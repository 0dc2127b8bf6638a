import { adminRouter } from './routers/admin';
import { assemblyRouter } from './routers/assembly';
import { captchaRouter } from './routers/captcha';
import { healthRouter } from './routers/health';
import { userRouter } from './routers/user';
import { router } from './trpc';

export const appRouter = router({
  user: userRouter,
  captcha: captchaRouter,
  health: healthRouter,
  admin: adminRouter,
  assembly: assemblyRouter,
});

/** Import this type in a TypeScript client: `import type { AppRouter } from 'tidewatch'`. */
export type AppRouter = typeof appRouter;
