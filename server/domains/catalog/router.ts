import { listHulls, listItems } from './reads';
import { ZHullPage, ZHullQuery, ZItemPage, ZItemQuery } from './schemas';
import { publicProcedure, router } from '../../trpc';

// The catalog changes only on import: shared caches may keep it a few minutes.
const CATALOG_CACHE = { cacheControl: 'public, max-age=300' };

/** Read side of the game catalog, so loadout builders know the ids and slots publish accepts. */
export const catalogRouter = router({
  listHulls: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/catalog/hulls',
        tags: ['assembly'],
        protect: false,
        summary: 'Hulls of the game catalog',
      },
      http: CATALOG_CACHE,
    })
    .input(ZHullQuery)
    .output(ZHullPage)
    .query(({ input, ctx }) => listHulls(ctx.deps, input)),

  listItems: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/catalog/items',
        tags: ['assembly'],
        protect: false,
        summary: 'Items of the game catalog',
      },
      http: CATALOG_CACHE,
    })
    .input(ZItemQuery)
    .output(ZItemPage)
    .query(({ input, ctx }) => listItems(ctx.deps, input)),
});
