// The deps a service receives: the app's long-lived parts, built once at start-up, and the call's database.
import type { TDb } from '../db/client';
import type { TAuth } from './auth';
import type { TConfig } from './config';
import type { TRateLimits } from './http/rate-limit';
import type { TLogger } from './logger';
import type { TCaches } from './infra/cache';
import type { EventBus } from './infra/events/bus';
import type { LiveConnections } from './infra/events/connections';
import type { ViewCounter } from './infra/view-counter';
import type { TSharedState } from './infra/redis';

/**
 * Long-lived parts of the app, built once at start-up (app.ts createDeps) and shared by every request.
 * A domain that keeps a part of its own adds it here from its own file, so that this layer names no
 * domain: `declare module '../../deps' { interface TAppDeps { … } }` (captcha/service.ts: `captcha`,
 * drop/runtime.ts: `liveData`).
 */
export interface TAppDeps {
  config: TConfig;
  limits: TRateLimits;
  logger: TLogger;
  /** The service clock; tests replace it. */
  now: () => Date;
  /** The caches by named scope (server/infra/cache/index.ts says what each holds and what drops it). */
  caches: TCaches;
  /** Assembly views counted since the last batched write (a `perInstance` job flushes them). */
  views: ViewCounter;
  /** Redis shared by several instances (REDIS_URL), or undefined for a single process. */
  shared?: TSharedState;
  /** The one event bus of the live streams (server/infra/events/bus.ts), through Redis to every instance. */
  events: EventBus;
  /** The live streams open on this instance: their limits, heartbeats and end at shutdown (server/infra/events/connections.ts). */
  liveConnections: LiveConnections;
  /** The session an access token names, or null for an unknown or expired one (the user domain's validateSessionToken). */
  validateSession(deps: TDepsOf<'db' | 'now'>, input: { token: string }): Promise<TAuth | null>;
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
