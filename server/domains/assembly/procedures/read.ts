import { httpCaching } from '../../../http/caching';
import { authedProcedure, publicProcedure } from '../../../trpc';
import { passwordGuesses } from '../access';
import { getAssembly, getAttributes as attributesOf } from '../item';
import { listTrash as trashOf } from '../lifecycle';
import { withIsLiked } from '../like-reads';
import { listAssemblies } from '../list';
import { itemEtag } from '../queries';
import {
  MAX_LIST_WINDOW,
  MAX_SEARCH_RESULTS,
  ZAssemblyItem,
  ZAssemblyList,
  ZAttributes,
  ZAttributesInput,
  ZItemInput,
  ZListInput,
  ZTrashInput,
  ZTrashList,
  type TAssemblyItem,
} from '../schemas';

export const list = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/assembly/list',
      tags: ['assembly'],
      protect: false,
      summary: 'Public assemblies: search, filter by hull class, sort',
      description: `Newest first by default (sort=latest; the web client's sortField=createdTime, likes, rating or updatedTime maps onto sort=latest, hottest, rating or updated); sort=hottest by log10(2 × likes + views / 10 + 1) rounded to 0.01 + publication time / 12 h, sort=rating by (sum + 15) / (count + 5), sort=updated by the last edit. sortOrder=asc reverses any sort. A list reaches its first ${MAX_LIST_WINDOW} results: page × pageSize above that is a 400. With a keyword, at most the newest ${MAX_SEARCH_RESULTS} matches are paged through and ranked; a date range (createdStart/End, updatedStart/End) likewise pages through at most ${MAX_SEARCH_RESULTS}; data.truncated says whether more matched. Items are in data.data[].`,
    },
    http: { stored: { scope: 'list' } },
  })
  .input(ZListInput.prefault({}))
  .output(ZAssemblyList)
  // The page may be the shared cached one; the caller's own isLiked is set on a copy of it.
  .query(async ({ input, ctx }) =>
    withIsLiked(ctx.deps, { viewerId: ctx.auth?.user.id, page: await listAssemblies(ctx.deps, input) }),
  );

export const getItem = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/assembly/item',
      tags: ['assembly'],
      protect: false,
      summary: 'One assembly (private ones need their password unless you are the creator)',
      description:
        'force=true bypasses the read cache. Each read by someone other than the creator counts a view (stored within about a second). ' +
        'A private assembly with a password, read without it (and not by its creator), answers 200 with only uuid, isVisibility: false and isPassword: true (no content), so that a client can ask for the password; a wrong password is a 403.',
    },
    // The ETag leaves out the view counter, so a view does not defeat revalidation; a private one is never shared.
    // Anonymous reads of a public assembly are stored under its uuid and replayed around its live view count.
    http: httpCaching<TAssemblyItem>({
      etag: itemEtag,
      cacheControl: (view) =>
        view.isVisibility && view.assembly.visibility === 'publicly' ? undefined : 'private, no-cache',
      stored: {
        scope: 'item',
        key: 'uuid',
        bypassParams: ['force', 'password'],
        counter: { field: 'views', name: 'assemblyViews' },
      },
    }),
  })
  .input(ZItemInput)
  .output(ZAssemblyItem)
  .query(({ input, ctx }) =>
    getAssembly(ctx.deps, {
      ...input,
      viewerId: ctx.auth?.user.id,
      guesses: passwordGuesses(ctx),
    }),
  );

export const getAttributes = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/assembly/attr',
      tags: ['assembly'],
      protect: false,
      summary: 'Computed attributes of an assembly from the catalog, and its settings (data)',
    },
  })
  .input(ZAttributesInput)
  .output(ZAttributes)
  .query(({ input, ctx }) =>
    attributesOf(ctx.deps, { ...input, viewerId: ctx.auth?.user.id, guesses: passwordGuesses(ctx) }),
  );

export const listTrash = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/assembly/trash',
      tags: ['assembly'],
      protect: true,
      summary: 'Your trashed assemblies (purged 30 days after deletion)',
    },
  })
  .input(ZTrashInput.prefault({}))
  .output(ZTrashList)
  .query(({ input, ctx }) => trashOf(ctx.deps, { ...input, userId: ctx.user.id }));
