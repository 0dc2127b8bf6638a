import { createCollection, deleteCollection, getCollection, listOwnCollections, updateCollection } from './service';
import {
  COLLECTION_UPDATABLE_FIELDS,
  ZCollection,
  ZCollectionDeleted,
  ZCollectionList,
  ZCollectionRef,
  ZListOwnInput,
  ZNewCollection,
  ZUpdateCollection,
} from './schemas';
import { authedProcedure, publicProcedure, router } from '../../trpc';
import { pointsRouter } from './procedures/points';

export const mapRouter = router({
  listOwn: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/map/collections',
        tags: ['map'],
        protect: true,
        summary: "The caller's collections, newest change first",
        description:
          'One page of `pageSize` (default 20): `data.data` is the array of collections, `data.pagination` the page.',
      },
    })
    .input(ZListOwnInput)
    .output(ZCollectionList)
    .query(({ input, ctx }) =>
      listOwnCollections(ctx.deps, { userId: ctx.user.id, page: input.page, pageSize: input.pageSize }),
    ),

  get: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/map/collection/{uuid}',
        tags: ['map'],
        protect: false,
        summary: 'One collection with its points',
        description:
          'A non-public collection is a 404 for everyone but its author and the users it is shared with (send your token). `sharedUsers` is shown to the author only.',
      },
      http: {
        cacheControl: (collection: { public: 0 | 1 }) => (collection.public === 1 ? undefined : 'private, no-store'),
      },
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
        description:
          'Public unless `public` is 0/false (or `isPublic` false). `sharedUsers`: user ids or usernames who may read it (at most 50; unknown users: 400). ' +
          "A point `uuid` of yours moves that point here; another user's point uuid is a 409. At most 10,000 points per user (409). Unknown fields are a 400.",
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
          `Any of ${COLLECTION_UPDATABLE_FIELDS}; points and sharedUsers replace the whole set (points left out are deleted). ` +
          "A point `uuid` of yours moves that point here; another user's point uuid is a 409. Someone else's collection: 403 if you can read it (public, or shared with you), 404 if not.",
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
        description: "Someone else's collection: 403 if you can read it (public, or shared with you), 404 if not.",
      },
    })
    .input(ZCollectionRef)
    .output(ZCollectionDeleted)
    .mutation(async ({ input, ctx }) => {
      await deleteCollection(ctx.deps, { uuid: input.uuid, userId: ctx.user.id });
      return { uuid: input.uuid, deleted: true as const };
    }),

  points: pointsRouter,
});
