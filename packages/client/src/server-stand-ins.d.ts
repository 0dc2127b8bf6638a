// Stand-ins, in the bundled declarations only, for the two server types that AppRouter carries but a
// client never reads: the request context (database, caches, session) and the procedures' meta
// (OpenAPI routes, HTTP caching). The build substitutes this file for server/context.ts and server/trpc.ts,
// so the d.ts bundle pulls in no server module and none of its dependencies.
export type TContext = object;
export type TProcedureMeta = object;
