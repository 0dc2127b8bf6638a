/**
 * Schemas of the map domain's collections: what is written and what is shown (points as a resource
 * of their own: point-schemas.ts).
 *
 * Inputs are strict (an unknown key is a 400 that names it). The community web client's form is
 * accepted beside the contract's: `public` (0/1, true/false, "0"/"1") is the visibility, the same
 * as Tidewatch's `isPublic`, turned into the one canonical input the services take (`isPublic`),
 * here and nowhere else. `sharedUsers` names the users a collection is shared with (read access).
 */
import { z } from 'zod';
import { ZTimestamp, zBool, zPage, zPageInput } from '../../schemas';
import { zText } from '../../text';

export const MAX_POINTS_PER_COLLECTION = 1000;
/** Every point a user owns, in collections or not; checked inside each write's transaction. */
export const MAX_POINTS_PER_USER = 10_000;
/** Users one collection may be shared with. */
export const MAX_SHARED_USERS = 50;

export const ZTag = zText({ min: 1, max: 24 });

export const ZMapPointInput = z.strictObject({
  uuid: z
    .uuid('must be a UUID')
    .optional()
    .meta({ description: 'An existing point of yours to keep (its uuid); absent for a new point' }),
  title: zText({ min: 1, max: 100 }).meta({ description: 'Name of the spot, 1-100 characters' }),
  description: zText({ max: 2000, kind: 'multiline' })
    .nullish()
    .meta({ description: 'Notes, up to 2000 characters; null for none' }),
  latitude: z
    .number('must be a number')
    .min(-90, 'must be between -90 and 90')
    .max(90, 'must be between -90 and 90')
    .meta({ description: 'Latitude in degrees, -90 to 90' }),
  longitude: z
    .number('must be a number')
    .min(-180, 'must be between -180 and 180')
    .max(180, 'must be between -180 and 180')
    .meta({ description: 'Longitude in degrees, -180 to 180' }),
  tags: z.array(ZTag).max(10, 'at most 10 tags').optional().meta({ description: 'Up to 10 tags of 1-24 characters' }),
});
export type TPointInput = z.infer<typeof ZMapPointInput>;

const ZPoints = z
  .array(ZMapPointInput)
  .max(MAX_POINTS_PER_COLLECTION, `at most ${MAX_POINTS_PER_COLLECTION} points per collection`);
const ZTitle = zText({ min: 1, max: 120 }).meta({ description: 'Name of the collection, 1-120 characters' });
const ZDescription = zText({ max: 4000, kind: 'multiline' })
  .nullish()
  .meta({ description: 'Notes, up to 4000 characters; null for none' });
const ZCollectionId = z.uuid('must be a collection UUID').meta({ description: 'The collection (v4 UUID)' });

/** The web client's visibility field: 0 (private) or 1 (public); true/false and "0"/"1" mean the same. */
export const ZPublicFlag = zBool().meta({
  description: "The web client's name for isPublic: 0 or false is private, 1 or true public",
});

/**
 * The users a collection is shared with (the web client's combobox: "Enter user IDs"): each entry is
 * a user id or a username (any case). They may read the collection and its points even when it is
 * not public; only the author changes it. Given on update, the list replaces the shares.
 */
const ZSharedUsers = z
  .array(zText({ min: 1, max: 64 }))
  .max(MAX_SHARED_USERS, `at most ${MAX_SHARED_USERS} users`)
  .meta({
    description: `User ids or usernames (at most ${MAX_SHARED_USERS}) who may read the collection; replaces the shares when given. Unknown users and the author: 400`,
  });

const visibilityFields = {
  isPublic: zBool().optional().meta({
    description:
      'Readable by everyone (true) or by its author and the users it is shared with (false); private when absent on create',
  }),
  public: ZPublicFlag.optional(),
  sharedUsers: ZSharedUsers.optional(),
};

/** `public` and `isPublic` are one field under two names: given both, they must agree. */
export function agreeOnVisibility(value: { isPublic?: boolean; public?: boolean }, check: z.core.$RefinementCtx): void {
  if (value.isPublic !== undefined && value.public !== undefined && value.isPublic !== value.public) {
    check.addIssue({ code: 'custom', path: ['public'], message: 'disagrees with isPublic: give one of them' });
  }
}

/**
 * An update's fields, as its 400 and its description list them: `public` and `isPublic` are one field
 * under two names. Read from the schema's own fields, so the list cannot drift from what is accepted.
 */
export function updatableFields(changes: Record<string, z.ZodType>): string {
  return Object.keys(changes)
    .filter((key) => key !== 'isPublic')
    .map((key) => (key === 'public' ? 'public (or isPublic)' : key))
    .join(', ');
}

/** The check of an update: at least one of `changes`' fields is given. */
export function changesSomething(changes: Record<string, z.ZodType>) {
  const keys = Object.keys(changes);
  return [
    (value: Record<string, unknown>) => keys.some((key) => value[key] !== undefined),
    { message: `give at least one of ${updatableFields(changes)}` },
  ] as const;
}

/** The canonical visibility: `isPublic` if given, else the client's `public`, else left out. */
export function canonicalVisibility<T extends { isPublic?: boolean; public?: boolean }>(value: T) {
  const { public: publicFlag, isPublic, ...rest } = value;
  const visibility = isPublic ?? publicFlag;
  return { ...rest, ...(visibility !== undefined && { isPublic: visibility }) } as Omit<T, 'public' | 'isPublic'> & {
    isPublic?: boolean;
  };
}

export const ZCollectionRef = z.strictObject({ uuid: ZCollectionId });

export const ZListOwnInput = z.strictObject(zPageInput(20)).prefault({});

export const ZNewCollection = z
  .strictObject({
    title: ZTitle,
    description: ZDescription,
    ...visibilityFields,
    points: ZPoints.optional().meta({ description: `Its points (at most ${MAX_POINTS_PER_COLLECTION})` }),
  })
  .superRefine(agreeOnVisibility)
  .transform(canonicalVisibility);
export type TNewCollection = z.output<typeof ZNewCollection>;

/** What an update of a collection may change: at least one of these. */
const collectionChanges = {
  title: ZTitle.optional(),
  description: ZDescription,
  ...visibilityFields,
  points: ZPoints.optional().meta({
    description: `Replaces the whole set of points (at most ${MAX_POINTS_PER_COLLECTION}); a point given with its uuid is kept`,
  }),
};
/** `title, description, public (or isPublic), sharedUsers, points`. */
export const COLLECTION_UPDATABLE_FIELDS = updatableFields(collectionChanges);

export const ZUpdateCollection = z
  .strictObject({ uuid: ZCollectionId, ...collectionChanges })
  .superRefine(agreeOnVisibility)
  .refine(...changesSomething(collectionChanges))
  .transform(canonicalVisibility);
/** Any of COLLECTION_UPDATABLE_FIELDS; points and sharedUsers replace the whole set. */
export type TCollectionPatch = Omit<z.output<typeof ZUpdateCollection>, 'uuid'>;

export const ZPoint = z.object({
  uuid: z.string().meta({ description: 'The point (v4 UUID)' }),
  title: z.string().meta({ description: 'Name of the spot' }),
  description: z.string().nullable().meta({ description: 'Notes; null when none' }),
  latitude: z.number().meta({ description: 'Latitude in degrees' }),
  longitude: z.number().meta({ description: 'Longitude in degrees' }),
  tags: z.array(z.string()).meta({ description: 'Its tags' }),
});
export type TPoint = z.infer<typeof ZPoint>;

/** One collection as the web client's `MapCollection` reads it (src/assets/types/Map.ts). */
export const ZCollectionSummary = z.object({
  id: z
    .string()
    .meta({ description: 'The collection UUID (the web client reads `id` and `uuid`; Tidewatch has one identifier)' }),
  uuid: z.string().meta({ description: 'The collection (v4 UUID)' }),
  userId: z.string().meta({ description: "The author's user id" }),
  username: z.string().meta({ description: "The author's username" }),
  title: z.string().meta({ description: 'Name of the collection' }),
  description: z.string().nullable().meta({ description: 'Notes; null when none' }),
  public: z
    .union([z.literal(0), z.literal(1)])
    .meta({ description: '1 public, 0 private (readable by its author and the users it is shared with)' }),
  sharedUsers: z
    .array(z.string())
    .meta({ description: 'The usernames it is shared with, shown to its author only ([] for everyone else)' }),
  pointCount: z.number().int().meta({ description: 'How many points it holds' }),
  createdAt: ZTimestamp.meta({ description: 'When it was created' }),
  updatedAt: ZTimestamp.meta({ description: 'When it or its points last changed' }),
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
  points: z.array(ZPoint).meta({ description: 'Its points, in the order given' }),
});
export type TCollection = z.infer<typeof ZCollection>;

export const ZCollectionDeleted = z.object({
  uuid: z.string().meta({ description: 'The deleted collection' }),
  deleted: z.literal(true).meta({ description: 'Always true' }),
});
