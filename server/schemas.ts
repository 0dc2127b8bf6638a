import { z } from 'zod';

/**
 * Schema helpers shared by every domain. Query strings arrive as text and JSON bodies as typed
 * values; these accept both without the `Boolean("false") === true` trap of blind coercion.
 */

/** A boolean given as true/false, 1/0, or the strings "true"/"false"/"1"/"0". Anything else is a 400. */
export function zBool() {
  return z
    .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['true', 'false', '1', '0'])], {
      error: 'must be true, false, 1 or 0',
    })
    .transform((value) => value === true || value === 1 || value === 'true' || value === '1');
}

/** An integer given as a number or as a string of digits; bounds apply after parsing. */
export function zInt(bounds: { min?: number; max?: number } = {}) {
  let target = z.number().int();
  if (bounds.min !== undefined) target = target.min(bounds.min);
  if (bounds.max !== undefined) target = target.max(bounds.max);
  return z
    .union([z.number(), z.string().regex(/^-?\d{1,15}$/, 'must be an integer')], { error: 'must be an integer' })
    .transform((value) => (typeof value === 'string' ? Number(value) : value))
    .pipe(target);
}

/**
 * An identifier given as text or a number (path and query values arrive as text; a tRPC client may
 * send a number). A pipe, so the REST adapter accepts it as a path or query parameter.
 */
export function zRef(maxLength: number) {
  return z
    .union([z.string(), z.number().int().min(0)], {
      error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string or a number'),
    })
    .transform((value) => String(value).trim())
    .pipe(z.string().min(1, 'is required').max(maxLength, `must be at most ${maxLength} characters`));
}

export const MAX_PAGE_SIZE = 100;

/** Pagination input with per-endpoint default page size; pageSize above 100 is a 400, not clamped. */
export function zPageInput(defaultPageSize: number) {
  return {
    page: zInt({ min: 1, max: 1_000_000 }).meta({ description: 'The page to answer, from 1' }).default(1),
    pageSize: zInt({ min: 1, max: MAX_PAGE_SIZE })
      .meta({ description: `Records per page, 1 to ${MAX_PAGE_SIZE} (more is a 400); ${defaultPageSize} when absent` })
      .default(defaultPageSize),
  };
}

export const ZPagination = z.object({
  page: z.number().int().meta({ description: 'The page answered, from 1' }),
  pageSize: z.number().int().meta({ description: 'Records per page, as asked' }),
  total: z.number().int().meta({ description: 'Records in the whole list' }),
  totalPages: z.number().int().meta({ description: 'Pages in the whole list: ceil(total / pageSize)' }),
});

export type TPagination = z.infer<typeof ZPagination>;

/** The list shape every paginated endpoint returns: `data` (the page's records, as the web client reads lists) and `pagination`. */
export function zPage<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item).meta({ description: "The page's records" }), pagination: ZPagination });
}

/** The one pagination helper: offset for the query, and the envelope's pagination block. */
export function pageWindow(page: number, pageSize: number) {
  return {
    limit: pageSize,
    offset: (page - 1) * pageSize,
    describe(total: number): TPagination {
      return { page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
    },
  };
}

/** An ISO-8601 timestamp as sent on the wire. */
export const ZTimestamp = z.iso.datetime();

export const ZEmpty = z.object({});

/** The input of a procedure that takes none: callable with no input at all (`client.health.get.query()`), or `{}`. */
export const ZNoInput = z.strictObject({}).optional();

/** How deep opaque JSON may nest (containers within containers): the web client's shapes need 4 or 5. */
export const MAX_JSON_DEPTH = 32;

/**
 * Why `value` is not plain JSON nested at most `maxDepth` levels, or undefined when it is: strings,
 * finite numbers, booleans, null, dense arrays and plain objects only (a superjson client can send a
 * Date, a Map or a BigInt, which JSON would change or refuse). Walked with a stack of its own, so no
 * depth of nesting can exhaust the call stack before it is refused.
 */
export function jsonProblem(value: unknown, maxDepth: number = MAX_JSON_DEPTH): string | undefined {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node === 'string' || typeof node === 'boolean') continue;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return 'must be JSON: numbers must be finite';
      continue;
    }
    if (typeof node !== 'object') return `must be JSON (not ${typeof node})`;
    if (depth >= maxDepth) return `must be JSON nested at most ${maxDepth} levels deep`;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        if (!(index in node)) return 'must be JSON (an array without holes)';
        pending.push([node[index], depth + 1]);
      }
      continue;
    }
    const prototype = Object.getPrototypeOf(node);
    if (prototype !== Object.prototype && prototype !== null) return 'must be JSON (plain objects only)';
    for (const key in node) pending.push([(node as Record<string, unknown>)[key], depth + 1]);
  }
  return undefined;
}

/**
 * Opaque JSON a client stores and reads back, never interpreted: plain JSON (jsonProblem), at most
 * MAX_JSON_DEPTH levels deep and `maxChars` characters as JSON text. A deeper value is a 400 naming
 * the field: answers carry it back to every reader, whose serialisers (superjson's, a browser's) recurse.
 */
export function zJson({ maxChars }: { maxChars: number }) {
  return z.unknown().superRefine((value, check) => {
    if (value === undefined) return;
    const problem = jsonProblem(value);
    if (problem !== undefined) check.addIssue({ code: 'custom', message: problem });
    else if (JSON.stringify(value).length > maxChars)
      check.addIssue({ code: 'custom', message: `must be at most ${maxChars} characters of JSON` });
  });
}

/**
 * The answer of a procedure whose body is streamed (`meta.streamed`, server/trpc.ts; the privilege
 * export): its Content-Type and file name, and its text as chunks, read as they are sent. The REST
 * surface writes the chunks as the body; native tRPC streams them to httpBatchStreamLink.
 */
export interface TStreamedAnswer {
  contentType: string;
  filename: string;
  chunks: AsyncIterable<string>;
}

export const ZStreamedAnswer = z.object({
  contentType: z.string().meta({ description: 'The Content-Type of the text' }),
  filename: z.string().meta({ description: 'A file name to save it under' }),
  chunks: z
    .custom<AsyncIterable<string>>(
      (value) => typeof value === 'object' && value !== null && Symbol.asyncIterator in value,
      'must be a stream of text',
    )
    .meta({ description: 'The text, in chunks (a stream)' }),
});
