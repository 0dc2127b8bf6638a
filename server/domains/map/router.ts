import { createCollection, deleteCollection, getCollection, listOwnCollections, updateCollection } from './service';
import {
  ZCollection,
  ZCollectionDeleted,
  ZCollectionList,
  ZCollectionRef,
  ZListOwnInput,
  ZNewCollection,
  ZUpdateCollection,
} from './schemas';
import { authedProcedure, publicProcedure, router } from '../../trpc';

export const mapRouter = router({
  listOwn: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/map/collections',
        tags: ['map'],
        protect: true,
        summary: "The caller's collections, newest change first",
        description: 'One page of `pageSize` (default 20): `data.data` is the array of collections, `data.pagination` the page.',
      },
    })
    .input(ZListOwnInput)
    .output(ZCollectionList)
    .query(({ input, ctx }) => listOwnCollections(ctx.deps, { userId: ctx.user.id, page: input.page, pageSize: input.pageSize })),

  get: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/map/collection/{uuid}',
        tags: ['map'],
        protect: false,
        summary: 'One collection with its points',
        description: "A non-public collection is a 404 for everyone but its author (send the author's token).",
      },
      http: { cacheControl: (collection: { public: 0 | 1 }) => (collection.public === 1 ? undefined : 'private, no-store') },
    })
    .input(ZCollectionRef)
    .output(ZCollection)
    .query(({ input, ctx }) => getCollection(ctx.deps, { uuid: input.uuid, viewerId: ctx.auth?.user.id ?? null })),

  create: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/map/collection',
        tags: ['map'],
        protect: true,
        summary: 'Create a collection',
        description: 'Public unless `public` is 0/false (or `isPublic` false). `sharedUsers` is accepted empty only. Unknown fields are a 400.',
      },
    })
    .input(ZNewCollection)
    .output(ZCollection)
    .mutation(({ input, ctx }) => createCollection(ctx.deps, { authorId: ctx.user.id, collection: input })),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/map/collection/{uuid}',
        tags: ['map'],
        protect: true,
        summary: 'Change a collection (author only)',
        description:
          'Any of title, description, public (or isPublic), points; points replace the whole set. `sharedUsers` is accepted empty only. Someone else\'s collection: 403 if public, 404 if not.',
      },
    })
    .input(ZUpdateCollection)
    .output(ZCollection)
    .mutation(({ input, ctx }) => {
      const { uuid, ...patch } = input;
      return updateCollection(ctx.deps, { uuid, userId: ctx.user.id, patch });
    }),

  delete: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/map/collection/{uuid}',
        tags: ['map'],
        protect: true,
        summary: 'Delete a collection and its points (author only)',
        description: "Someone else's collection: 403 if public, 404 if not.",
      },
    })
    .input(ZCollectionRef)
    .output(ZCollectionDeleted)
    .mutation(async ({ input, ctx }) => {
      await deleteCollection(ctx.deps, { uuid: input.uuid, userId: ctx.user.id });
      return { uuid: input.uuid, deleted: true as const };
    }),
});
