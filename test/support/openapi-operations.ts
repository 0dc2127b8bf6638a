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

/** Every operation of an OpenAPI document (as fetched from /api/openapi.json), in document order. */
export function documentOperations(fetched: unknown): TDocumentOperation[] {
  const document = fetched as { paths: Record<string, Record<string, any>> };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([lowerMethod, operation]) => {
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
