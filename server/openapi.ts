import type { AnyRouter } from '@trpc/server';
import { forEachOpenApiProcedure, generateOpenApiDocument, normalizePath, type OpenAPIObject } from 'trpc-to-openapi';

type TJson = Record<string, any>;

const ERROR_ENVELOPE = {
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'integer', description: 'Equals the HTTP status', example: 400 },
    message: { type: 'string', description: 'What went wrong; for 400 it names the field', example: 'Invalid input: password: must be at least 8 characters' },
    data: {
      type: 'object',
      properties: {
        key: {
          type: 'string',
          description: "The live service's message key (e.g. `user.tokenExpired`, `request.bad`): one per error kind, or a more specific one; table in docs/compatibility.md",
          example: 'request.bad',
        },
        issues: {
          type: 'array',
          items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
        },
        requestId: { type: 'string', description: 'On 500 responses: quote it to the operator' },
      },
    },
  },
};

const RETRY_AFTER = { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } };

const ERROR_EXAMPLES: Record<number, [string, TJson]> = {
  400: ['Invalid input: username: Too small: expected string to have >=3 characters', { key: 'request.bad', issues: [{ path: 'username', message: 'Too small: expected string to have >=3 characters' }] }],
  401: ['Invalid or expired access token', { key: 'user.tokenExpired' }],
  403: ['Not allowed', { key: 'request.forbidden' }],
  404: ['Not found', { key: 'request.notFound' }],
  409: ['Conflict', { key: 'request.conflict' }],
  429: ['Too many requests; retry in 42 s', { key: 'request.rateLimited', limit: 600, retryAfterSeconds: 42 }],
  500: ['Internal server error', { key: 'error', requestId: '7f9c2ba4-e88f-4e2a-9b61-8d2a7b6c1f00' }],
};

function errorExample(status: number): TJson {
  const [message, data] = ERROR_EXAMPLES[status] ?? ['Error', {}];
  return { code: status, message, data };
}

const STRING_FORMATS: Record<string, string> = {
  'date-time': '2026-05-01T12:00:00.000Z',
  date: '2026-05-01',
  uuid: '3f6c8a52-1d4e-4b7a-9c0e-5a2b7d9e1f34',
  email: 'anne@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
};

/**
 * A plausible instance of a JSON schema, for the document's response examples. Schemas that carry
 * their own `example`/`examples`/`default` (zod `.meta({ example })`) win over the generated value.
 */
export function exampleOf(schema: TJson | undefined, document: TJson, depth = 0): unknown {
  if (!schema || depth > 8) return {};
  if (schema.$ref) {
    const name = String(schema.$ref).split('/').pop()!;
    return exampleOf(document.components?.schemas?.[name], document, depth + 1);
  }
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const variants: TJson[] | undefined = schema.anyOf ?? schema.oneOf;
  if (variants) return exampleOf(variants.find((variant) => variant.type !== 'null') ?? variants[0], document, depth + 1);
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((part: TJson) => exampleOf(part, document, depth + 1)));
  }
  const type = Array.isArray(schema.type) ? schema.type.find((kind: string) => kind !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return STRING_FORMATS[schema.format] ?? (schema.minLength > 6 ? 'x'.repeat(schema.minLength) : 'string');
    case 'integer':
    case 'number':
      // zod's int() bounds are the safe-integer range; 1 reads better and fits any real bound.
      return Math.min(Math.max(1, schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1), schema.maximum ?? Infinity);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return schema.maxItems === 0 ? [] : [exampleOf(schema.items, document, depth + 1)];
    default: {
      const example: TJson = {};
      for (const [name, property] of Object.entries<TJson>(schema.properties ?? {})) {
        example[name] = exampleOf(property, document, depth + 1);
      }
      return example;
    }
  }
}

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

/**
 * trpc-to-openapi documents the input of a DELETE as query parameters; the REST adapter reads a
 * DELETE's fields from its JSON body (rest/handler.ts, BODY_METHODS), as the web client sends them
 * (`DELETE /map/collection/{uuid}/points` with `{pointUuids}`). Those parameters become the body.
 */
function documentDeleteBodies(document: TJson): void {
  for (const pathItem of Object.values<TJson>(document.paths ?? {})) {
    const operation = pathItem.delete;
    const query: TJson[] = (operation?.parameters ?? []).filter((parameter: TJson) => parameter.in === 'query');
    if (query.length === 0) continue;
    operation.parameters = operation.parameters.filter((parameter: TJson) => parameter.in !== 'query');
    const required = query.filter((parameter) => parameter.required).map((parameter) => parameter.name);
    const properties = Object.fromEntries(query.map((parameter) => [parameter.name, { ...parameter.schema, ...(parameter.description && { description: parameter.description }) }]));
    operation.requestBody = {
      required: required.length > 0,
      content: { 'application/json': { schema: { type: 'object', properties, ...(required.length > 0 && { required }), additionalProperties: false } } },
    };
  }
}

/**
 * The 200 answer of procedures with `meta.rawResponse` (server/trpc.ts) is their string output with
 * that Content-Type, not the envelope; their errors stay envelopes.
 */
function documentRawResponses(router: AnyRouter, document: TJson): void {
  forEachOpenApiProcedure(router._def.procedures, ({ meta }) => {
    const contentType = (meta as { rawResponse?: { contentType: string } }).rawResponse?.contentType;
    if (contentType === undefined) return;
    const operation = document.paths?.[normalizePath(meta.openapi.path)]?.[meta.openapi.method.toLowerCase()];
    const success = operation?.responses?.['200'];
    if (!success) return;
    const mediaType = contentType.split(';', 1)[0]!.trim();
    // A family (`image/*`: uploaded avatars) is answered as bytes of one of its types (rest/handler.ts, rawBody).
    if (mediaType === 'image/*') {
      success.content = Object.fromEntries(['image/png', 'image/jpeg', 'image/webp', 'image/gif'].map((type) => [type, { schema: { type: 'string', format: 'binary' } }]));
      return;
    }
    success.content = {
      [mediaType]: { schema: { type: 'string' }, ...(mediaType === 'text/calendar' ? { example: ICALENDAR_EXAMPLE } : {}) },
    };
  });
}

/**
 * The OpenAPI document of the REST surface. trpc-to-openapi documents the raw procedure outputs;
 * the REST adapter wraps them in `{ code, message, data }`, so the document is rewritten to match.
 */
export function buildOpenApiDocument(router: AnyRouter, version: string): OpenAPIObject {
  const document = generateOpenApiDocument(router, {
    title: 'Tidewatch API',
    description:
      'Community backend for Skull and Bones. Every response is an envelope `{ code, message, data }` whose `code` equals the HTTP status, ' +
      'except the successful answers of the iCalendar feeds (/calendar/events.ics, /calendar/event.ics: text/calendar) and of uploaded avatars (/user/avatar/{userId}: the image). ' +
      'Send the session token from /user/signin or /user/signup as `Authorization: Bearer <token>`.',
    version,
    baseUrl: '/api',
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Session token from /user/signin' } },
  }) as TJson;

  document.components ??= {};
  document.components.schemas ??= {};
  document.components.schemas.ErrorEnvelope = ERROR_ENVELOPE;

  document.components.headers = { ...document.components.headers, 'Retry-After': RETRY_AFTER };
  documentRawResponses(router, document);
  documentDeleteBodies(document);
  for (const pathItem of Object.values<TJson>(document.paths ?? {})) {
    for (const operation of Object.values<TJson>(pathItem)) {
      if (!operation?.responses) continue;
      // The global per-client limit applies to every path.
      operation.responses['429'] ??= {
        description: 'Too many requests',
        headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
        content: { 'application/json': { schema: {} } },
      };
      for (const [status, response] of Object.entries<TJson>(operation.responses)) {
        const media = response.content?.['application/json'];
        if (!media) continue;
        if (status === '200') {
          media.schema = {
            type: 'object',
            required: ['code', 'message', 'data'],
            properties: {
              code: { type: 'integer', const: 200 },
              message: { type: 'string', const: 'success' },
              data: media.schema ?? { type: 'object' },
            },
          };
          media.example = { code: 200, message: 'success', data: exampleOf(media.schema.properties.data, document) };
        } else {
          media.schema = { $ref: '#/components/schemas/ErrorEnvelope' };
          media.example = errorExample(Number(status));
        }
      }
    }
  }
  return document as OpenAPIObject;
}
