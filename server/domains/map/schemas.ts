/** Schemas of the map domain: collections of points, what is written and what is shown. */
import { z } from 'zod';
import { ZTimestamp, zBool, zPage, zPageInput } from '../../schemas';

export const MAX_POINTS_PER_COLLECTION = 1000;

const ZTag = z.string().trim().min(1, 'must not be empty').max(24, 'must be at most 24 characters');

export const ZMapPointInput = z.object({
  uuid: z.uuid('must be a UUID').optional(),
  title: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  description: z.string().max(2000, 'must be at most 2000 characters').nullish(),
  latitude: z.number('must be a number').min(-90, 'must be between -90 and 90').max(90, 'must be between -90 and 90'),
  longitude: z.number('must be a number').min(-180, 'must be between -180 and 180').max(180, 'must be between -180 and 180'),
  tags: z.array(ZTag).max(10, 'at most 10 tags').optional(),
});
export type TPointInput = z.infer<typeof ZMapPointInput>;

const ZPoints = z.array(ZMapPointInput).max(MAX_POINTS_PER_COLLECTION, `at most ${MAX_POINTS_PER_COLLECTION} points per collection`);
const ZTitle = z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters');
const ZDescription = z.string().max(4000, 'must be at most 4000 characters').nullish();
const ZCollectionId = z.uuid('must be a collection UUID');

export const ZCollectionRef = z.object({ uuid: ZCollectionId });

export const ZListOwnInput = z.object(zPageInput(20)).prefault({});

export const ZNewCollection = z.object({
  title: ZTitle,
  description: ZDescription,
  isPublic: zBool().optional(),
  points: ZPoints.optional(),
});
export type TNewCollection = z.infer<typeof ZNewCollection>;

export const ZUpdateCollection = z
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
  );
/** Any of title, description, isPublic, points; points replace the whole set. */
export type TCollectionPatch = Omit<z.infer<typeof ZUpdateCollection>, 'uuid'>;

export const ZPoint = z.object({
  uuid: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  tags: z.array(z.string()),
});
export type TPoint = z.infer<typeof ZPoint>;

export const ZCollectionSummary = z.object({
  uuid: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  isPublic: z.boolean(),
  pointCount: z.number().int(),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});
export type TCollectionSummary = z.infer<typeof ZCollectionSummary>;

export const ZCollectionPage = zPage(ZCollectionSummary);

export const ZCollection = ZCollectionSummary.extend({
  author: z.object({ id: z.string(), username: z.string() }),
  points: z.array(ZPoint),
});
export type TCollection = z.infer<typeof ZCollection>;

export const ZCollectionDeleted = z.object({ uuid: z.string(), deleted: z.literal(true) });
