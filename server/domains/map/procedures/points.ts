// Map points as their own resource (issue 19), at the web client's paths (src/assets/sripts/api/map_service.ts).
// Visibility: a point's owner; anyone who can read its collection; anyone for an orphan point whose
// own `public` is set. What cannot be read is a 404; readable but not yours to change, a 403.
import { authedProcedure, publicProcedure, router } from '../../../trpc';
import { addPointsToCollection, removePointsFromCollection } from '../membership';
import { nearbyPoints } from '../nearby';
import {
  MAX_NEARBY_CANDIDATES,
  POINT_UPDATABLE_FIELDS,
  ZCollectionPointsInput,
  ZMapPoint,
  ZMembershipChange,
  ZNearby,
  ZNearbyInput,
  ZNewPoint,
  ZOrphanPointsInput,
  ZPointDeleted,
  ZPointPage,
  ZPointRef,
  ZPointUuidsInput,
  ZUpdatePoint,
  ZUserPointsInput,
} from '../point-schemas';
import {
  createPoint,
  deletePoint,
  getPoint,
  listCollectionPoints,
  listOrphanPoints,
  listUserPoints,
  updatePoint,
} from '../points';

const READ_RULE =
  'Readable by its owner, by anyone who can read its collection, and by anyone while it is in no collection with `public` 1; 404 otherwise.';
const OWNER_RULE = "Its owner only: someone else's point is a 403 if they can read it, 404 if not.";

const create = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/map/point',
      tags: ['map'],
      protect: true,
      summary: 'Create a point',
      description:
        "In `collectionUuid` (one of your collections: someone else's is a 403 if you can read it, 404 if not; at most 1,000 points) or, without it, as an orphan point. " +
        '`public` (default 0) makes an orphan point readable by anyone. At most 10,000 points per user (409).',
    },
  })
  .input(ZNewPoint)
  .output(ZMapPoint)
  .mutation(({ input, ctx }) => createPoint(ctx.deps, { userId: ctx.user.id, point: input }));

const get = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/map/point/{uuid}',
      tags: ['map'],
      protect: false,
      summary: 'One point',
      description: READ_RULE,
    },
  })
  .input(ZPointRef)
  .output(ZMapPoint)
  .query(({ input, ctx }) => getPoint(ctx.deps, { uuid: input.uuid, viewerId: ctx.auth?.user.id ?? null }));

const update = authedProcedure
  .meta({
    openapi: {
      method: 'PUT',
      path: '/map/point/{uuid}',
      tags: ['map'],
      protect: true,
      summary: 'Change a point',
      description: `Any of ${POINT_UPDATABLE_FIELDS}; null clears description and address. ${OWNER_RULE}`,
    },
  })
  .input(ZUpdatePoint)
  .output(ZMapPoint)
  .mutation(({ input, ctx }) => {
    const { uuid, ...patch } = input;
    return updatePoint(ctx.deps, { uuid, userId: ctx.user.id, patch });
  });

const remove = authedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/map/point/{uuid}',
      tags: ['map'],
      protect: true,
      summary: 'Delete a point',
      description: OWNER_RULE,
    },
  })
  .input(ZPointRef)
  .output(ZPointDeleted)
  .mutation(async ({ input, ctx }) => {
    await deletePoint(ctx.deps, { uuid: input.uuid, userId: ctx.user.id });
    return { uuid: input.uuid, deleted: true as const };
  });

const nearby = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/map/point/nearby',
      tags: ['map'],
      protect: false,
      summary: 'Points near a place, nearest first',
      description:
        'Points you may read within `radius` kilometres (great-circle; default 10, at most 500) of latitude/longitude (degrees), at most `limit` (default 10, at most 100), each with its `distance` in km. ' +
        'Without a token: public collections and public orphan points only. ' +
        `At most ${MAX_NEARBY_CANDIDATES.toLocaleString('en')} points of the search box are examined, your own first: \`truncated\` is true when it held more (nearer points may be missing; search a smaller radius).`,
    },
    // The web client reads them at the top level of the body (View.vue:1232).
    topLevel: { points: 'points' },
  })
  .input(ZNearbyInput)
  .output(ZNearby)
  .query(({ input, ctx }) => nearbyPoints(ctx.deps, { viewerId: ctx.auth?.user.id ?? null, query: input }));

const listOwn = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/map/user/points',
      tags: ['map'],
      protect: true,
      summary: 'Your points, newest change first',
      description:
        'One page (`pageSize` default 20). With `collectionUuid` (a collection you can read; 404 otherwise): your points in it, in its order.',
    },
    // The web client reads them at the top level of the body (maps.vue:105).
    topLevel: { points: 'data' },
  })
  .input(ZUserPointsInput)
  .output(ZPointPage)
  .query(({ input, ctx }) => listUserPoints(ctx.deps, { userId: ctx.user.id, ...input }));

const listOrphans = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/map/user/orphan-points',
      tags: ['map'],
      protect: true,
      summary: 'Your points in no collection, newest change first',
      description: 'One page (`pageSize` default 20).',
    },
    // The web client reads them at the top level of the body (maps.vue:127).
    topLevel: { points: 'data' },
  })
  .input(ZOrphanPointsInput)
  .output(ZPointPage)
  .query(({ input, ctx }) => listOrphanPoints(ctx.deps, { userId: ctx.user.id, ...input }));

const listInCollection = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/map/collections/{uuid}/points',
      tags: ['map'],
      protect: false,
      summary: "A collection's points, in its order",
      description:
        'One page (`pageSize` default 50). The collection must be readable: public, yours, or shared with you; 404 otherwise.',
    },
    // The web client reads them at the top level of the body (View.vue:1046).
    topLevel: { points: 'data' },
  })
  .input(ZCollectionPointsInput)
  .output(ZPointPage)
  .query(({ input, ctx }) => listCollectionPoints(ctx.deps, { viewerId: ctx.auth?.user.id ?? null, ...input }));

const MOVE_RULE =
  "Your collection and your points only: someone else's collection or point is a 403 if you can read it, 404 if not (naming `pointUuids[i]`). Each point is named once; points already in place are left as they are.";

const addToCollection = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/map/collection/{uuid}/points',
      tags: ['map'],
      protect: true,
      summary: 'Move your points into a collection',
      description: `Appended in the order given; a point in another of your collections leaves it. At most 1,000 points per collection (409). ${MOVE_RULE}`,
    },
  })
  .input(ZPointUuidsInput)
  .output(ZMembershipChange)
  .mutation(({ input, ctx }) => addPointsToCollection(ctx.deps, { userId: ctx.user.id, ...input }));

const removeFromCollection = authedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/map/collection/{uuid}/points',
      tags: ['map'],
      protect: true,
      summary: 'Take your points out of a collection (they become orphan points)',
      description: `A JSON body \`{pointUuids}\`, as the web client sends it. ${MOVE_RULE}`,
    },
  })
  .input(ZPointUuidsInput)
  .output(ZMembershipChange)
  .mutation(({ input, ctx }) => removePointsFromCollection(ctx.deps, { userId: ctx.user.id, ...input }));

export const pointsRouter = router({
  create,
  get,
  update,
  delete: remove,
  nearby,
  listOwn,
  listOrphans,
  listInCollection,
  addToCollection,
  removeFromCollection,
});
