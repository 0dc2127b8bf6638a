// The web client's query of the list (GlowProw/website, issue 18): its sort (`sortField`, `sortOrder`) and
// its date ranges, normalised into the canonical query (list-schemas.ts composes them with the contract's).
import { z } from 'zod';
import { zBool } from '../../schemas';

export const LIST_SORTS = ['latest', 'hottest', 'rating', 'updated'] as const;
export type TListSort = (typeof LIST_SORTS)[number];
export const LIST_ORDERS = ['desc', 'asc'] as const;
export type TListOrder = (typeof LIST_ORDERS)[number];

/** The web client's sortField values and our sorts (a null-prototype map: sortField is the user's). */
const SORT_FIELDS: Readonly<Record<string, TListSort>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, TListSort>, {
    createdTime: 'latest',
    likes: 'hottest',
    rating: 'rating',
    updatedTime: 'updated',
  }),
);

/** The sort a client's sortField names, or undefined when it names none (`__proto__` included). */
export function sortOfField(sortField: string): TListSort | undefined {
  return Object.hasOwn(SORT_FIELDS, sortField) ? SORT_FIELDS[sortField] : undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A date (YYYY-MM-DD, UTC) or an ISO 8601 instant with its offset (what the client's TimeFrame pickers send: `new Date(day).toISOString()`). */
const DATE_BOUND = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** One bound of a date range: epoch ms, or undefined when absent ('' and the client's 'null', sent when one picker is empty, are absent). */
const zDateBound = () =>
  z
    .string()
    .max(64, 'must be at most 64 characters')
    .optional()
    .transform((value, ctx): number | undefined => {
      if (value === undefined || value === '' || value === 'null') return undefined;
      const ms = DATE_BOUND.test(value) ? Date.parse(value) : NaN;
      if (Number.isNaN(ms)) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a date (YYYY-MM-DD) or an ISO 8601 instant with its offset (2025-03-01T00:00:00.000Z)',
        });
        return z.NEVER;
      }
      return ms;
    });

/** The description of a range's Start parameter (list-schemas.ts gives it the cap). */
export const rangeDescription = (field: string, cap: number) =>
  `Only assemblies whose ${field} is in the range: Start from its instant, End through the 24 hours that start at it (a date: that whole UTC day; ` +
  "the web client's pickers send the local midnight of the chosen days). Either bound may be absent; Start after End is a 400. " +
  `A range pages through at most ${cap} matches (see truncated)`;

/** The client's query parameters of GET /assembly/list (beside page, pageSize and keyword, which the contract has too). */
export const clientListFields = {
  sortField: z
    .string()
    .max(32)
    .meta({
      description:
        "The web client's sort: createdTime (sort=latest), likes (sort=hottest), rating or updatedTime (sort=updated)",
    })
    .optional(),
  // The description before optional(): the OpenAPI document shows an optional parameter's inner schema.
  sortOrder: z
    .enum(LIST_ORDERS, { error: 'must be desc or asc' })
    .meta({
      description:
        'desc (the default: newest, hottest, best rated, last edited first) or asc (the same order reversed)',
    })
    .optional(),
  isHasPassword: zBool()
    .meta({
      description:
        'The web client\'s "list assemblies with a password" box. Lists hold public assemblies only, and an assembly with a password is private, so it changes nothing',
    })
    .optional(),
  createdStart: zDateBound(),
  createdEnd: zDateBound(),
  updatedStart: zDateBound(),
  updatedEnd: zDateBound(),
};

/** A date range of the list, epoch ms: `from` inclusive, `until` exclusive; either may be absent. */
export type TDateRange = { from?: number; until?: number };

type TClientListQuery = { sort?: TListSort } & {
  [K in keyof typeof clientListFields]?: z.output<(typeof clientListFields)[K]>;
};

/** The checks of the client's list parameters: a sortField we offer that agrees with sort, ranges whose start is not after their end. */
export function checkClientListQuery(input: TClientListQuery, ctx: z.RefinementCtx): void {
  if (input.sortField !== undefined) {
    const sort = sortOfField(input.sortField);
    if (sort === undefined)
      ctx.addIssue({ code: 'custom', path: ['sortField'], message: `must be ${Object.keys(SORT_FIELDS).join(', ')}` });
    else if (input.sort !== undefined && sort !== input.sort)
      ctx.addIssue({ code: 'custom', path: ['sortField'], message: `disagrees with sort=${input.sort}` });
  }
  for (const field of ['created', 'updated'] as const) {
    const start = input[`${field}Start`];
    const end = input[`${field}End`];
    if (start !== undefined && end !== undefined && start > end)
      ctx.addIssue({ code: 'custom', path: [`${field}Start`], message: `must not be after ${field}End` });
  }
}

/** A range of the canonical query from the client's two bounds: End covers the 24 hours from its instant (its day). */
export function rangeOf(start: number | undefined, end: number | undefined): TDateRange | undefined {
  if (start === undefined && end === undefined) return undefined;
  return { ...(start !== undefined ? { from: start } : {}), ...(end !== undefined ? { until: end + DAY_MS } : {}) };
}
