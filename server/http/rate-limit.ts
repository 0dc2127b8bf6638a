import { RateLimiterRes } from 'rate-limiter-flexible';
import type { TConfig } from '../config';
import { AppError } from '../errors';
import { memoryRateLimitStore, type TRateLimitStore } from '../infra/rate-limit-store';

/**
 * REST paths (below /api) outside the global per-client budget: monitoring and the document itself. They
 * answer no RateLimit-* headers and no global 429; /metrics is outside too, and so is the docs page.
 */
export const UNLIMITED_API_PATHS: ReadonlySet<string> = new Set(['/health', '/openapi.json']);

/** Whether a request path is outside the global per-client budget (besides the docs page, docs.ts). */
export function isUnlimitedPath(pathname: string): boolean {
  return (
    pathname === '/metrics' || (pathname.startsWith('/api/') && UNLIMITED_API_PATHS.has(pathname.slice('/api'.length)))
  );
}

/** The state of one key after a hit: what the RateLimit-* headers report. */
export interface TLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** One named limit: `points` hits per `durationSeconds` per key. */
export interface TRateLimit {
  readonly name: string;
  readonly points: number;
  /** Counts a hit of `points` (default 1); throws a 429 AppError (with Retry-After) once the key is over its limit. */
  hit(key: string, message?: string, points?: number): Promise<TLimitState>;
  /** Throws the 429 if the key is already over its limit, without counting a hit. */
  check(key: string, message?: string): Promise<void>;
  /** Gives back `points` (default 1) of earlier hits of the key, never below zero: for an attempt counted beforehand that turned out fine. */
  reward(key: string, points?: number): Promise<void>;
  reset(key: string): Promise<void>;
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

export function createRateLimit(
  name: string,
  options: { points: number; durationSeconds: number; message: string },
  store: TRateLimitStore = memoryRateLimitStore,
): TRateLimit {
  const limiter = store({ keyPrefix: `tw:${name}`, points: options.points, duration: options.durationSeconds });
  const tooMany = (res: RateLimiterRes, message?: string) =>
    new AppError('TOO_MANY_REQUESTS', `${message ?? options.message}; retry in ${seconds(res.msBeforeNext)} s`, {
      retryAfterSeconds: seconds(res.msBeforeNext),
      data: { limit: options.points, retryAfterSeconds: seconds(res.msBeforeNext) },
    });
  return {
    name,
    points: options.points,
    async hit(key, message, points = 1) {
      try {
        const res = await limiter.consume(key, points);
        return { limit: options.points, remaining: res.remainingPoints, resetSeconds: seconds(res.msBeforeNext) };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw tooMany(rejection, message);
        throw rejection;
      }
    },
    async check(key, message) {
      const res = await limiter.get(key);
      if (res && res.consumedPoints >= options.points) throw tooMany(res, message);
    },
    async reward(key, points = 1) {
      // A key whose window has ended is gone: rewarding it would start the next window below zero.
      const res = await limiter.get(key);
      if (res && res.consumedPoints > 0) await limiter.reward(key, Math.min(points, res.consumedPoints));
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}

/** One limit a guess counts against, under one key. */
export interface TGuessLimit {
  limit: TRateLimit;
  key: string;
  message?: string;
}

/**
 * Runs one guess at a secret (a password check) counted beforehand against every limit in order:
 * however many calls arrive at once (a tRPC batch runs its calls side by side), at most `points`
 * guesses per window and key ever reach `guess`; the others get the limit's 429 without running it.
 * A right guess (`guess` resolves true) gives back its own points, and so does one that never ran
 * (a later limit said no, or `guess` threw); a wrong one keeps them. Guesses of other calls counted
 * meanwhile stay counted: a success never resets a limit.
 */
export async function limitGuess(limits: readonly TGuessLimit[], guess: () => Promise<boolean>): Promise<boolean> {
  const counted: TGuessLimit[] = [];
  const giveBack = () => Promise.all(counted.map(({ limit, key }) => limit.reward(key).catch(() => undefined)));
  let right: boolean;
  try {
    for (const entry of limits) {
      await entry.limit.hit(entry.key, entry.message);
      counted.push(entry);
    }
    right = await guess();
  } catch (error) {
    await giveBack();
    throw error;
  }
  if (right) await giveBack();
  return right;
}

export interface TRateLimits {
  /** Every request to /api and /trpc, per client. */
  global: TRateLimit;
  /** Sign-in attempts per client. */
  signinClient: TRateLimit;
  /** Failed sign-ins per account: over it, the account is locked out until the window passes. */
  signinAccount: TRateLimit;
  signup: TRateLimit;
  captcha: TRateLimit;
  /** Sponsorship order creation, per account. */
  orderCreate: TRateLimit;
  /** Comments written (created or edited), per account. */
  commentWrite: TRateLimit;
  /** Avatar uploads, per account. */
  avatarUpload: TRateLimit;
  /** Assembly forks, per account. */
  fork: TRateLimit;
  /** Wrong guesses at a private assembly's password, per client and assembly. */
  assemblyPasswordClient: TRateLimit;
  /** Wrong guesses at a private assembly's password, per assembly from all clients together. */
  assemblyPassword: TRateLimit;
  /** Team-ups published without signing in, per client address (stricter than signed in). */
  teamUpAnonymous: TRateLimit;
  /** Team-ups published, per account. */
  teamUpAccount: TRateLimit;
}

export function createRateLimits(config: TConfig, store: TRateLimitStore = memoryRateLimitStore): TRateLimits {
  return {
    global: createRateLimit(
      'global',
      { points: config.RATE_LIMIT_GLOBAL, durationSeconds: 60, message: 'Too many requests' },
      store,
    ),
    signinClient: createRateLimit(
      'signin-client',
      {
        points: config.RATE_LIMIT_SIGNIN,
        durationSeconds: 15 * 60,
        message: 'Too many sign-in attempts from this client',
      },
      store,
    ),
    signinAccount: createRateLimit(
      'signin-account',
      {
        points: config.RATE_LIMIT_SIGNIN_ACCOUNT,
        durationSeconds: 15 * 60,
        message: 'Too many failed sign-ins for this account',
      },
      store,
    ),
    signup: createRateLimit(
      'signup',
      { points: config.RATE_LIMIT_SIGNUP, durationSeconds: 60 * 60, message: 'Too many sign-ups from this client' },
      store,
    ),
    captcha: createRateLimit(
      'captcha',
      { points: config.RATE_LIMIT_CAPTCHA, durationSeconds: 60, message: 'Too many captcha requests' },
      store,
    ),
    orderCreate: createRateLimit(
      'order-create',
      { points: config.RATE_LIMIT_ORDERS, durationSeconds: 60 * 60, message: 'Too many orders' },
      store,
    ),
    commentWrite: createRateLimit(
      'comment-write',
      { points: config.RATE_LIMIT_COMMENTS, durationSeconds: 10 * 60, message: 'Too many comments' },
      store,
    ),
    avatarUpload: createRateLimit(
      'avatar-upload',
      { points: config.RATE_LIMIT_AVATAR_UPLOADS, durationSeconds: 60 * 60, message: 'Too many avatar uploads' },
      store,
    ),
    fork: createRateLimit(
      'fork',
      { points: config.RATE_LIMIT_FORKS, durationSeconds: 60 * 60, message: 'Too many forks' },
      store,
    ),
    assemblyPasswordClient: createRateLimit(
      'assembly-password-client',
      {
        points: config.RATE_LIMIT_ASSEMBLY_PASSWORD_CLIENT,
        durationSeconds: 15 * 60,
        message: 'Too many wrong passwords for this assembly from this client',
      },
      store,
    ),
    assemblyPassword: createRateLimit(
      'assembly-password',
      {
        points: config.RATE_LIMIT_ASSEMBLY_PASSWORD,
        durationSeconds: 15 * 60,
        message: 'Too many wrong passwords for this assembly',
      },
      store,
    ),
    teamUpAnonymous: createRateLimit(
      'teamup-anonymous',
      {
        points: config.RATE_LIMIT_TEAMUP_ANONYMOUS,
        durationSeconds: 60 * 60,
        message: 'Too many team-ups published anonymously from this address: sign in, or wait',
      },
      store,
    ),
    teamUpAccount: createRateLimit(
      'teamup-account',
      { points: config.RATE_LIMIT_TEAMUP_ACCOUNT, durationSeconds: 60 * 60, message: 'Too many team-ups published' },
      store,
    ),
  };
}

/** The draft-standard RateLimit-* headers for a state. */
export function rateLimitHeaders(state: TLimitState): Record<string, string> {
  return {
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(Math.max(0, state.remaining)),
    'ratelimit-reset': String(state.resetSeconds),
  };
}
