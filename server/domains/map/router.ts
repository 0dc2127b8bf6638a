import { z } from 'zod';
import { ZTimestamp, zBool, zPage, zPageInput } from '../../schemas';
import {
  MAX_POINTS_PER_COLLECTION,
  createCollection,
  deleteCollection,
  getCollection,
  listOwnCollections,
  updateCollection,
} from './service';
import { authedProcedure, publicProcedure, router } from '../../trpc';

const ZTag = z.string().trim().min(1, 'must not be empty').max(24, 'must be at most 24 characters');

export const ZMapPointInput = z.object({
  uuid: z.uuid('must be a UUID').optional(),
  title: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  description: z.string().max(2000, 'must be at most 2000 characters').nullish(),
  latitude: z.number('must be a number').min(-90, 'must be between -90 and 90').max(90, 'must be between -90 and 90'),
  longitude: z.number('must be a number').min(-180, 'must be between -180 and 180').max(180, 'must be between -180 and 180'),
  tags: z.array(ZTag).max(10, 'at most 10 tags').optional(),
});

const ZPoints = z.array(ZMapPointInput).max(MAX_POINTS_PER_COLLECTION, `at most ${MAX_POINTS_PER_COLLECTION} points per collection`);
const ZTitle = z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters');
const ZDescription = z.string().max(4000, 'must be at most 4000 characters').nullish();
const ZCollectionId = z.uuid('must be a collection UUID');

const ZPoint = z.object({
  uuid: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  tags: z.array(z.string()),
});

const ZCollectionSummary = z.object({
  uuid: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  isPublic: z.boolean(),
  pointCount: z.number().int(),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});

const ZCollection = ZCollectionSummary.extend({
  author: z.object({ id: z.string(), username: z.string() }),
  points: z.array(ZPoint),
});

export const mapRouter = router({
  listOwn: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/map/collections', tags: ['map'], protect: true, summary: "The caller's collections, newest change first" },
    })
    .input(z.object(zPageInput(20)).prefault({}))
    .output(zPage(ZCollectionSummary))
    .query(({ input, ctx }) => listOwnCollections(ctx.db, ctx.user.id, input.page, input.pageSize)),

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
      http: { cacheControl: (collection: { isPublic: boolean }) => (collection.isPublic ? undefined : 'private, no-store') },
    })
    .input(z.object({ uuid: ZCollectionId }))
    .output(ZCollection)
    .query(({ input, ctx }) => getCollection(ctx.db, input.uuid, ctx.auth?.user.id ?? null)),

  create: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/map/collection', tags: ['map'], protect: true, summary: 'Create a collection' } })
    .input(
      z.object({
        title: ZTitle,
        description: ZDescription,
        isPublic: zBool().optional(),
        points: ZPoints.optional(),
      }),
    )
    .output(ZCollection)
    .mutation(({ input, ctx }) => createCollection(ctx.db, ctx.user.id, input, ctx.deps.now())),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/map/collection/{uuid}',
        tags: ['map'],
        protect: true,
        summary: 'Change a collection (author only)',
        description:
          'Any of title, description, isPublic, points; points replace the whole set. Someone else\'s collection: 403 if public, 404 if not.',
      },
    })
    .input(
      z
        .object({
          uuid: ZCollectionId,
          title: ZTitle.optional(),
          description: ZDescription,
          isPublic: zBool().optional(),
          points: ZPoints.optional(),
        })
        .refine(
          (value) => value.title !== undefined || value.description !== undefined || value.isPublic !== undefined || value.points !== undefined,
          { message: 'give at least one of title, description, isPublic, points' },
        ),
    )
    .output(ZCollection)
    .mutation(({ input, ctx }) => {
      const { uuid, ...patch } = input;
      return updateCollection(ctx.db, uuid, ctx.user.id, patch, ctx.deps.now());
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
    .input(z.object({ uuid: ZCollectionId }))
    .output(z.object({ uuid: z.string(), deleted: z.literal(true) }))
    .mutation(async ({ input, ctx }) => {
      await deleteCollection(ctx.db, input.uuid, ctx.user.id);
      return { uuid: input.uuid, deleted: true as const };
    }),
});
