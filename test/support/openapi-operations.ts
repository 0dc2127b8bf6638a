/** One operation of the OpenAPI document, with what the generated suites need to call it. */
export interface TDocumentOperation {
  /** Upper case: GET, POST, ... */
  method: string;
  path: string;
  /** `METHOD /path`, as the suites name operations. */
  key: string;
  /** Declares a security requirement (needs a token). */
  secured: boolean;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
  /** The operation object as the document has it. */
  operation: Record<string, any>;
}

/** An operation that answers a stream (GET /events): served outside the procedures, tested in test/live/. */
export function isStreamOperation(operation: Record<string, any>): boolean {
  return operation.responses?.['200']?.content?.['text/event-stream'] !== undefined;
}

/**
 * Every operation of an OpenAPI document (as fetched from /api/openapi.json), in document order. Streams
 * (isStreamOperation) are left out: the generated suites call each operation and read its whole answer.
 */
export function documentOperations(fetched: unknown): TDocumentOperation[] {
  const document = fetched as { paths: Record<string, Record<string, any>> };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => !isStreamOperation(operation))
      .map(([lowerMethod, operation]) => {
        const method = lowerMethod.toUpperCase();
        const parameters: any[] = operation.parameters ?? [];
        const schema = operation.requestBody?.content?.['application/json']?.schema ?? {};
        return {
          method,
          path,
          key: `${method} ${path}`,
          secured: Array.isArray(operation.security) && operation.security.length > 0,
          pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
          queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
          bodyFields: Object.keys(schema.properties ?? {}),
          operation,
        };
      }),
  );
}

/**
 * A node of the document with its `$ref` followed (again, while the target is a reference itself):
 * responses, parameters and schemas may be named components (`#/components/...`).
 */
export function resolveRef(document: unknown, node: any): any {
  if (typeof node?.$ref !== 'string') return node;
  const target = node.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((at: any, part: string) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  if (target === undefined) throw new Error(`${node.$ref} does not resolve`);
  return resolveRef(document, target);
}
