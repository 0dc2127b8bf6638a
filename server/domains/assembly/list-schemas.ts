// The list and the trash: their inputs (the contract's query and the web client's, client-list-schemas.ts) and their pages.
import { z } from 'zod';
import { zPageInput, ZPagination } from '../../schemas';
import {
  checkClientListQuery,
  clientListFields,
  LIST_SORTS,
  rangeDescription,
  rangeOf,
  sortOfField,
  type TDateRange,
  type TListOrder,
  type TListSort,
} from './client-list-schemas';
import { ZAssemblySummary, ZTrashedAssembly } from './view-schemas';

/**
 * A list reaches its first this many results (page × pageSize at most this; Elasticsearch's
 * max_result_window is the same 10,000): a deeper page is a 400 (the list input schema), since its
 * cost grows with its offset. Every order walks an index, so the deepest page reads at most this
 * many index entries plus one page of rows (issue 16).
 */
export const MAX_LIST_WINDOW = 10_000;

/**
 * Keyword search pages through at most this many matches, the newest ones (GitHub's search API has
 * the same limit). Walking the FTS5 index newest first and stopping here keeps a search's cost
 * bounded by the cap, not by how many assemblies match; `total` says at most this, `truncated` that
 * there were more.
 */
export const MAX_SEARCH_RESULTS = 1000;

/** The one canonical list query the service takes: the contract's form and the client's normalised into it. */
export type TListQuery = {
  page: number;
  pageSize: number;
  keyword?: string;
  shipType?: string;
  sort: TListSort;
  order: TListOrder;
  created?: TDateRange;
  updated?: TDateRange;
};

export const ZListInput = z
  .strictObject({
    ...zPageInput(20),
    page: zPageInput(20).page.meta({
      description: `1-based; page × pageSize must be at most ${MAX_LIST_WINDOW} (a deeper page is a 400)`,
    }),
    keyword: z
      .string()
      .max(100, 'must be at most 100 characters')
      .optional()
      .meta({
        description: `Every word must be the start of a word of the name or tags of a public assembly (search as you type); only the newest ${MAX_SEARCH_RESULTS} matches are paged through (see truncated)`,
      }),
    shipType: z
      .string()
      .max(32, 'must be at most 32 characters')
      .optional()
      .meta({ description: 'Hull class: a size (extraSmall, small, medium, large) or archetype' }),
    sort: z
      .enum(LIST_SORTS, { error: 'must be latest, hottest, rating or updated' })
      .meta({
        description:
          'latest (the default), hottest, rating or updated (last edited first); sortOrder=asc reverses any of them',
      })
      .optional(),
    ...clientListFields,
    createdStart: clientListFields.createdStart.meta({
      description: rangeDescription('createdTime', MAX_SEARCH_RESULTS),
    }),
    updatedStart: clientListFields.updatedStart.meta({
      description: rangeDescription('updatedTime', MAX_SEARCH_RESULTS),
    }),
    createdEnd: clientListFields.createdEnd.meta({
      description: 'The last day of the createdTime range: through the 24 hours from this instant (see createdStart)',
    }),
    updatedEnd: clientListFields.updatedEnd.meta({
      description: 'The last day of the updatedTime range: through the 24 hours from this instant (see updatedStart)',
    }),
  })
  .superRefine((input, ctx) => {
    // A page's cost grows with its offset: lists reach their first MAX_LIST_WINDOW results (issue 16).
    if (input.page * input.pageSize > MAX_LIST_WINDOW) {
      ctx.addIssue({
        code: 'custom',
        path: ['page'],
        message: `page × pageSize must be at most ${MAX_LIST_WINDOW}: a list reaches its first ${MAX_LIST_WINDOW} results; narrow it with keyword or shipType`,
      });
    }
    checkClientListQuery(input, ctx);
  })
  .transform((input): TListQuery => {
    const { page, pageSize, keyword, shipType, sort, sortField, sortOrder } = input;
    const created = rangeOf(input.createdStart, input.createdEnd);
    const updated = rangeOf(input.updatedStart, input.updatedEnd);
    return {
      page,
      pageSize,
      ...(keyword !== undefined ? { keyword } : {}),
      ...(shipType !== undefined ? { shipType } : {}),
      sort: sort ?? (sortField !== undefined ? sortOfField(sortField) : undefined) ?? 'latest',
      order: sortOrder ?? 'desc',
      ...(created ? { created } : {}),
      ...(updated ? { updated } : {}),
    };
  });

export const ZTrashInput = z.strictObject({ ...zPageInput(20) });

export const ZAssemblyList = z.object({
  data: z.array(ZAssemblySummary).meta({ description: "The page's assemblies" }),
  pagination: ZPagination,
  truncated: z.boolean().meta({
    description:
      `True when the keyword matched more than ${MAX_SEARCH_RESULTS} assemblies, or a date range (without a keyword) held more: a keyword search pages through only its newest ${MAX_SEARCH_RESULTS} matches, ` +
      `a range through its first ${MAX_SEARCH_RESULTS} in the order asked when it is on the sorted field (createdTime for latest, updatedTime for updated), its newest ${MAX_SEARCH_RESULTS} otherwise ` +
      `(pagination.total is then at most ${MAX_SEARCH_RESULTS}; later pages are empty). Always false without a keyword or range.`,
  }),
});
export type TAssemblyList = z.infer<typeof ZAssemblyList>;
export const ZTrashList = z.object({
  data: z.array(ZTrashedAssembly).meta({ description: "The page's trashed assemblies, latest deleted first" }),
  pagination: ZPagination,
});
