import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../db/unavailable';

/**
 * The one table of error kinds: each code names its tRPC code (identical) and its HTTP status.
 * Both surfaces read it, so an error has the same status on REST and on native tRPC.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  PARSE_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  TIMEOUT: 408,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
  CLIENT_CLOSED_REQUEST: 499,
  INTERNAL_SERVER_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
} as const satisfies Partial<Record<TRPC_ERROR_CODE_KEY, number>>;

export type TAppErrorCode = keyof typeof ERROR_STATUS;

/**
 * The live service's message keys, sent as `data.key` of every error on both surfaces (REST envelope
 * and tRPC error data) beside the numeric `code`; the community web client translates
 * `basic.tips.<key>` (its src/lang/*.json) and signs out on `user.tokenExpired`. One row per error
 * kind of ERROR_STATUS: its default key first (any error of that kind without a more specific one),
 * then the specific keys an AppError may name (`new AppError(code, message, { key })`, checked by
 * the type against its own row). docs/compatibility.md lists this table.
 */
export const ERROR_KEYS = {
  BAD_REQUEST: ['request.bad', 'captcha.bad', 'captcha.expired', 'captcha.wrong'],
  PARSE_ERROR: ['request.bad'],
  UNAUTHORIZED: ['user.invalid', 'user.tokenExpired', 'signin.wrong'],
  FORBIDDEN: ['request.forbidden', 'comment.disabled', 'assembly.likesDisabled', 'user.blacklisted', 'user.frozen'],
  NOT_FOUND: ['request.notFound', 'user.notFound'],
  METHOD_NOT_SUPPORTED: ['request.methodNotAllowed'],
  TIMEOUT: ['request.timeout'],
  CONFLICT: ['request.conflict', 'signup.userAlreadyHas', 'signup.emailAlreadyHas'],
  PRECONDITION_FAILED: ['request.preconditionFailed'],
  PAYLOAD_TOO_LARGE: ['request.tooLarge'],
  UNSUPPORTED_MEDIA_TYPE: ['request.unsupportedMediaType'],
  UNPROCESSABLE_CONTENT: ['request.unprocessable'],
  TOO_MANY_REQUESTS: ['request.rateLimited'],
  CLIENT_CLOSED_REQUEST: ['request.closed'],
  INTERNAL_SERVER_ERROR: ['error'],
  NOT_IMPLEMENTED: ['request.notImplemented'],
  BAD_GATEWAY: ['request.badGateway'],
  SERVICE_UNAVAILABLE: ['request.unavailable'],
  GATEWAY_TIMEOUT: ['request.gatewayTimeout'],
} as const satisfies Record<TAppErrorCode, readonly [string, ...string[]]>;

/** A message key of errors of kind `C` (every key when `C` is not narrowed). */
export type TErrorKey<C extends TAppErrorCode = TAppErrorCode> = (typeof ERROR_KEYS)[C][number];

/** The key of an error of kind `code` that names none. */
export function defaultErrorKey(code: TAppErrorCode): TErrorKey {
  return ERROR_KEYS[code][0];
}

export interface TIssue {
  path: string;
  message: string;
}

export interface TAppErrorOptions<C extends TAppErrorCode = TAppErrorCode> {
  cause?: unknown;
  /** The message key sent as `data.key`, from the error kind's row of ERROR_KEYS; its default when left out. */
  key?: TErrorKey<C>;
  issues?: TIssue[];
  /** Seconds a client should wait before retrying (sent as Retry-After). */
  retryAfterSeconds?: number;
  /** Extra, safe-to-show fields placed in the envelope's data. */
  data?: Record<string, unknown>;
}

/**
 * The single error type thrown below the routers. It is a TRPCError, so tRPC passes it through
 * unchanged, and the REST adapter reads the same fields.
 */
export class AppError<C extends TAppErrorCode = TAppErrorCode> extends TRPCError {
  readonly issues?: TIssue[];
  readonly retryAfterSeconds?: number;
  readonly extra?: Record<string, unknown>;
  readonly key: TErrorKey;

  constructor(code: C, message: string, options: TAppErrorOptions<C> = {}) {
    super({ code, message, cause: options.cause });
    this.name = 'AppError';
    this.key = options.key ?? defaultErrorKey(code);
    this.issues = options.issues;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.extra = options.data;
  }
}

/** What any error looks like to a client: HTTP status, message and envelope data (always with `key`). */
export interface TPublicError {
  status: number;
  code: TAppErrorCode;
  message: string;
  data: Record<string, unknown>;
  retryAfterSeconds?: number;
}

export const INTERNAL_MESSAGE = 'Internal server error';

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part) => (typeof part === 'number' ? `[${part}]` : String(part)))
    .join('.')
    .replace(/\.\[/g, '[');
}

export function issuesFromZod(error: ZodError): TIssue[] {
  return error.issues
    .flatMap((issue) => specificIssues(issue, issue.path))
    .map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

type TZodIssue = ZodError['issues'][number];

/**
 * A union that failed names its field with "Invalid input". When the value had the type of exactly
 * one alternative (every other one failed on its type alone), that alternative's own issues say what
 * is wrong (`language: must be one line without control characters`), so they are reported instead.
 */
function specificIssues(issue: TZodIssue, path: PropertyKey[]): { path: PropertyKey[]; message: string }[] {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ path, message: issue.message }];
  const typed = issue.errors.filter(
    (errors) => !(errors.length === 1 && errors[0]!.code === 'invalid_type' && errors[0]!.path.length === 0),
  );
  if (typed.length !== 1) return [{ path, message: issue.message }];
  return typed[0]!.flatMap((inner) => specificIssues(inner as TZodIssue, [...path, ...inner.path]));
}

function messageFromIssues(issues: TIssue[]): string {
  const first = issues[0];
  if (!first) return 'Invalid input';
  const where = first.path === '' ? 'input' : first.path;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `Invalid input: ${where}: ${first.message}${more}`;
}

function findZodError(error: unknown): ZodError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    if (current instanceof ZodError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The one error mapper. Input validation becomes a 400 naming the field; AppErrors keep their code;
 * a database that cannot be reached (db/unavailable.ts) is a 503 with Retry-After; anything else
 * unexpected (including output validation failures) becomes a 500 that reveals nothing.
 */
export function toPublicError(error: unknown, requestId: string): TPublicError {
  if (!(error instanceof AppError) && isDatabaseUnavailable(error)) return databaseUnavailable(requestId);
  if (error instanceof TRPCError) {
    const code = (error.code in ERROR_STATUS ? error.code : 'INTERNAL_SERVER_ERROR') as TAppErrorCode;
    const status = ERROR_STATUS[code];
    if (error instanceof AppError) {
      const data: Record<string, unknown> = { ...error.extra, key: error.key };
      if (error.issues) data.issues = error.issues;
      if (status >= 500) data.requestId = requestId;
      return { status, code, message: error.message, data, retryAfterSeconds: error.retryAfterSeconds };
    }
    if (status >= 500) return internal(requestId);
    const zodError = code === 'BAD_REQUEST' ? findZodError(error) : undefined;
    if (zodError) {
      const issues = issuesFromZod(zodError);
      return { status, code, message: messageFromIssues(issues), data: { key: defaultErrorKey(code), issues } };
    }
    const message = (code === 'BAD_REQUEST' && unreadableInputMessage(error)) || error.message;
    return { status, code, message, data: { key: defaultErrorKey(code) } };
  }
  return internal(requestId);
}

/**
 * tRPC's adapter answers input it cannot read (its JSON.parse, a FormData parse) with a 400 whose
 * message is only what threw, in JavaScript's words; said in the input's terms instead (a JSON
 * parser's words name the place in the input, as REST's "Malformed JSON body" message does).
 */
function unreadableInputMessage(error: TRPCError): string | undefined {
  const cause = error.cause;
  if (!(cause instanceof Error) || cause instanceof TRPCError || error.message !== cause.message) return undefined;
  return cause instanceof SyntaxError
    ? `input must be valid JSON: ${cause.message}`
    : 'input must be a body in the format its Content-Type names';
}

/** Seconds a client is told to wait when the database cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

function databaseUnavailable(requestId: string): TPublicError {
  return {
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    message: `The database is unavailable; retry in ${DATABASE_RETRY_AFTER_SECONDS} s`,
    data: { key: defaultErrorKey('SERVICE_UNAVAILABLE'), requestId, retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  };
}

function internal(requestId: string): TPublicError {
  return {
    status: 500,
    code: 'INTERNAL_SERVER_ERROR',
    message: INTERNAL_MESSAGE,
    data: { key: defaultErrorKey('INTERNAL_SERVER_ERROR'), requestId },
  };
}

export function badRequest(message: string, issues?: TIssue[]): AppError {
  return new AppError('BAD_REQUEST', message, { issues });
}

/** The 400 of an import file (CLI imports of drops, war data, calendars): up to ten issues listed in the message, all of them in `issues`. */
export function invalidFile(issues: TIssue[]): AppError {
  const listed = issues.slice(0, 10).map((issue) => `  ${issue.path || '(root)'}: ${issue.message}`);
  const more = issues.length > 10 ? `\n  ... and ${issues.length - 10} more` : '';
  return new AppError(
    'BAD_REQUEST',
    `Invalid data (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${listed.join('\n')}${more}`,
    { issues },
  );
}
