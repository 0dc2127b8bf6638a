/**
 * Schemas of map points as a resource of their own (issue 19), in the paths and shapes of the
 * community web client (src/assets/sripts/api/map_service.ts, src/assets/types/Map.ts).
 *
 * A point has an owner and a global uuid and sits in at most one collection; one in none is an
 * "orphan" (the client's word). A point in a collection is as visible as its collection; an
 * orphan's own `public` flag decides for it. Coordinates are degrees (the client's map converts
 * them with OpenLayers' fromLonLat/toLonLat); `radius` of the nearby search is kilometres.
 */
import { z } from 'zod';
import { ZTimestamp, zBool, zInt, zPage, zPageInput } from '../../schemas';
import { zText } from '../../text';
import {
  MAX_POINTS_PER_COLLECTION,
  ZCollectionSummary,
  ZPublicFlag,
  ZTag,
  agreeOnVisibility,
  canonicalVisibility,
  changesSomething,
  updatableFields,
} from './schemas';

export const MAX_NEARBY_LIMIT = 100;
export const MAX_NEARBY_RADIUS_KM = 500;
export const DEFAULT_NEARBY_RADIUS_KM = 10;
/** Readable points of the search box a nearby search examines at most: its cost stays bounded where points are dense (nearby.ts). */
export const MAX_NEARBY_CANDIDATES = 2_000;

/** A number given as a number or as decimal text (query values arrive as text); bounds apply after parsing. */
function zDecimal(min: number, max: number, message: string) {
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^[-+]?(\d{1,15}(\.\d{0,15})?|\.\d{1,15})$/, 'must be a number'),
      ],
      { error: 'must be a number' },
    )
    .transform((value) => (typeof value === 'string' ? Number(value) : value))
    .pipe(z.number().min(min, message).max(max, message));
}

const ZPointUuid = z.uuid('must be a point UUID').meta({ description: 'The point (v4 UUID)' });
const ZCollectionUuid = z.uuid('must be a collection UUID').meta({ description: 'The collection (v4 UUID)' });
const ZTitle = zText({ min: 1, max: 100 }).meta({ description: 'Name of the spot, 1-100 characters' });
const ZDescription = zText({ max: 2000, kind: 'multiline' })
  .nullish()
  .meta({ description: 'Notes, up to 2000 characters; null clears them' });
const ZAddress = zText({ max: 200 })
  .nullish()
  .meta({ description: 'Where it is in words, up to 200 characters; null clears it' });
const ZLatitude = z
  .number('must be a number')
  .min(-90, 'must be between -90 and 90')
  .max(90, 'must be between -90 and 90')
  .meta({ description: 'Latitude in degrees, -90 to 90' });
const ZLongitude = z
  .number('must be a number')
  .min(-180, 'must be between -180 and 180')
  .max(180, 'must be between -180 and 180')
  .meta({ description: 'Longitude in degrees, -180 to 180' });
const ZTags = z.array(ZTag).max(10, 'at most 10 tags').meta({ description: 'Up to 10 tags of 1-24 characters' });

/**
 * The web client sends `sharedUsers` with every point (always `[]`). A point is shared through its
 * collection, so a non-empty list is refused rather than ignored (it would widen who can see it).
 */
const ZPointSharedUsers = z
  .array(zText({ max: 64 }))
  .max(0, 'a point is shared through its collection: send [] or leave it out')
  .meta({ description: 'Accepted empty only: share the collection instead' });

const pointVisibility = {
  public: ZPublicFlag.optional(),
  isPublic: zBool().optional().meta({
    description:
      'Readable by anyone while the point is in no collection (in a collection it is as visible as the collection)',
  }),
  sharedUsers: ZPointSharedUsers.optional(),
};

/** `collectionUuid` as the client sends it: a UUID, or `''`/null for none (an orphan point). */
const ZCollectionChoice = z
  .union([z.uuid('must be a collection UUID'), z.literal(''), z.null()], {
    error: 'must be a collection UUID, or empty for none',
  })
  .transform((value) => value || null)
  .meta({ description: "The collection to put the point in (your own); '' or null: none (an orphan point)" });

function withoutSharedUsers<T extends { sharedUsers?: string[] }>(value: T): Omit<T, 'sharedUsers'> {
  const { sharedUsers: _none, ...rest } = value;
  return rest;
}

export const ZNewPoint = z
  .strictObject({
    collectionUuid: ZCollectionChoice.optional(),
    title: ZTitle,
    description: ZDescription,
    latitude: ZLatitude,
    longitude: ZLongitude,
    address: ZAddress,
    tags: ZTags.optional(),
    ...pointVisibility,
  })
  .superRefine(agreeOnVisibility)
  .transform((value) => canonicalVisibility(withoutSharedUsers(value)));
export type TNewPoint = z.output<typeof ZNewPoint>;

export const ZPointRef = z.strictObject({ uuid: ZPointUuid });

/** What an update of a point may change: at least one of these (`sharedUsers` is accepted and ignored). */
const pointChanges = {
  title: ZTitle.optional(),
  description: ZDescription,
  latitude: ZLatitude.optional(),
  longitude: ZLongitude.optional(),
  address: ZAddress,
  tags: ZTags.optional(),
  public: pointVisibility.public,
  isPublic: pointVisibility.isPublic,
};
/** `title, description, latitude, longitude, address, tags, public (or isPublic)`. */
export const POINT_UPDATABLE_FIELDS = updatableFields(pointChanges);

export const ZUpdatePoint = z
  .strictObject({ uuid: ZPointUuid, ...pointChanges, sharedUsers: pointVisibility.sharedUsers })
  .superRefine(agreeOnVisibility)
  .refine(...changesSomething(pointChanges))
  .transform((value) => canonicalVisibility(withoutSharedUsers(value)));
/** Any of the point's fields; `null` clears description and address. */
export type TPointPatch = Omit<z.output<typeof ZUpdatePoint>, 'uuid'>;

/** One point as the web client's `MapPoint` reads it (src/assets/types/Map.ts). */
export const ZMapPoint = z.object({
  id: z
    .string()
    .meta({ description: 'The point UUID (the web client reads `id` and `uuid`; Tidewatch has one identifier)' }),
  uuid: z.string().meta({ description: 'The point (v4 UUID)' }),
  userId: z.string().meta({ description: "The owner's user id" }),
  collectionId: z.string().nullable().meta({ description: 'The UUID of its collection; null for an orphan point' }),
  title: z.string().meta({ description: 'Name of the spot' }),
  description: z.string().nullable().meta({ description: 'Notes; null when none' }),
  latitude: z.number().meta({ description: 'Latitude in degrees' }),
  longitude: z.number().meta({ description: 'Longitude in degrees' }),
  address: z.string().nullable().meta({ description: 'Where it is in words; null when none' }),
  tags: z.array(z.string()).meta({ description: 'Its tags' }),
  public: z.union([z.literal(0), z.literal(1)]).meta({
    description:
      "The point's own flag: 1 lets anyone read it while it is in no collection; in a collection it is as visible as the collection",
  }),
  sharedUsers: z.array(z.string()).meta({ description: 'Always []: a point is shared through its collection' }),
  createdAt: ZTimestamp.meta({ description: 'When it was created' }),
  updatedAt: ZTimestamp.meta({ description: 'When it last changed' }),
});
export type TMapPoint = z.infer<typeof ZMapPoint>;

export const ZPointPage = zPage(ZMapPoint);
export type TPointPage = z.infer<typeof ZPointPage>;

export const ZPointDeleted = z.object({
  uuid: z.string().meta({ description: 'The deleted point' }),
  deleted: z.literal(true).meta({ description: 'Always true' }),
});

export const ZUserPointsInput = z
  .strictObject({
    ...zPageInput(20),
    collectionUuid: ZCollectionUuid.optional().meta({
      description: 'Only your points in this collection (in its order)',
    }),
  })
  .prefault({});

export const ZOrphanPointsInput = z.strictObject(zPageInput(20)).prefault({});

export const ZCollectionPointsInput = z.strictObject({ uuid: ZCollectionUuid, ...zPageInput(50) });

export const ZPointUuidsInput = z.strictObject({
  uuid: ZCollectionUuid,
  pointUuids: z
    .array(ZPointUuid)
    .min(1, 'give at least one point')
    .max(MAX_POINTS_PER_COLLECTION, `at most ${MAX_POINTS_PER_COLLECTION} points`)
    .meta({ description: 'UUIDs of your own points' }),
});

export const ZMembershipChange = z.object({
  collection: ZCollectionSummary.meta({ description: 'The collection after the change' }),
  pointUuids: z
    .array(z.string())
    .meta({ description: 'The points this call moved (in, or out to orphans); points already in place are left out' }),
});
export type TMembershipChange = z.infer<typeof ZMembershipChange>;

export const ZNearbyInput = z.strictObject({
  latitude: zDecimal(-90, 90, 'must be between -90 and 90').meta({
    description: 'Latitude of the place to search around, in degrees',
  }),
  longitude: zDecimal(-180, 180, 'must be between -180 and 180').meta({
    description: 'Longitude of the place to search around, in degrees',
  }),
  radius: zDecimal(0, MAX_NEARBY_RADIUS_KM, `must be between 0 and ${MAX_NEARBY_RADIUS_KM} (kilometres)`)
    .meta({
      description: `Kilometres, great-circle distance (default ${DEFAULT_NEARBY_RADIUS_KM}, at most ${MAX_NEARBY_RADIUS_KM})`,
    })
    .default(DEFAULT_NEARBY_RADIUS_KM),
  limit: zInt({ min: 1, max: MAX_NEARBY_LIMIT })
    .meta({ description: `At most this many points (default 10, at most ${MAX_NEARBY_LIMIT})` })
    .default(10),
});
export type TNearbyInput = z.output<typeof ZNearbyInput>;

export const ZNearbyPoint = ZMapPoint.extend({
  distance: z.number().meta({ description: 'Kilometres from the given place' }),
});

export const ZNearby = z.object({
  points: z.array(ZNearbyPoint).meta({ description: 'The points you may read within radius, nearest first' }),
  radius: z.number().meta({ description: 'The radius searched, in kilometres' }),
  limit: z.number().int().meta({ description: 'The most points answered' }),
  truncated: z.boolean().meta({
    description:
      `true when the search box held more than ${MAX_NEARBY_CANDIDATES.toLocaleString('en')} points you may read: only that many were examined, ` +
      'so nearer ones may be missing (search a smaller radius); false when every point you may read in the box was examined',
  }),
});
export type TNearby = z.infer<typeof ZNearby>;
