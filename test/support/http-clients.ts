/** Calling a running server over HTTP: REST requests, tRPC clients (one call a request, or batched), and reading a tRPC call's status or error. */
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../server/router';

export interface TRestResponse<T = any> {
  status: number;
  headers: Headers;
  body: { code: number; message: string; data: T };
  text: string;
}

export interface TRestOptions {
  body?: unknown;
  /** Sent verbatim instead of JSON-encoding `body`. */
  rawBody?: string | Buffer;
  token?: string;
  headers?: Record<string, string>;
}

export async function rest<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: TRestOptions = {},
): Promise<TRestResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export function trpcClient(baseUrl: string, token?: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${baseUrl}/trpc`,
        transformer: superjson,
        headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
      }),
    ],
  });
}

/**
 * A real tRPC client with the batch link: calls made in the same tick go out as one HTTP request.
 * `sent.requests` counts the requests it made, so a test can show its calls travelled as one batch.
 */
export function batchClient(
  baseUrl: string,
  options: { token?: string; headers?: Record<string, string>; maxItems?: number } = {},
) {
  const sent = { requests: 0 };
  const headers = { ...options.headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
  const client = createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${baseUrl}/trpc`,
        transformer: superjson,
        maxItems: options.maxItems ?? 50,
        // Batched queries travel in the URL; the server refuses URLs over 8 KiB.
        maxURLLength: 6000,
        headers: () => headers,
        fetch: (url, init) => {
          sent.requests++;
          return fetch(url, init as RequestInit);
        },
      }),
    ],
  });
  return { client, sent };
}

/** The HTTP status a tRPC call answered: 200, or its error's status. */
export async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (error) {
    if (error instanceof TRPCClientError) return (error.data as { httpStatus: number }).httpStatus;
    throw error;
  }
}

/** Runs a tRPC call expected to fail and returns its status and message. */
export async function trpcError(call: Promise<unknown>): Promise<{ status: number; message: string; data: any }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof TRPCClientError) {
      return { status: error.data?.httpStatus, message: error.message, data: error.data };
    }
    throw error;
  }
  throw new Error('expected the tRPC call to fail');
}
