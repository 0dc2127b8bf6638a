import type { IncomingMessage } from 'node:http';
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import { forEachOpenApiProcedure, normalizePath } from 'trpc-to-openapi';
import { z } from 'zod';
import { storedAnswersRuleOf, type TStoredAnswersRule } from '../infra/cache/stored-answers';
import { topLevelFieldsOf, type TTopLevelFields } from './envelope';
import { procedureCall, type TProcedureCall } from './procedure-call';

export type THttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TRestRoute {
  method: THttpMethod;
  /** The contract path, e.g. `/drop/{id}`. */
  template: string;
  /** The procedure's dotted path in the router, e.g. `drop.getItem`. */
  procedurePath: string;
  /** Resolved once when the table is built: requests call it directly instead of through a caller proxy (procedure-call.ts). */
  procedure: TProcedureCall;
  type: 'query' | 'mutation';
  paramNames: string[];
  pattern: RegExp;
  isStatic: boolean;
  literalSegments: number;
  definitionOrder: number;
  /** From `meta.http.stored` (server/http/caching.ts). */
  storedAnswers?: TStoredAnswersRule;
  /** The input declares `ifMatch`: the REST surface hands it the `If-Match` header (handler.ts). */
  takesIfMatch: boolean;
  /** From `meta.rawResponse` (server/trpc.ts): the string output is the body, with this Content-Type, not an envelope. */
  rawContentType?: string;
  /** From `meta.topLevel` (server/trpc.ts): fields of the answer also written beside the envelope (envelope.ts). */
  topLevel?: TTopLevelFields;
  /** From `meta.streamed` (server/trpc.ts): the output's chunks are the body (stream.ts). */
  streamed: boolean;
}

export type TRouteMatch =
  | { kind: 'found'; route: TRestRoute; params: Record<string, string> }
  | { kind: 'wrong-method'; allowed: THttpMethod[] }
  | { kind: 'not-found' };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compile(template: string): { pattern: RegExp; paramNames: string[]; literalSegments: number } {
  const paramNames: string[] = [];
  let literalSegments = 0;
  const source = template
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param) {
        paramNames.push(param[1]!);
        return '([^/]+)';
      }
      if (segment !== '') literalSegments++;
      return escapeRegExp(segment);
    })
    .join('/');
  // Case-sensitive on purpose: /drop/Current is not /drop/current.
  return { pattern: new RegExp(`^${source}$`), paramNames, literalSegments };
}

/**
 * Whether the procedure's input object has an `ifMatch` field (assembly.edit). That field is the one
 * way a precondition reaches the procedure, on both surfaces: native tRPC clients set it per call
 * (a header would cover every call of a batch), REST clients send the standard header instead.
 */
function takesIfMatch(procedure: AnyProcedure): boolean {
  const inputs = (procedure._def as { inputs?: unknown[] }).inputs ?? [];
  // An input that normalises another form (a transform: a pipe) declares its fields on the pipe's input side.
  const objectOf = (parser: unknown): unknown => (parser instanceof z.ZodPipe ? objectOf(parser.in) : parser);
  return inputs.some((input) => {
    const parser = objectOf(input);
    return parser instanceof z.ZodObject && Object.hasOwn(parser.shape, 'ifMatch');
  });
}

/** The route each REST request was matched to, recorded by the handler for the request's log line and metrics. */
const matchedRoutes = new WeakMap<IncomingMessage, string>();

/** What the handler matched `req` to (its template, e.g. `/drop/{id}`), if it got that far. */
export function matchedRouteOf(req: IncomingMessage): string | undefined {
  return matchedRoutes.get(req);
}

/** A request path as routes see it: one trailing slash dropped (`/assembly/list/` is `/assembly/list`), the root kept. */
export function routePathOf(rawPath: string): string {
  return rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
}

/**
 * The REST route table, built once from the procedures' `meta.openapi`. Lookup order does not depend
 * on definition order: exact static paths first, then parameter paths with the most literal segments.
 */
export class RouteTable {
  private readonly staticRoutes = new Map<string, Map<THttpMethod, TRestRoute>>();
  private readonly paramRoutes: TRestRoute[] = [];

  constructor(routes: TRestRoute[]) {
    for (const route of routes) {
      if (route.isStatic) {
        const byMethod = this.staticRoutes.get(route.template) ?? new Map<THttpMethod, TRestRoute>();
        if (byMethod.has(route.method)) throw new Error(`Duplicate REST route ${route.method} ${route.template}`);
        byMethod.set(route.method, route);
        this.staticRoutes.set(route.template, byMethod);
      } else {
        this.paramRoutes.push(route);
      }
    }
    this.paramRoutes.sort((a, b) => b.literalSegments - a.literalSegments || a.definitionOrder - b.definitionOrder);
  }

  static fromRouter(router: AnyRouter): RouteTable {
    const routes: TRestRoute[] = [];
    forEachOpenApiProcedure(router._def.procedures, ({ path, type, meta, procedure }) => {
      if (type === 'subscription') return;
      const template = normalizePath(meta.openapi.path);
      const { pattern, paramNames, literalSegments } = compile(template);
      routes.push({
        method: meta.openapi.method,
        template,
        procedurePath: path,
        procedure: procedureCall(procedure as AnyProcedure),
        type,
        paramNames,
        pattern,
        isStatic: paramNames.length === 0,
        literalSegments,
        definitionOrder: routes.length,
        storedAnswers: storedAnswersRuleOf(meta),
        takesIfMatch: takesIfMatch(procedure as AnyProcedure),
        rawContentType: (meta as { rawResponse?: { contentType: string } }).rawResponse?.contentType,
        topLevel: topLevelFieldsOf(template, (meta as { topLevel?: TTopLevelFields }).topLevel),
        streamed: (meta as { streamed?: unknown }).streamed !== undefined,
      });
    });
    return new RouteTable(routes);
  }

  /**
   * The template of the routes at `path` (a routePathOf path), whatever the method, by the same rule
   * as match (a static path is never a parameter route's); undefined when none. Logs and metrics
   * label requests with it.
   */
  templateOf(path: string): string | undefined {
    if (this.staticRoutes.has(path)) return path;
    return this.paramRoutes.find((route) => route.pattern.test(path))?.template;
  }

  all(): TRestRoute[] {
    return [...[...this.staticRoutes.values()].flatMap((byMethod) => [...byMethod.values()]), ...this.paramRoutes];
  }

  /** `match`, recording the route on the request for its log line and metrics (matchedRouteOf). */
  matchRequest(req: IncomingMessage, method: string, path: string): TRouteMatch {
    const match = this.match(method, path);
    if (match.kind === 'found') matchedRoutes.set(req, match.route.template);
    return match;
  }

  match(method: string, path: string): TRouteMatch {
    const allowed = new Set<THttpMethod>();
    const byMethod = this.staticRoutes.get(path);
    if (byMethod) {
      const route = byMethod.get(method as THttpMethod);
      if (route) return { kind: 'found', route, params: {} };
      for (const other of byMethod.keys()) allowed.add(other);
    }
    for (const route of this.paramRoutes) {
      const found = route.pattern.exec(path);
      if (!found) continue;
      if (route.method !== method) {
        allowed.add(route.method);
        continue;
      }
      // A static path is never served by a parameter route, even for another method.
      if (byMethod) continue;
      const params: Record<string, string> = Object.create(null);
      route.paramNames.forEach((name, index) => {
        params[name] = found[index + 1]!;
      });
      return { kind: 'found', route, params };
    }
    return allowed.size > 0 ? { kind: 'wrong-method', allowed: [...allowed] } : { kind: 'not-found' };
  }
}
