// Which errors each operation answers (400 with its own example, 403, 404), worked out from its input and procedure.
import { TRPCError } from '@trpc/server';
import { getInputOutputParsers } from 'trpc-to-openapi';
import { toPublicError } from '../errors';
import { adminProcedure } from '../trpc';
import { envelope, errorResponse } from './envelopes';
import type { TJson, TProcedure } from './json';

/** What an operation takes, as the document describes it: its parameters, and its JSON body's fields. */
export interface TInputField {
  name: string;
  required: boolean;
  inPath: boolean;
  inBody: boolean;
}

export function inputFields(operation: TJson): TInputField[] {
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
export function inputErrorExample(procedure: TProcedure, fields: TInputField[]): TJson | undefined {
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
const LOOKUPS_WITHOUT_INPUT = new Set(['GET /stateOfWar/latest', 'GET /smugglers/reports/byTime']);

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
  SmugglersReportNotFound: 'Smugglers report 42 not found',
  NoSmugglersReport: 'No smugglers report is published yet',
  PrivilegeGrantNotFound: 'User 5b0c6f1e-2a4d-4c8e-9f3a-7d1e2b4c6a80 has no grant of smuggler',
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
  smugglers: 'SmugglersReportNotFound',
  privilege: 'PrivilegeGrantNotFound',
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
  // Issue 35: the account a grant or a read names; a report's comment.
  'POST /privilege/grant': 'UserNotFound',
  'POST /privilege/batch-grant': 'UserNotFound',
  'GET /privilege/user/{userId}': 'UserNotFound',
  'GET /privilege/check/{userId}/{privilegeType}': 'UserNotFound',
  'PUT /smugglers/reports/{id}/comments/{commentId}': 'CommentNotFound',
  'DELETE /smugglers/reports/{id}/comments/{commentId}': 'CommentNotFound',
  'GET /smugglers/reports/byTime': 'NoSmugglersReport',
};

/** The name of the 404 response an operation may answer: it is given a thing to look up. */
export function notFoundResponse(key: string, fields: TInputField[], tag: string): string | undefined {
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
  PrivilegeRequired:
    'This needs the privilege smuggler_weekly_report_create (or smuggler_weekly_report_ownership), in force',
  AdminOrSelfRequired: "Only an admin or the account itself may read an account's privileges",
};

/** Issue 35: the 403 of the writes of the smugglers' reports (a right of the privilege tree), and of an account's privileges. */
const FORBIDDEN_OF_OPERATION: Record<string, keyof typeof FORBIDDEN> = {
  'POST /smugglers/reports': 'PrivilegeRequired',
  'PUT /smugglers/reports/{id}': 'PrivilegeRequired',
  'DELETE /smugglers/reports/{id}': 'PrivilegeRequired',
  'POST /smugglers/reports/{id}/publish': 'PrivilegeRequired',
  'POST /smugglers/reports/{id}/archive': 'PrivilegeRequired',
  'POST /smugglers/reports/{id}/comments': 'PrivilegeRequired',
  'PUT /smugglers/reports/{id}/comments/{commentId}': 'PrivilegeRequired',
  'DELETE /smugglers/reports/{id}/comments/{commentId}': 'PrivilegeRequired',
  'GET /privilege/user/{userId}': 'AdminOrSelfRequired',
  'GET /privilege/check/{userId}/{privilegeType}': 'AdminOrSelfRequired',
};

export function forbiddenResponse(
  operation: TJson,
  fields: TInputField[],
  tag: string,
  adminOnly: boolean,
  key: string,
): keyof typeof FORBIDDEN | undefined {
  const names = new Set(fields.map((field) => field.name));
  if (adminOnly) return 'AdminRequired';
  if (key in FORBIDDEN_OF_OPERATION) return FORBIDDEN_OF_OPERATION[key];
  if (names.has('currentPassword') || names.has('oldPassword')) return 'CurrentPasswordWrong';
  if (names.has('password') && tag !== 'user') return 'AssemblyPasswordWrong';
  if (!operation.security) return undefined;
  return ({ assembly: 'NotAssemblyCreator', map: 'NotCollectionAuthor', comment: 'NotCommentAuthor' } as const)[
    tag as 'assembly'
  ];
}

/** Every 403 and 404 response, named as operations refer to them. */
export function lookupAndAccessResponses(): Record<string, TJson> {
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
export const BAD_REQUEST = 'Invalid input';

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
export function dropUnusedResponses(document: TJson): void {
  const paths = JSON.stringify(document.paths);
  for (const name of Object.keys(document.components.responses)) {
    if (!paths.includes(`"#/components/responses/${name}"`)) delete document.components.responses[name];
  }
}

/**
 * A 400 that several operations answer exactly alike (same example) becomes one named response
 * they refer to, instead of a copy in each; one only its operation answers stays inline.
 */
export function shareBadRequests(document: TJson): void {
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
export function isAdminOnly(procedure: unknown): boolean {
  return (procedure as { _def: { middlewares: unknown[] } })._def.middlewares.includes(ADMIN_CHECK);
}
