import type { AnyRouter } from '@trpc/server';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';

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
        issues: {
          type: 'array',
          items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
        },
        requestId: { type: 'string', description: 'On 500 responses: quote it to the operator' },
      },
    },
  },
};

/**
 * The OpenAPI document of the REST surface. trpc-to-openapi documents the raw procedure outputs;
 * the REST adapter wraps them in `{ code, message, data }`, so the document is rewritten to match.
 */
export function buildOpenApiDocument(router: AnyRouter, version: string): OpenAPIObject {
  const document = generateOpenApiDocument(router, {
    title: 'Tidewatch API',
    description:
      'Community backend for Skull and Bones. Every response is an envelope `{ code, message, data }` whose `code` equals the HTTP status. ' +
      'Send the session token from /user/signin or /user/signup as `Authorization: Bearer <token>`.',
    version,
    baseUrl: '/api',
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Session token from /user/signin' } },
  }) as TJson;

  document.components ??= {};
  document.components.schemas ??= {};
  document.components.schemas.ErrorEnvelope = ERROR_ENVELOPE;

  for (const pathItem of Object.values<TJson>(document.paths ?? {})) {
    for (const operation of Object.values<TJson>(pathItem)) {
      if (!operation?.responses) continue;
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
        } else {
          media.schema = { $ref: '#/components/schemas/ErrorEnvelope' };
        }
      }
    }
  }
  return document as OpenAPIObject;
}
