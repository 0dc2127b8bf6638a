// The OpenAPI document of the REST surface (/api/openapi.json), built from the router. Its parts:
// components.ts (the shapes it names), extensions.ts (shared fields written once), envelopes.ts (what
// every answer is wrapped in, and the errors any operation may answer), error-responses.ts (the errors
// each operation answers) and examples.ts (recorded calls).
import type { AnyRouter } from '@trpc/server';
import {
  forEachOpenApiProcedure,
  generateOpenApiDocument,
  getInputOutputParsers,
  normalizePath,
  unwrapZodType,
  type OpenAPIObject,
} from 'trpc-to-openapi';
import type { z } from 'zod';
import { UNLIMITED_API_PATHS } from '../http/rate-limit';
// Registers the shapes the document names before any document is built.
import './components';
import {
  addTopLevelFields,
  ERROR_ENVELOPE,
  errorResponse,
  HEADERS,
  RATE_LIMIT_HEADERS,
  rawSuccessContent,
  streamedSuccessContent,
  SHARED_RESPONSES,
  SUCCESS_ENVELOPE_FIELDS,
  successContent,
} from './envelopes';
import {
  BAD_REQUEST,
  dropUnusedResponses,
  forbiddenResponse,
  inputErrorExample,
  inputFields,
  isAdminOnly,
  lookupAndAccessResponses,
  notFoundResponse,
  shareBadRequests,
} from './error-responses';
import { EVENTS_PATH, eventsPathItem } from './events';
import { documentInputExamples, RECORDED_EXAMPLES } from './examples';
import { composeExtensions } from './extensions';
import type { TJson, TProcedure } from './json';

export { RECORDED_EXAMPLES, type TRecordedExample } from './examples';

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
    const streamed = (meta as { streamed?: { contentTypes: string[] } }).streamed;
    success.content = streamed
      ? streamedSuccessContent(streamed.contentTypes)
      : rawContentType === undefined
        ? successContent(success.content?.['application/json']?.schema, recorded)
        : rawSuccessContent(rawContentType);
    const topLevel = (meta as { topLevel?: Record<string, string> }).topLevel;
    if (topLevel) addTopLevelFields(success.content, topLevel, document.components.schemas);
    if (!UNLIMITED_API_PATHS.has(path)) success.headers = { ...success.headers, ...RATE_LIMIT_HEADERS };

    const fields = inputFields(operation);
    const badRequest = inputErrorExample(procedure, fields);
    const forbidden = forbiddenResponse(operation, fields, tag, isAdminOnly(procedure), key);
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
  document.paths = { ...document.paths, [EVENTS_PATH]: eventsPathItem() };
  shareBadRequests(document);
  dropUnusedResponses(document);
  return document as OpenAPIObject;
}
