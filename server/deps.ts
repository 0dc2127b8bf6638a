// The deps a service receives: the app's long-lived parts, built once at start-up, and the call's database.
import type { TDb } from '../db/client';
import type { TConfig } from './config';
import type { TRateLimits } from './http/rate-limit';
import type { TLogger } from './logger';
import type { TCaptchaService } from './domains/captcha/service';
import type { TCaches } from './infra/cache';
import type { TDropCurrentSnapshot } from './domains/drop/schemas';
import type { TLiveDataRuntime } from './domains/drop/runtime';
import type { ViewCounter } from './infra/view-counter';
import type { TSharedState } from './infra/redis';

/** Long-lived parts of the app, built once at start-up and shared by every request. */
export interface TAppDeps {
  config: TConfig;
  captcha: TCaptchaService;
  limits: TRateLimits;
  logger: TLogger;
  /** The service clock; tests replace it. */
  now: () => Date;
  /** The caches by named scope (server/infra/cache/index.ts says what each holds and what drops it). */
  caches: TCaches<TDropCurrentSnapshot>;
  /** Drop-campaign cache and refresh throttle. */
  liveData: TLiveDataRuntime;
  /** Assembly views counted since the last batched write (a `perInstance` job flushes them). */
  views: ViewCounter;
  /** Redis shared by several instances (REDIS_URL), or undefined for a single process. */
  shared?: TSharedState;
}

/**
 * What a service receives as its first argument: the call's database (a transaction's own `tx`
 * inside one) and the app's long-lived parts. A service names the parts it uses, e.g.
 * `deps: TDepsOf<'db' | 'now'>`, so the CLI, jobs and tests pass only those.
 */
export type TServiceDeps = TAppDeps & { db: TDb };
export type TDepsOf<K extends keyof TServiceDeps> = Pick<TServiceDeps, K>;

/**
 * Told how far a long operation has come (imports, backups): `done` of `total` units of `stage`.
 * The CLI shows it (server/cli/progress.ts); services take it as an optional input and call it
 * between their steps, never inside a transaction's own statements' timing.
 */
export type TProgressListener = (stage: string, done: number, total: number) => void;
