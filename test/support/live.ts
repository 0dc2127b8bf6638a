/**
 * Real clients of the live streams, for the suites of test/live/ and test/web-client/teamup.test.ts:
 * - a WebSocket client (the `ws` package, which can send an Origin header and leave pings unanswered)
 *   that collects the messages it gets;
 * - an SSE reader over fetch (what curl and a bot do): frames, comments, its last id;
 * - a browser-like EventSource (the `eventsource` package), which reconnects by itself with Last-Event-ID;
 * - a tRPC client with httpSubscriptionLink, as a TypeScript front end subscribes.
 */
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import superjson from 'superjson';
import WebSocket from 'ws';
import type { AppRouter } from '../../server/router';

export { EventSource };

/** Messages (or frames) gathered as they arrive, awaited one by one by what they hold. */
export class Inbox<T> {
  readonly all: T[] = [];
  private readonly waiters: { test: (item: T) => boolean; resolve: (item: T) => void }[] = [];

  push(item: T): void {
    this.all.push(item);
    for (const waiter of [...this.waiters]) {
      if (waiter.test(item)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(item);
      }
    }
  }

  /** The first item (already here or to come) that passes `test`. */
  next(test: (item: T) => boolean, what: string, timeoutMs = 5_000): Promise<T> {
    const found = this.all.find(test);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.all).slice(-800)}`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: (item) => {
          clearTimeout(timer);
          resolve(item);
        },
      });
    });
  }
}

/** `promise`, or a failure naming `what` after `ms`: a test waits for a close or an end, never forever. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export interface TWsClient {
  socket: WebSocket;
  inbox: Inbox<any>;
  send: (message: unknown) => void;
  closed: Promise<{ code: number; reason: string }>;
}

/** A WebSocket client of `url` (http://… of the server) at `path`, as the web client connects (ws.ts:26). */
export async function connectWs(
  url: string,
  options: { path?: string; origin?: string; autoPong?: boolean; headers?: Record<string, string> } = {},
): Promise<TWsClient> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}${options.path ?? '/ws'}`, {
    headers: { ...(options.origin ? { origin: options.origin } : {}), ...options.headers },
    autoPong: options.autoPong ?? true,
  });
  const inbox = new Inbox<any>();
  socket.on('message', (data) => inbox.push(JSON.parse(data.toString())));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`upgrade refused: ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
  return { socket, inbox, send: (message) => socket.send(JSON.stringify(message)), closed };
}

/** The status and envelope of a refused upgrade. */
export function refusedUpgrade(
  url: string,
  options: { path?: string; origin?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}${options.path ?? '/ws'}`, {
      headers: { ...(options.origin ? { origin: options.origin } : {}), ...options.headers },
    });
    socket.once('open', () => {
      socket.close();
      reject(new Error('the upgrade was accepted'));
    });
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
      );
    });
    socket.once('error', () => undefined);
  });
}

export interface TSseFrame {
  id?: string;
  event?: string;
  data?: any;
  comment?: string;
  retry?: number;
}

export interface TSseReader {
  status: number;
  headers: Headers;
  frames: Inbox<TSseFrame>;
  /** The id of the last frame with one, as an EventSource keeps it. */
  lastEventId: () => string | undefined;
  ended: Promise<'end' | 'error'>;
  close: () => void;
}

/** Reads GET /api/events (or any SSE URL) with fetch, frame by frame. `headers` may carry Last-Event-ID. */
export async function readSse(url: string, headers: Record<string, string> = {}): Promise<TSseReader> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const frames = new Inbox<TSseFrame>();
  let lastId: string | undefined;
  let buffer = '';
  const ended = (async (): Promise<'end' | 'error'> => {
    if (!response.body) return 'end';
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let at = buffer.indexOf('\n\n');
        while (at >= 0) {
          const frame: TSseFrame = {};
          for (const line of buffer.slice(0, at).split('\n')) {
            if (line.startsWith(':')) frame.comment = line.slice(1).trim();
            else if (line.startsWith('id: ')) frame.id = line.slice(4);
            else if (line.startsWith('event: ')) frame.event = line.slice(7);
            else if (line.startsWith('retry: ')) frame.retry = Number(line.slice(7));
            else if (line.startsWith('data: ')) frame.data = JSON.parse(line.slice(6));
          }
          if (frame.id !== undefined) lastId = frame.id;
          frames.push(frame);
          buffer = buffer.slice(at + 2);
          at = buffer.indexOf('\n\n');
        }
      }
      return 'end';
    } catch {
      return 'error';
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    frames,
    lastEventId: () => lastId,
    ended,
    close: () => abort.abort(),
  };
}

/** Frames of events (not comments) of the given type. */
export const ofType = (type: string) => (frame: TSseFrame) => frame.data?.type === type;

/** A tRPC client with httpSubscriptionLink for subscriptions (EventSource from the `eventsource` package) and httpBatchLink for the rest. */
export function liveTrpcClient(url: string, options: { token?: string; fetch?: typeof fetch } = {}) {
  const headers = () => (options.token ? { authorization: `Bearer ${options.token}` } : {});
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url: `${url}/trpc`,
          transformer: superjson,
          EventSource,
          eventSourceOptions: options.fetch ? { fetch: options.fetch } : undefined,
        }),
        false: httpBatchLink({ url: `${url}/trpc`, transformer: superjson, headers }),
      }),
    ],
  });
}

export const TEAM_UP = {
  player: 'Blackbeard#1234',
  description: 'Looking for two captains for a Fort Siege',
  tags: ['pvp', 'fortressRaiding'],
  expiresMinutesAt: 30,
};
