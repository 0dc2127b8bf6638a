/**
 * Schemas of the map domain: collections of points, what is written and what is shown.
 *
 * Inputs are strict (an unknown key is a 400 that names it). The community web client's form is
 * accepted beside the contract's: `public` (0/1, true/false, "0"/"1") is the visibility, the same
 * as Tidewatch's `isPublic`; `sharedUsers` is accepted empty only (sharing is issue 19). Both turn
 * into the one canonical input the services take (`isPublic`), here and nowhere else.
 */
import { z } from 'zod';
import { ZTimestamp, zBool, zPage, zPageInput } from '../../schemas';

export const MAX_POINTS_PER_COLLECTION = 1000;

const ZTag = z.string().trim().min(1, 'must not be empty').max(24, 'must be at most 24 characters');

export const ZMapPointInput = z.strictObject({
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

/** The web client's visibility field: 0 (private) or 1 (public); true/false and "0"/"1" mean the same. */
const ZPublicFlag = zBool().meta({ description: "The web client's name for isPublic: 0 or false is private, 1 or true public" });

/**
 * Sharing a collection with named users is not implemented yet (issue 19). The web client always
 * sends the field; an empty list is accepted (nothing to share), a non-empty one is refused rather
 * than ignored, since it would widen who can see the collection.
 */
const ZSharedUsers = z
  .array(z.string().max(64, 'must be at most 64 characters'))
  .max(0, 'sharing a collection with other users is not supported yet: send [] or leave it out')
  .meta({ description: 'Accepted empty only: sharing with named users is not supported yet (always answered [])' });

const visibilityFields = {
  isPublic: zBool().optional(),
  public: ZPublicFlag.optional(),
  sharedUsers: ZSharedUsers.optional(),
};

/** `public` and `isPublic` are one field under two names: given both, they must agree. */
function agreeOnVisibility(value: { isPublic?: boolean; public?: boolean }, check: z.core.$RefinementCtx): void {
  if (value.isPublic !== undefined && value.public !== undefined && value.isPublic !== value.public) {
    check.addIssue({ code: 'custom', path: ['public'], message: 'disagrees with isPublic: give one of them' });
  }
}

/** The canonical visibility: `isPublic` if given, else the client's `public`, else left out. */
function canonicalVisibility<T extends { isPublic?: boolean; public?: boolean; sharedUsers?: string[] }>(value: T) {
  const { public: publicFlag, sharedUsers: _shared, isPublic, ...rest } = value;
  const visibility = isPublic ?? publicFlag;
  return { ...rest, ...(visibility !== undefined && { isPublic: visibility }) } as Omit<T, 'public' | 'sharedUsers' | 'isPublic'> & { isPublic?: boolean };
}

export const ZCollectionRef = z.strictObject({ uuid: ZCollectionId });

export const ZListOwnInput = z.strictObject(zPageInput(20)).prefault({});

export const ZNewCollection = z
  .strictObject({
    title: ZTitle,
    description: ZDescription,
    ...visibilityFields,
    points: ZPoints.optional(),
  })
  .superRefine(agreeOnVisibility)
  .transform(canonicalVisibility);
export type TNewCollection = z.output<typeof ZNewCollection>;

export const ZUpdateCollection = z
  .strictObject({
    uuid: ZCollectionId,
    title: ZTitle.optional(),
    description: ZDescription,
    ...visibilityFields,
    points: ZPoints.optional(),
  })
  .superRefine(agreeOnVisibility)
  .refine(
    (value) =>
      value.title !== undefined ||
      value.description !== undefined ||
      value.isPublic !== undefined ||
      value.public !== undefined ||
      value.points !== undefined,
    { message: 'give at least one of title, description, public (or isPublic), points' },
  )
  .transform(canonicalVisibility);
/** Any of title, description, isPublic, points; points replace the whole set. */
export type TCollectionPatch = Omit<z.output<typeof ZUpdateCollection>, 'uuid'>;

export const ZPoint = z.object({
  uuid: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  tags: z.array(z.string()),
});
export type TPoint = z.infer<typeof ZPoint>;

/** One collection as the web client's `MapCollection` reads it (src/assets/types/Map.ts). */
export const ZCollectionSummary = z.object({
  id: z.string().meta({ description: 'The collection UUID (the web client reads `id` and `uuid`; Tidewatch has one identifier)' }),
  uuid: z.string(),
  userId: z.string().meta({ description: "The author's user id" }),
  username: z.string().meta({ description: "The author's username" }),
  title: z.string(),
  description: z.string().nullable(),
  public: z.union([z.literal(0), z.literal(1)]).meta({ description: '1 public, 0 private (readable by its author only)' }),
  sharedUsers: z.array(z.string()).meta({ description: 'Always []: sharing with named users is not supported yet' }),
  pointCount: z.number().int(),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});
export type TCollectionSummary = z.infer<typeof ZCollectionSummary>;

/**
 * The caller's collections, one page. The web client reads the array as `body.data[]` (the envelope's
 * `data` itself); the contract fixes `data` as an object, so the array is `data.data` with the page
 * beside it, as in every paged list (docs/compatibility.md).
 */
export const ZCollectionList = zPage(ZCollectionSummary);
export type TCollectionList = z.infer<typeof ZCollectionList>;

export const ZCollection = ZCollectionSummary.extend({
  points: z.array(ZPoint),
});
export type TCollection = z.infer<typeof ZCollection>;

export const ZCollectionDeleted = z.object({ uuid: z.string(), deleted: z.literal(true) });
