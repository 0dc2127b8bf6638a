import { TRPCError, type AnyRouter } from '@trpc/server';
import {
  forEachOpenApiProcedure,
  generateOpenApiDocument,
  getInputOutputParsers,
  normalizePath,
  unwrapZodType,
  type OpenAPIObject,
} from 'trpc-to-openapi';
import { z } from 'zod';
import { ZAttributes } from './domains/assembly/attributes-schema';
import {
  ZClientAssembly,
  ZClientAttr,
  ZClientJson,
  ZClientLoadout,
  ZClientWarehouse,
  ZClientWheel,
  ZSlotRef,
} from './domains/assembly/client-schemas';
import { ZLikeCheck, ZLikeCount, ZLikeTarget, ZLikeToggle } from './domains/assembly/like-schemas';
import {
  ZAssembly,
  ZAssemblyCore,
  ZAssemblyList,
  ZAssemblySummary,
  ZAssemblyWeapon,
  ZClientAssemblyOut,
  ZClientPartOut,
  ZContractPatch,
  ZLikeResult,
  ZLockedAssembly,
  ZPublished,
  ZRateResult,
  ZRating,
  ZTrashedAssembly,
  ZTrashList,
  ZTrashResult,
  ZWeaponEntry,
} from './domains/assembly/schemas';
import { ZCalendar, ZCalendarEvent, ZCalendarEventInput, ZCalendarReplaceResult } from './domains/calendar/schemas';
import { ZChallenge, ZClientCaptcha } from './domains/captcha/schemas';
import { ZHullPage, ZHullRecord, ZHullSummary, ZImportReport, ZItemPage, ZItemRecord } from './domains/catalog/schemas';
import { ZComment, ZCommentDeleted, ZCommentList, ZMyComment, ZMyCommentList } from './domains/comment/schemas';
import { ZDropCampaign, ZDropCampaignInput, ZDropCurrent, ZDropUpsertResult } from './domains/drop/schemas';
import { ZHealth } from './domains/health/schemas';
import {
  ZMapPoint,
  ZMembershipChange,
  ZNearby,
  ZNearbyPoint,
  ZPointDeleted,
  ZPointPage,
} from './domains/map/point-schemas';
import {
  ZCollection,
  ZCollectionDeleted,
  ZCollectionList,
  ZCollectionSummary,
  ZMapPointInput,
  ZPoint,
} from './domains/map/schemas';
import {
  ZAdminOrder,
  ZCatalogImport,
  ZConfirmation,
  ZExpired,
  ZGoalResult,
  ZHall,
  ZHallEntry,
  ZImportCounts,
  ZMyOrders,
  ZMyStatus,
  ZOrder,
  ZPayType,
  ZPlan,
  ZPlans,
  ZProgress,
  ZPutPayTypeResult,
  ZPutPlanResult,
  ZPutTierResult,
  ZTier,
  ZVisibility,
  ZWebhookResult,
} from './domains/subscription/schemas';
import { ZProfile, ZPublicProfile, ZSignedIn, ZUserIdentity } from './domains/user/schemas';
import {
  ZBucketCompany,
  ZCompanyStanding,
  ZSeasonList,
  ZSeasonOut,
  ZSeasonSummary,
  ZSnapshotInput,
  ZSnapshotRecorded,
  ZThinResult,
  ZWarCompany,
  ZWarHistory,
  ZWarReferenceResult,
  ZWarState,
} from './domains/war/schemas';
import { toPublicError } from './errors';
import recordedExamples from './openapi-examples.json' with { type: 'json' };
import { ZPagination } from './schemas';
import { UNLIMITED_API_PATHS } from './http/rate-limit';
import { adminProcedure } from './trpc';

// biome-ignore lint/suspicious/noExplicitAny: the document is JSON built and rewritten in place; its nodes are read by shape.
type TJson = Record<string, any>;
type TProcedure = Parameters<typeof getInputOutputParsers>[0];

/**
 * The shapes the document names under components/schemas (and refers to with $ref wherever a
 * procedure uses them) instead of repeating them inline. Registered once, keeping their other metadata.
 */
const COMPONENTS: Record<string, z.ZodType> = {
  Pagination: ZPagination,
  Health: ZHealth,
  CaptchaChallenge: ZChallenge,
  AssemblyAttributes: ZAttributes,
  AssemblyRating: ZRating,
  HullSummary: ZHullSummary,
  ClientAssembly: ZClientAssemblyOut,
  ClientPart: ZClientPartOut,
  AssemblyWeapon: ZAssemblyWeapon,
  AssemblySummary: ZAssemblySummary,
  Assembly: ZAssembly,
  LockedAssembly: ZLockedAssembly,
  PublishedAssembly: ZPublished,
  TrashedAssembly: ZTrashedAssembly,
  AssemblyList: ZAssemblyList,
  WeaponEntry: ZWeaponEntry,
  AssemblyPatch: ZContractPatch,
  ClientAssemblyForm: ZClientAssembly,
  ClientLoadout: ZClientLoadout,
  ClientSlot: ZSlotRef,
  ClientJson: ZClientJson,
  ClientDisplaySettings: ZClientAttr,
  ClientWheelForm: ZClientWheel,
  ClientWarehouseForm: ZClientWarehouse,
  SvgCaptchaAnswer: ZClientCaptcha,
  PublicProfile: ZPublicProfile,
  Profile: ZProfile,
  Session: ZSignedIn,
  MapCollectionSummary: ZCollectionSummary,
  MapCollection: ZCollection,
  MapCollectionPoint: ZPoint,
  MapPoint: ZMapPoint,
  MapPointPage: ZPointPage,
  NewMapPoint: ZMapPointInput,
  Comment: ZComment,
  MyComment: ZMyComment,
  Order: ZOrder,
  AdminOrder: ZAdminOrder,
  Plan: ZPlan,
  Tier: ZTier,
  PayType: ZPayType,
  SponsorshipCatalog: ZCatalogImport,
  SponsorshipProgress: ZProgress,
  HallEntry: ZHallEntry,
  NearbyPoints: ZNearby,
  NearbyPoint: ZNearbyPoint,
  DropCurrent: ZDropCurrent,
  DropCampaignInput: ZDropCampaignInput,
  WarSnapshotInput: ZSnapshotInput,
  WarHistory: ZWarHistory,
  CalendarEventInput: ZCalendarEventInput,
  CatalogImportReport: ZImportReport,
  DropCampaign: ZDropCampaign,
  Season: ZSeasonOut,
  SeasonSummary: ZSeasonSummary,
  CompanyStanding: ZCompanyStanding,
  WarCompany: ZWarCompany,
  WarHistoryCompany: ZBucketCompany,
  WarState: ZWarState,
  Calendar: ZCalendar,
  CalendarEvent: ZCalendarEvent,
  Hull: ZHullRecord,
  CatalogItem: ZItemRecord,
  // Pages of the lists.
  HullPage: ZHullPage,
  CatalogItemPage: ZItemPage,
  MapCollectionPage: ZCollectionList,
  OrderPage: ZMyOrders,
  CommentPage: ZCommentList,
  MyCommentPage: ZMyCommentList,
  TrashPage: ZTrashList,
  Hall: ZHall,
  // The answers of writes and of the other reads, so that a client can name their types too.
  SeasonList: ZSeasonList,
  AssemblyTrashed: ZTrashResult,
  AssemblyLikeResult: ZLikeResult,
  AssemblyRateResult: ZRateResult,
  LikeState: ZLikeCheck,
  LikeToggleResult: ZLikeToggle,
  LikeCount: ZLikeCount,
  PointMembershipChange: ZMembershipChange,
  MembershipStatus: ZMyStatus,
  HallVisibility: ZVisibility,
  SubscriptionPlans: ZPlans,
  WebhookResult: ZWebhookResult,
  OrderConfirmation: ZConfirmation,
  ExpiredOrders: ZExpired,
  AdminPlan: ZPutPlanResult,
  AdminTier: ZPutTierResult,
  AdminPayType: ZPutPayTypeResult,
  FundingGoal: ZGoalResult,
  SponsorshipImportReport: ZImportCounts,
  DropImportReport: ZDropUpsertResult,
  WarReferenceReport: ZWarReferenceResult,
  WarSnapshotRecorded: ZSnapshotRecorded,
  WarThinReport: ZThinResult,
  CalendarReplaceReport: ZCalendarReplaceResult,
  MapCollectionDeleted: ZCollectionDeleted,
  MapPointDeleted: ZPointDeleted,
  CommentDeleted: ZCommentDeleted,
};
for (const [id, schema] of Object.entries(COMPONENTS))
  z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });

/**
 * Fields that several shapes share, which no operation answers alone: written once in the document,
 * under this name, for the shapes of EXTENSIONS that extend them.
 */
const FIELD_GROUPS: Record<string, z.ZodObject> = {
  AssemblyCore: ZAssemblyCore,
  LikeTarget: ZLikeTarget,
  UserIdentity: ZUserIdentity,
};

/**
 * Shapes that extend another (zod `.extend()`, or the fields of a FIELD_GROUPS entry and their own),
 * in an order where a shape is composed before it is extended. The document writes the shared fields
 * once: an extension is allOf its base's fields plus its own, and `unevaluatedProperties: false`
 * (JSON Schema 2020-12). A base that zod closes (no other property) moves its fields to an open
 * `<Base>Fields` and becomes allOf that, closed the same way: every shape stays exactly as closed as
 * zod makes it.
 */
const EXTENSIONS: [name: string, base: string][] = [
  ['AssemblySummary', 'AssemblyCore'],
  ['Assembly', 'AssemblyCore'],
  ['TrashedAssembly', 'AssemblySummary'],
  ['PublishedAssembly', 'Assembly'],
  ['PublicProfile', 'UserIdentity'],
  ['Session', 'UserIdentity'],
  ['Profile', 'PublicProfile'],
  ['MapCollection', 'MapCollectionSummary'],
  ['MapPoint', 'MapCollectionPoint'],
  ['NearbyPoint', 'MapPoint'],
  ['AdminOrder', 'Order'],
  ['MyComment', 'Comment'],
  ['SeasonSummary', 'Season'],
  ['Hull', 'HullSummary'],
  ['AdminTier', 'Tier'],
  ['AdminPayType', 'PayType'],
  ['CompanyStanding', 'WarCompany'],
  ['WarHistoryCompany', 'WarCompany'],
  ['LikeState', 'LikeTarget'],
  ['LikeCount', 'LikeTarget'],
  ['LikeToggleResult', 'LikeTarget'],
];

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Rewrites each shape of EXTENSIONS as its base's fields plus its own; throws when it no longer extends its base. */
function composeExtensions(schemas: TJson): void {
  const target = (node: TJson): TJson => (node.$ref ? schemas[node.$ref.split('/').at(-1)] : node);
  const propertiesOf = (schema: TJson): TJson =>
    Object.assign({}, ...(schema.allOf ?? []).map((part: TJson) => propertiesOf(target(part))), schema.properties);
  const requiredOf = (schema: TJson): string[] => [
    ...(schema.allOf ?? []).flatMap((part: TJson) => requiredOf(target(part))),
    ...(schema.required ?? []),
  ];

  /** The name of the open schema holding a base's fields, made on first use. */
  function fieldsOf(baseName: string, extension: TJson): string {
    if (schemas[`${baseName}Fields`]) return `${baseName}Fields`;
    const base = schemas[baseName];
    if (!base) {
      const group = FIELD_GROUPS[baseName];
      if (!group) throw new Error(`OpenAPI: no schema ${baseName} to extend (server/openapi.ts, EXTENSIONS)`);
      const keys = Object.keys(group.shape);
      const required = (extension.required ?? []).filter((key: string) => keys.includes(key));
      schemas[baseName] = {
        type: 'object',
        description: group.description,
        properties: Object.fromEntries(keys.map((key) => [key, extension.properties?.[key]])),
        required,
      };
      return baseName;
    }
    if (base.additionalProperties !== false && base.unevaluatedProperties !== false) return baseName;
    const fieldsName = `${baseName}Fields`;
    const { additionalProperties: _closed, unevaluatedProperties: _composed, description, ...fields } = base;
    schemas[fieldsName] = fields;
    schemas[baseName] = {
      ...(description && { description }),
      allOf: [{ $ref: `#/components/schemas/${fieldsName}` }],
      unevaluatedProperties: false,
    };
    return fieldsName;
  }

  for (const [name, baseName] of EXTENSIONS) {
    const extension = schemas[name];
    const isPlain = extension?.type === 'object' && extension.additionalProperties === false && !extension.allOf;
    const fieldsName = isPlain ? fieldsOf(baseName, extension) : undefined;
    const fields = fieldsName && schemas[fieldsName];
    const baseProperties = fields ? propertiesOf(fields) : {};
    const extends_ =
      fields &&
      Object.entries<TJson>(baseProperties).every(([key, property]) => sameJson(extension.properties[key], property)) &&
      requiredOf(fields).every((key) => extension.required?.includes(key));
    if (!extends_) throw new Error(`OpenAPI: ${name} no longer extends ${baseName} (server/openapi.ts, EXTENSIONS)`);
    const own = Object.keys(extension.properties).filter((key) => !(key in baseProperties));
    const required = (extension.required ?? []).filter((key: string) => own.includes(key));
    schemas[name] = {
      ...(extension.description && { description: extension.description }),
      allOf: [{ $ref: `#/components/schemas/${fieldsName}` }],
      type: 'object',
      properties: Object.fromEntries(own.map((key) => [key, extension.properties[key]])),
      ...(required.length > 0 && { required }),
      unevaluatedProperties: false,
    };
  }
}

/**
 * What one operation was sent and answered when scripts/openapi-examples.ts called it on a server
 * holding the demo data: its parameters, its JSON body, and the `data` of its answer (lists cut short).
 */
export interface TRecordedExample {
  parameters?: Record<string, unknown>;
  headers?: Record<string, string>;
  body?: unknown;
  response?: unknown;
}

/** The recorded examples, by `METHOD /path` as the document writes the path. */
export const RECORDED_EXAMPLES: Record<string, TRecordedExample> = recordedExamples;

const ERROR_ENVELOPE = {
  type: 'object',
  description: 'The body of every error: `code` equals the HTTP status',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'integer', description: 'Equals the HTTP status', example: 404 },
    message: {
      type: 'string',
      description:
        'What went wrong. On 400 it names the first field that failed: `Invalid input: <field>: <problem>`, with `(and N more)` when others failed too (all in data.issues)',
      example: 'Map collection not found',
    },
    data: {
      type: 'object',
      description:
        'Details: the message key, and what the error kind adds (issues, requestId, limit, retryAfterSeconds)',
      properties: {
        key: {
          type: 'string',
          description:
            "The live service's message key (e.g. `user.tokenExpired`, `request.bad`): one per error kind, or a more specific one; table in docs/compatibility.md",
          example: 'request.notFound',
        },
        issues: {
          type: 'array',
          description: 'On 400: every field that failed validation',
          items: {
            type: 'object',
            properties: {
              path: {
                type: 'string',
                description: 'The field, as a dotted path (`points[0].latitude`); empty for the input as a whole',
              },
              message: { type: 'string', description: 'What is wrong with it' },
            },
          },
        },
        requestId: { type: 'string', description: 'On 500 and 503: quote it to the operator' },
        limit: { type: 'integer', description: 'On 429: the number of requests allowed per window' },
        retryAfterSeconds: {
          type: 'integer',
          description: 'On 429 and 503: seconds to wait, as the Retry-After header says',
        },
      },
    },
  },
};

/** The fields every success envelope shares (its `data` is the operation's own). */
const SUCCESS_ENVELOPE_FIELDS = {
  SuccessCode: { type: 'integer', const: 200, description: 'Equals the HTTP status' },
  SuccessMessage: { type: 'string', const: 'success', description: 'Always `success` on a 2xx answer' },
};

const HEADERS = {
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', minimum: 1, example: 42 },
  },
  'RateLimit-Limit': {
    description:
      'Requests allowed per window for this client (the global per-client budget, server/http/rate-limit.ts)',
    schema: { type: 'integer', example: 600 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window',
    schema: { type: 'integer', example: 599 },
  },
  'RateLimit-Reset': { description: 'Seconds until the window starts again', schema: { type: 'integer', example: 60 } },
};
const RATE_LIMIT_HEADERS = Object.fromEntries(
  ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((name) => [
    name,
    { $ref: `#/components/headers/${name}` },
  ]),
);

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key (per account) answers the order it already made, with `Idempotent-Replayed: true`; ' +
    'the same key with a different tierId or payType is a 422. 1-255 printable ASCII characters without spaces (a UUID fits).',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  example: '0b7e2f0c-5d7a-4c1e-9a34-6f1d2b8c9e10',
};
/** The operations that read Idempotency-Key (server/domains/subscription/procedures/member.ts). */
const IDEMPOTENT_OPERATIONS = new Set(['POST /subscription/orders/create']);

function envelope(code: number, message: string, data: TJson): TJson {
  return { code, message, data };
}

function errorResponse(description: string, example: TJson, headers?: TJson): TJson {
  return {
    description,
    ...(headers && { headers }),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, example } },
  };
}

/** Errors any operation of a kind may answer, with the message the server sends. */
const SHARED_RESPONSES = {
  Unauthorized: errorResponse(
    'No valid session token',
    envelope(401, 'Invalid or expired access token', { key: 'user.tokenExpired' }),
  ),
  TooManyRequests: errorResponse(
    'Too many requests from this client (or for this account, on sign-in and writes)',
    envelope(429, 'Too many requests; retry in 42 s', {
      key: 'request.rateLimited',
      limit: 600,
      retryAfterSeconds: 42,
    }),
    { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...RATE_LIMIT_HEADERS },
  ),
  InternalError: errorResponse(
    'Unexpected failure: logged in full with the request id',
    envelope(500, 'Internal server error', { key: 'error', requestId: '7f9c2ba4-e88f-4e2a-9b61-8d2a7b6c1f00' }),
  ),
  Unavailable: errorResponse(
    'The database cannot be reached',
    envelope(503, 'The database is unavailable; retry in 2 s', {
      key: 'request.unavailable',
      requestId: '7f9c2ba4-e88f-4e2a-9b61-8d2a7b6c1f00',
      retryAfterSeconds: 2,
    }),
    { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
  ),
};

const ICALENDAR_EXAMPLE = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//tidewatch//calendar//EN',
  'NAME:Guts and Glory',
  'X-WR-CALNAME:Guts and Glory',
  'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
  'X-PUBLISHED-TTL:PT1H',
  'BEGIN:VEVENT',
  'UID:kraken@y2s4.tidewatch',
  'SEQUENCE:0',
  'DTSTAMP:20251101T120000Z',
  'DTSTART:20251025T180000Z',
  'DTEND:20251027T060000Z',
  'SUMMARY:World event: Kraken Hunt',
  'CATEGORIES:world-event',
  'END:VEVENT',
  'END:VCALENDAR',
].join('\r\n');

/** What an operation takes, as the document describes it: its parameters, and its JSON body's fields. */
interface TInputField {
  name: string;
  required: boolean;
  inPath: boolean;
  inBody: boolean;
}

function inputFields(operation: TJson): TInputField[] {
  const parameters = (operation.parameters ?? []).filter((parameter: TJson) => parameter.in !== 'header');
  const body = operation.requestBody?.content?.['application/json']?.schema ?? {};
  return [
    ...parameters.map((parameter: TJson) => ({
      name: parameter.name,
      required: Boolean(parameter.required),
      inPath: parameter.in === 'path',
      inBody: false,
    })),
    ...Object.keys(body.properties ?? {}).map((name) => ({
      name,
      required: (body.required ?? []).includes(name),
      inPath: false,
      inBody: true,
    })),
  ];
}

/** Values that some field of any input refuses: a negative number, an overlong text, an object where a scalar belongs. */
const INVALID_VALUES: unknown[] = ['-1', 'x'.repeat(10_001), { invalid: true }];

/**
 * The 400 an operation answers, produced by its own input schema and the server's error mapper:
 * the input without its required fields, or, when nothing is required, one field given a bad value.
 * None for an operation that takes no input.
 */
function inputErrorExample(procedure: TProcedure, fields: TInputField[]): TJson | undefined {
  if (fields.length === 0) return undefined;
  const { inputParser } = getInputOutputParsers(procedure);
  const candidates = [{}, ...fields.flatMap((field) => INVALID_VALUES.map((value) => ({ [field.name]: value })))];
  for (const candidate of candidates) {
    const result = inputParser.safeParse(candidate);
    if (result.success) continue;
    const error = toPublicError(new TRPCError({ code: 'BAD_REQUEST', cause: result.error }), '');
    return envelope(400, error.message, error.data);
  }
  return undefined;
}

/** Input fields that name an existing thing: an operation given one answers 404 when there is none. */
const LOOKUP_FIELDS = new Set(['uuid', 'id', 'userId', 'targetId', 'collectionUuid', 'season', 'eventId']);
/** Operations that look up a thing without being given one. */
const LOOKUPS_WITHOUT_INPUT = new Set(['GET /stateOfWar/latest']);

/** The 404 responses, by name: the message the server sends. */
const NOT_FOUND: Record<string, string> = {
  AssemblyNotFound: 'Assembly 3f6c8a52-1d4e-4b7a-9c0e-5a2b7d9e1f34 not found',
  CommentNotFound: 'Comment 42 not found',
  MapCollectionNotFound: 'Map collection not found',
  MapPointNotFound: 'Map point not found',
  UserNotFound: 'User not found',
  AvatarNotFound: 'This user has no uploaded avatar',
  OrderNotFound: 'Order not found',
  DropCampaignNotFound: 'No drop campaign with id or campaign id "y2s4-w1"',
  SeasonNotFound: 'Unknown season "y9s9"',
  NotFound: 'Not found',
};

/** The 404 of a lookup, by the operation's tag. */
const NOT_FOUND_OF_TAG: Record<string, string> = {
  assembly: 'AssemblyNotFound',
  comment: 'CommentNotFound',
  map: 'MapCollectionNotFound',
  user: 'UserNotFound',
  subscription: 'OrderNotFound',
  drop: 'DropCampaignNotFound',
  stateOfWar: 'SeasonNotFound',
  calendar: 'SeasonNotFound',
  admin: 'SeasonNotFound',
};

/** Operations whose 404 is another than their tag's; null: none, although given an id. */
const NOT_FOUND_OF_OPERATION: Record<string, string | null> = {
  'GET /map/point/{uuid}': 'MapPointNotFound',
  'PUT /map/point/{uuid}': 'MapPointNotFound',
  'DELETE /map/point/{uuid}': 'MapPointNotFound',
  'GET /user/avatar/{userId}': 'AvatarNotFound',
  // The assembly commented on.
  'GET /comment/comments': 'AssemblyNotFound',
  'POST /comment': 'AssemblyNotFound',
  'GET /admin/subscription/orders/{orderId}': 'OrderNotFound',
  'POST /admin/subscription/orders/{orderId}/confirm': 'OrderNotFound',
  // Upserts: a new id is created; an unknown plan (of a tier) or payment provider is a 400.
  'PUT /admin/subscription/plans/{planId}': null,
  'PUT /admin/subscription/tiers/{tierId}': null,
  'PUT /admin/subscription/pay-types/{payType}': null,
  // An unknown season is one of the snapshot's 400 issues.
  'POST /admin/war/snapshots': null,
};

/** The name of the 404 response an operation may answer: it is given a thing to look up. */
function notFoundResponse(key: string, fields: TInputField[], tag: string): string | undefined {
  if (key in NOT_FOUND_OF_OPERATION) return NOT_FOUND_OF_OPERATION[key] ?? undefined;
  const looksUp =
    LOOKUPS_WITHOUT_INPUT.has(key) ||
    fields.some((field) => field.inPath || (field.required && LOOKUP_FIELDS.has(field.name)));
  return looksUp ? (NOT_FOUND_OF_TAG[tag] ?? 'NotFound') : undefined;
}

/** The 403s: an admin route's role check, a wrong current password, or a rule of ownership or privacy. */
const FORBIDDEN: Record<string, string> = {
  AdminRequired: 'Administrator role required',
  CurrentPasswordWrong: 'Current password is wrong',
  AssemblyPasswordWrong: 'Wrong password for this private assembly',
  NotAssemblyCreator: 'Only the creator may edit this assembly',
  NotCollectionAuthor: 'Only the author may edit this collection',
  NotCommentAuthor: 'Only its author may edit a comment',
};

function forbiddenResponse(
  operation: TJson,
  fields: TInputField[],
  tag: string,
  adminOnly: boolean,
): keyof typeof FORBIDDEN | undefined {
  const names = new Set(fields.map((field) => field.name));
  if (adminOnly) return 'AdminRequired';
  if (names.has('currentPassword') || names.has('oldPassword')) return 'CurrentPasswordWrong';
  if (names.has('password') && tag !== 'user') return 'AssemblyPasswordWrong';
  if (!operation.security) return undefined;
  return ({ assembly: 'NotAssemblyCreator', map: 'NotCollectionAuthor', comment: 'NotCommentAuthor' } as const)[
    tag as 'assembly'
  ];
}

/** Every 403 and 404 response, named as operations refer to them. */
function lookupAndAccessResponses(): Record<string, TJson> {
  const notFound = Object.entries(NOT_FOUND).map(([name, message]) => [
    name,
    errorResponse(
      'Not found',
      envelope(404, message, { key: name === 'UserNotFound' ? 'user.notFound' : 'request.notFound' }),
    ),
  ]);
  const forbidden = Object.entries(FORBIDDEN).map(([name, message]) => [
    name,
    errorResponse('Not allowed', envelope(403, message, { key: 'request.forbidden' })),
  ]);
  return Object.fromEntries([...notFound, ...forbidden]);
}

/**
 * The description of every 400 (its example is the operation's own). What the message says is
 * described once, on ErrorEnvelope, rather than in each operation.
 */
const BAD_REQUEST = 'Invalid input';

/**
 * The name of a 400 that several operations answer alike (same fields, same rule broken): the field
 * and the start of the rule's message, e.g. `InvalidInput.uuid.isRequired`.
 */
function badRequestName(example: TJson): string {
  const [first, ...others] = example.data.issues as { path: string; message: string }[];
  const field = first!.path.split(/[.[]/)[0] || 'input';
  const words =
    first!.message
      .replace(/^Invalid input: /, '')
      .split(/[(:,;]/)[0]!
      .match(/[A-Za-z0-9]+/g) ?? [];
  const rule = words
    .slice(0, 4)
    .map((word, index) => (index === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase()))
    .join('');
  return `InvalidInput.${field}.${rule}${others.length > 0 ? `.and${others.length}More` : ''}`;
}

/** Named responses no operation refers to (a 404 or 403 of a kind no operation answers) are left out. */
function dropUnusedResponses(document: TJson): void {
  const paths = JSON.stringify(document.paths);
  for (const name of Object.keys(document.components.responses)) {
    if (!paths.includes(`"#/components/responses/${name}"`)) delete document.components.responses[name];
  }
}

/**
 * A 400 that several operations answer exactly alike (same example) becomes one named response
 * they refer to, instead of a copy in each; one only its operation answers stays inline.
 */
function shareBadRequests(document: TJson): void {
  const operations = Object.values<TJson>(document.paths)
    .flatMap((item) => Object.values<TJson>(item))
    .filter((operation) => operation.responses?.['400']);
  const groups = new Map<string, TJson[]>();
  for (const operation of operations) {
    const key = JSON.stringify(operation.responses['400']);
    groups.set(key, [...(groups.get(key) ?? []), operation]);
  }
  for (const [key, sharing] of groups) {
    if (sharing.length < 2) continue;
    const response = JSON.parse(key) as TJson;
    let name = badRequestName(response.content['application/json'].example);
    for (let n = 2; name in document.components.responses; n++)
      name = `${badRequestName(response.content['application/json'].example)}.${n}`;
    document.components.responses[name] = response;
    for (const operation of sharing) operation.responses['400'] = { $ref: `#/components/responses/${name}` };
  }
}

const ADMIN_CHECK = adminProcedure._def.middlewares.at(-1);
/** Whether a procedure is built on adminProcedure (its chain holds the admin check). */
function isAdminOnly(procedure: unknown): boolean {
  return (procedure as { _def: { middlewares: unknown[] } })._def.middlewares.includes(ADMIN_CHECK);
}

/**
 * trpc-to-openapi documents the input of a DELETE as query parameters; the REST adapter reads a
 * DELETE's fields from its JSON body (rest/handler.ts, BODY_METHODS), as the web client sends them
 * (`DELETE /map/collection/{uuid}/points` with `{pointUuids}`). Those parameters become the body.
 */
function documentDeleteBody(operation: TJson): void {
  const query: TJson[] = (operation.parameters ?? []).filter((parameter: TJson) => parameter.in === 'query');
  if (query.length === 0) return;
  operation.parameters = operation.parameters.filter((parameter: TJson) => parameter.in !== 'query');
  const required = query.filter((parameter) => parameter.required).map((parameter) => parameter.name);
  const properties = Object.fromEntries(
    query.map((parameter) => [
      parameter.name,
      { ...parameter.schema, ...(parameter.description && { description: parameter.description }) },
    ]),
  );
  operation.requestBody = {
    required: required.length > 0,
    content: {
      'application/json': {
        schema: { type: 'object', properties, ...(required.length > 0 && { required }), additionalProperties: false },
      },
    },
  };
}

/**
 * The 200 answer of procedures with `meta.rawResponse` (server/trpc.ts) is their string output with
 * that Content-Type, not the envelope; their errors stay envelopes.
 */
function rawSuccessContent(contentType: string): TJson {
  const mediaType = contentType.split(';', 1)[0]!.trim();
  // A family (`image/*`: uploaded avatars) is answered as bytes of one of its types (rest/handler.ts, rawBody).
  if (mediaType === 'image/*') {
    return Object.fromEntries(
      ['image/png', 'image/jpeg', 'image/webp', 'image/gif'].map((type) => [
        type,
        { schema: { type: 'string', format: 'binary' } },
      ]),
    );
  }
  return {
    [mediaType]: {
      schema: { type: 'string' },
      ...(mediaType === 'text/calendar' ? { example: ICALENDAR_EXAMPLE } : {}),
    },
  };
}

/** The success envelope around the procedure's output schema, with the recorded answer as its example. */
function successContent(schema: TJson | undefined, recorded: TRecordedExample | undefined): TJson {
  return {
    'application/json': {
      schema: {
        type: 'object',
        required: ['code', 'message', 'data'],
        properties: {
          code: { $ref: '#/components/schemas/SuccessCode' },
          message: { $ref: '#/components/schemas/SuccessMessage' },
          data: schema ?? { type: 'object' },
        },
      },
      ...(recorded && 'response' in recorded ? { example: envelope(200, 'success', recorded.response as TJson) } : {}),
    },
  };
}

/**
 * A parameter's description, from its input field: trpc-to-openapi leaves it on the parameter's
 * schema, or drops it with the `.optional()` wrapper that carried it.
 */
function describeParameters(operation: TJson, procedure: TProcedure): void {
  const input = unwrapZodType(getInputOutputParsers(procedure).inputParser, true) as z.ZodType & {
    shape?: Record<string, z.ZodType>;
  };
  for (const parameter of operation.parameters ?? []) {
    if (parameter.description !== undefined || parameter.in === 'header') continue;
    const description = parameter.schema?.description ?? input.shape?.[parameter.name]?.description;
    if (description !== undefined) parameter.description = description;
  }
}

/** A body with no field (the input of a procedure that takes none) is no body. */
function dropEmptyBody(operation: TJson): void {
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  if (schema && Object.keys(schema.properties ?? {}).length === 0 && !schema.additionalProperties)
    delete operation.requestBody;
}

/** Examples of the operation's parameters and body, from the recorded call. */
function documentInputExamples(operation: TJson, recorded: TRecordedExample | undefined): void {
  for (const parameter of operation.parameters ?? []) {
    const value =
      parameter.in === 'header' ? recorded?.headers?.[parameter.name] : recorded?.parameters?.[parameter.name];
    if (value !== undefined && parameter.example === undefined) parameter.example = value;
  }
  const media = operation.requestBody?.content?.['application/json'];
  if (media && recorded?.body !== undefined) media.example = recorded.body;
}

/**
 * The OpenAPI document of the REST surface. trpc-to-openapi documents the raw procedure outputs
 * and generic errors; the REST adapter wraps them in `{ code, message, data }`, and an operation
 * answers only some errors, so each operation's responses are written here from its procedure.
 */
export function buildOpenApiDocument(router: AnyRouter, version: string): OpenAPIObject {
  const document = generateOpenApiDocument(router, {
    title: 'Tidewatch API',
    description:
      'Community backend for Skull and Bones. Every response is an envelope `{ code, message, data }` whose `code` equals the HTTP status, ' +
      'except the successful answers of the iCalendar feeds (/calendar/events.ics, /calendar/event.ics: text/calendar) and of uploaded avatars (/user/avatar/{userId}: the image). ' +
      'Send the session token from /user/signin or /user/signup as `Authorization: Bearer <token>`. ' +
      'Every answer but /health carries the RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers of the per-client budget; a 429 or 503 says when to retry in Retry-After.',
    version,
    baseUrl: '/api',
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Session token from /user/signin' } },
  }) as TJson;

  const schemas: TJson = Object.fromEntries(
    Object.entries<TJson>(document.components?.schemas ?? {}).filter(([name]) => !name.startsWith('error.')),
  );
  document.components = {
    ...document.components,
    schemas: { ...schemas, ...SUCCESS_ENVELOPE_FIELDS, ErrorEnvelope: ERROR_ENVELOPE },
    headers: HEADERS,
    parameters: { IdempotencyKey: IDEMPOTENCY_KEY },
    responses: { ...SHARED_RESPONSES, ...lookupAndAccessResponses() },
  };
  composeExtensions(document.components.schemas);

  forEachOpenApiProcedure(router._def.procedures, ({ procedure, meta }) => {
    const path = normalizePath(meta.openapi.path);
    const method = meta.openapi.method.toLowerCase();
    const operation: TJson | undefined = document.paths?.[path]?.[method];
    if (!operation) return;
    const key = `${meta.openapi.method} ${path}`;
    const tag = operation.tags?.[0] ?? '';
    const recorded = RECORDED_EXAMPLES[key];
    describeParameters(operation, procedure);
    if (method === 'delete') documentDeleteBody(operation);
    dropEmptyBody(operation);
    if (IDEMPOTENT_OPERATIONS.has(key))
      operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/IdempotencyKey' }];
    documentInputExamples(operation, recorded);

    const success = operation.responses['200'];
    // The status's reason phrase, rather than trpc-to-openapi's 'Successful response' in every
    // operation: what the answer holds is for its schema (the envelope and its data) to say.
    success.description = 'OK';
    const rawContentType = (meta as { rawResponse?: { contentType: string } }).rawResponse?.contentType;
    success.content =
      rawContentType === undefined
        ? successContent(success.content?.['application/json']?.schema, recorded)
        : rawSuccessContent(rawContentType);
    if (!UNLIMITED_API_PATHS.has(path)) success.headers = { ...success.headers, ...RATE_LIMIT_HEADERS };

    const fields = inputFields(operation);
    const badRequest = inputErrorExample(procedure, fields);
    const forbidden = forbiddenResponse(operation, fields, tag, isAdminOnly(procedure));
    const notFound = notFoundResponse(key, fields, tag);
    operation.responses = {
      '200': success,
      ...(badRequest && { '400': errorResponse(BAD_REQUEST, badRequest) }),
      ...(operation.security && { '401': { $ref: '#/components/responses/Unauthorized' } }),
      ...(forbidden && { '403': { $ref: `#/components/responses/${forbidden}` } }),
      ...(notFound && { '404': { $ref: `#/components/responses/${notFound}` } }),
      ...(!UNLIMITED_API_PATHS.has(path) && { '429': { $ref: '#/components/responses/TooManyRequests' } }),
      '500': { $ref: '#/components/responses/InternalError' },
      '503': { $ref: '#/components/responses/Unavailable' },
    };
  });
  shareBadRequests(document);
  dropUnusedResponses(document);
  return document as OpenAPIObject;
}
