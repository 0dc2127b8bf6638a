import { z } from 'zod';

const zFlag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

function zPositive(fallback: number) {
  return z.coerce.number().int().min(1).max(1_000_000_000).default(fallback);
}

/** Every setting the service reads from its environment. */
export const ZConfig = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(
      /^(file:.+|libsql:\/\/\S+|https?:\/\/\S+|wss?:\/\/\S+)$/,
      'must be a file: URL (file:./data/tidewatch.db) or a libSQL server URL (libsql://, http(s)://, ws(s)://)',
    )
    .default('file:./data/tidewatch.db'),
  /** better-sqlite3 (default for file: URLs) or libsql (@libsql/client; the only choice for server URLs). */
  DATABASE_DRIVER: z.enum(['better-sqlite3', 'libsql']).optional(),
  /** Token of a libSQL server (Turso); never needed for file: URLs. */
  DATABASE_AUTH_TOKEN: z.string().min(1).optional(),
  /**
   * A libSQL server: how long one request to it may take before it is abandoned and the API call
   * answers 503 with Retry-After (a stopped or unreachable server fails at once; a hung one, here).
   */
  DATABASE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * Makes DATABASE_URL (a file: URL) an embedded replica of this libSQL primary: reads run on the
   * local file, writes and transactions on the primary (docs/deployment.md).
   */
  DATABASE_SYNC_URL: z
    .string()
    .regex(/^(libsql|https?):\/\/\S+$/, 'must be a libSQL server URL (libsql://, http(s)://)')
    .optional(),
  /** How often a replica syncs with its primary when nothing else made it (each instance's own writes, and others' announced on Redis, sync at once). */
  DATABASE_SYNC_INTERVAL_S: z.coerce.number().min(0.1).max(3600).default(5),
  /** Shared state of several instances (rate limits, cache invalidation, captcha replays, throttles); unset keeps it in process. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379/0')
    .optional(),
  /** Unset: on outside production, off in production (the demo accounts' password is published). */
  SEED_DEMO: zFlag.optional(),
  SIGNUP_CAPTCHA: z.enum(['optional', 'required']).default('optional'),
  CAPTCHA_HMAC_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  CAPTCHA_MAX_NUMBER: z.coerce.number().int().min(1000).max(10_000_000).default(100_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
  /** Proxy hops in front of the service whose X-Forwarded-For is trusted: 0 (default) trusts none. */
  TRUST_PROXY: z
    .union([z.enum(['true', 'false']), z.coerce.number().int().min(0).max(10)])
    .transform((value) => (value === 'true' ? 1 : value === 'false' ? 0 : value))
    .default(0),
  /**
   * Comma-separated allowed browser origins, or * for any (credentials are never allowed: tokens travel in headers).
   * An origin is scheme://host[:port]: a bare host would never equal a browser's Origin header, so it is refused.
   */
  CORS_ORIGINS: z
    .string()
    .default('*')
    .superRefine((value, context) => {
      for (const entry of value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean)) {
        if (entry === '*' || /^[a-z][a-z0-9+.-]*:\/\/[^/\s]+$/i.test(entry)) continue;
        const hint = entry.includes('://')
          ? 'an origin has no path or trailing slash'
          : `it has no scheme: write https://${entry}`;
        context.addIssue({ code: 'custom', message: `"${entry}" is not an origin (${hint})` });
      }
    }),
  RATE_LIMIT_GLOBAL: zPositive(600).describe('requests per minute per client'),
  RATE_LIMIT_SIGNIN: zPositive(20).describe('sign-in attempts per 15 minutes per client'),
  RATE_LIMIT_SIGNIN_ACCOUNT: zPositive(5).describe('failed sign-ins per 15 minutes per account before lock-out'),
  RATE_LIMIT_SIGNUP: zPositive(10).describe('sign-ups per hour per client'),
  RATE_LIMIT_CAPTCHA: zPositive(30).describe('captcha challenges per minute per client'),
  RATE_LIMIT_ORDERS: zPositive(20).describe('sponsorship orders per hour per account'),
  RATE_LIMIT_COMMENTS: zPositive(20).describe('comments written (created or edited) per 10 minutes per account'),
  RATE_LIMIT_AVATAR_UPLOADS: zPositive(10).describe('avatar uploads per hour per account'),
  RATE_LIMIT_FORKS: zPositive(30).describe('assembly forks per hour per account'),
  /** Most calls in one native tRPC batch (`/trpc/a,b,c?batch=1`); a larger batch is one 400. Each call counts against RATE_LIMIT_GLOBAL. */
  TRPC_MAX_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  /** Bearer token that GET /metrics requires; unset, /metrics is open (it shows only aggregate figures). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** HMAC-SHA256 key of the `manual` payment provider's webhook; required in production. */
  PAYMENT_MANUAL_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Where a `manual` order's payer is sent; `{orderId}` is replaced. */
  PAYMENT_MANUAL_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be an http(s) URL')
    .default('http://127.0.0.1:3000/sponsor/pay?order={orderId}'),
  /** How long GET /drop/current serves its in-process cache before rebuilding it. */
  DROP_CACHE_TTL_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Minimum gap between two `refresh=1` rebuilds asked by one client; more is a 429. */
  DROP_REFRESH_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /** War snapshots older than this are thinned to one per hour (never deleted wholesale). */
  WAR_THIN_AFTER_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  RATE_LIMIT_ASSEMBLY_PASSWORD_CLIENT: zPositive(10).describe(
    "wrong guesses at one private assembly's password per 15 minutes per client",
  ),
  RATE_LIMIT_ASSEMBLY_PASSWORD: zPositive(50).describe(
    "wrong guesses at one private assembly's password per 15 minutes from all clients",
  ),
  RATE_LIMIT_TEAMUP_ANONYMOUS: zPositive(2).describe(
    'team-ups published per hour per client address without signing in',
  ),
  RATE_LIMIT_TEAMUP_ACCOUNT: zPositive(10).describe('team-ups published per hour per account'),
  /** Path of the web client's WebSocket (team-ups), on the same port as the API. */
  LIVE_WS_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9._~/-]*$/, 'must be a path such as /ws')
    .refine((path) => !/^\/(api|trpc)(\/|$)/.test(path), 'must not be under /api or /trpc')
    .default('/ws'),
  /** Open live streams (WebSocket, GET /api/events, tRPC subscriptions) per client address on this instance. */
  LIVE_MAX_CONNECTIONS_PER_CLIENT: zPositive(16),
  /** Open live streams on this instance, all clients together. */
  LIVE_MAX_CONNECTIONS: zPositive(20_000),
  /** Interval of heartbeats (WebSocket ping, SSE comment, tRPC ping); a peer silent for two of them is closed. */
  LIVE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(600_000).default(25_000),
  /** How long after connecting a WebSocket may send `authenticate`; later, the connection is closed. */
  LIVE_WS_AUTH_DEADLINE_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** Largest WebSocket message a client may send (bytes); a larger one closes the connection (1009). */
  LIVE_WS_MAX_MESSAGE_BYTES: z.coerce.number().int().min(256).max(1_048_576).default(4096),
  /** Messages one WebSocket connection may send per minute; more closes it (1008). */
  LIVE_WS_MESSAGES_PER_MINUTE: zPositive(60),
  /** Bytes a live stream may have waiting to be sent to a slow reader before it is closed. */
  LIVE_MAX_BUFFERED_BYTES: z.coerce
    .number()
    .int()
    .min(4096)
    .max(64 * 1024 * 1024)
    .default(256 * 1024),
  /** Events kept for resuming (Last-Event-ID, tracked ids); an older id is told it missed some (a gap). */
  LIVE_RESUME_EVENTS: z.coerce.number().int().min(1).max(100_000).default(1000),
});

export type TConfig = Omit<z.infer<typeof ZConfig>, 'SEED_DEMO'> & { SEED_DEMO: boolean };

/** Settings whose value is a secret: a configuration error names them but never shows what they were set to. */
const SECRET_KEYS = new Set(['PAYMENT_MANUAL_SECRET', 'CAPTCHA_HMAC_KEY', 'METRICS_TOKEN', 'DATABASE_AUTH_TOKEN']);

/** A URL as it may be shown: without its user info (redis://:password@host) or token parameters (?authToken=). */
export function redactUrl(value: string): string {
  return value
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@')
    .replace(/([?&][^=&#]*(?:token|password|secret|key)[^=&#]*=)[^&#]*/gi, '$1***');
}

function shown(name: string, value: string): string {
  if (SECRET_KEYS.has(name)) return ' (value not shown: it is a secret)';
  // JSON quoting keeps a value with a line break on the one line of the error.
  return ` (got ${JSON.stringify(name.endsWith('_URL') ? redactUrl(value) : value)})`;
}

/** SEED_DEMO unset: the demo data (an admin with a published password) only outside production. */
function resolveSeedDemo(config: z.infer<typeof ZConfig>): TConfig {
  return { ...config, SEED_DEMO: config.SEED_DEMO ?? config.NODE_ENV !== 'production' };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): TConfig {
  const relevant: Record<string, string> = {};
  for (const key of Object.keys(ZConfig.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') relevant[key] = value;
  }
  const parsed = ZConfig.safeParse(relevant);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const given = relevant[name];
      return `${name}: ${issue.message}${given === undefined ? '' : shown(name, given)}`;
    });
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}`);
  }
  // A known development key in production would let anyone forge payment confirmations.
  if (parsed.data.NODE_ENV === 'production' && parsed.data.PAYMENT_MANUAL_SECRET === undefined) {
    throw new ConfigError('Invalid configuration: PAYMENT_MANUAL_SECRET: is required when NODE_ENV=production');
  }
  // REDIS_URL means several instances: with a random key per process, a captcha from one fails on the others.
  if (parsed.data.REDIS_URL !== undefined && parsed.data.CAPTCHA_HMAC_KEY === undefined) {
    throw new ConfigError(
      'Invalid configuration: CAPTCHA_HMAC_KEY: is required with REDIS_URL (every instance must share the same key)',
    );
  }
  if (parsed.data.DATABASE_DRIVER === 'better-sqlite3' && !parsed.data.DATABASE_URL.startsWith('file:')) {
    throw new ConfigError(
      'Invalid configuration: DATABASE_DRIVER: better-sqlite3 opens only file: URLs; use libsql (or leave it unset) for a libSQL server',
    );
  }
  return resolveSeedDemo(parsed.data);
}

/** Test and tooling helper: defaults overridden by the given values. */
export function configWith(overrides: Partial<TConfig> = {}): TConfig {
  return { ...resolveSeedDemo(ZConfig.parse({})), ...overrides };
}
