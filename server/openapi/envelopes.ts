// The envelopes around every answer, the headers of the rate limit, and the errors any operation may answer.
import { ICALENDAR_EXAMPLE, type TRecordedExample } from './examples';
import type { TJson } from './json';

export const ERROR_ENVELOPE = {
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
export const SUCCESS_ENVELOPE_FIELDS = {
  SuccessCode: { type: 'integer', const: 200, description: 'Equals the HTTP status' },
  SuccessMessage: { type: 'string', const: 'success', description: 'Always `success` on a 2xx answer' },
};

export const HEADERS = {
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
export const RATE_LIMIT_HEADERS = Object.fromEntries(
  ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((name) => [
    name,
    { $ref: `#/components/headers/${name}` },
  ]),
);

export function envelope(code: number, message: string, data: TJson): TJson {
  return { code, message, data };
}

export function errorResponse(description: string, example: TJson, headers?: TJson): TJson {
  return {
    description,
    ...(headers && { headers }),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, example } },
  };
}

/** Errors any operation of a kind may answer, with the message the server sends. */
export const SHARED_RESPONSES = {
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

/**
 * The 200 answer of procedures with `meta.rawResponse` (server/trpc.ts) is their string output with
 * that Content-Type, not the envelope; their errors stay envelopes.
 */
export function rawSuccessContent(contentType: string): TJson {
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

/**
 * The 200 answer of procedures with `meta.streamed` (server/trpc.ts): the text in each of its types, not
 * the envelope (a JSON one is an array of records), each under the full Content-Type it is sent with
 * (`application/json; charset=utf-8`), which no envelope's `application/json` is mistaken for; their
 * errors stay envelopes.
 */
export function streamedSuccessContent(contentTypes: string[]): TJson {
  return Object.fromEntries(
    contentTypes.map((contentType) => {
      const json = contentType.startsWith('application/json');
      return [contentType, { schema: json ? { type: 'array', items: { type: 'object' } } : { type: 'string' } }];
    }),
  );
}

/** The success envelope around the procedure's output schema, with the recorded answer as its example. */
export function successContent(schema: TJson | undefined, recorded: TRecordedExample | undefined): TJson {
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

/** The schema of `field` in an object schema, following $ref and allOf through the named `schemas`. */
function propertySchema(node: TJson | undefined, field: string, schemas: TJson): TJson | undefined {
  if (!node) return undefined;
  if (typeof node.$ref === 'string') return propertySchema(schemas[node.$ref.split('/').at(-1)!], field, schemas);
  if (node.properties?.[field]) return node.properties[field];
  for (const part of node.allOf ?? []) {
    const found = propertySchema(part, field, schemas);
    if (found) return found;
  }
  return undefined;
}

/**
 * The fields a route's `meta.topLevel` writes beside the envelope (server/rest/envelope.ts), in its
 * 200 answer: each a property of the body with the schema of the field of `data` it repeats, and in
 * the recorded example with that field's value.
 */
export function addTopLevelFields(content: TJson, topLevel: Record<string, string>, schemas: TJson): void {
  const media = content['application/json'];
  for (const [name, field] of Object.entries(topLevel)) {
    const schema = propertySchema(media.schema.properties.data, field, schemas);
    if (!schema) throw new Error(`OpenAPI: meta.topLevel ${name} names data.${field}, which the answer does not have`);
    media.schema.properties[name] = {
      ...schema,
      description: `The same value as data.${field}, also at the top level of the body, where the community web client reads it (docs/compatibility.md, "Fields beside the envelope")`,
    };
    media.schema.required.push(name);
    if (media.example?.data?.[field] !== undefined) media.example[name] = media.example.data[field];
  }
}
