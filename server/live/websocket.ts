// The web client's WebSocket (LIVE_WS_PATH, /ws by default), on the API's own port: the team-up board
// live, publish and cancel (ws-protocol.ts says the messages). It calls the team-up procedures, as REST
// and native tRPC do, with a context of the connection (its session once authenticated, its address).
// Limits: connections per client address (LiveConnections), Origin against CORS_ORIGINS, a deadline for
// `authenticate`, the size of a message (ws's maxPayload) and messages per minute per connection,
// heartbeats (ping/pong), and a bounded send buffer.
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import type { TDb } from '../../db/client';
import type { TAuth } from '../auth';
import { createContextInner } from '../context';
import type { TAppDeps } from '../deps';
import { liveRefusal } from '../domains/live';
import { TEAMUP_TOPIC } from '../domains/teamup/schemas';
import { AppError, toPublicError } from '../errors';
import { clientIpOf } from '../http/client-ip';
import { isRefusal, type TSlot } from '../infra/events/connections';
import { envelopeBody } from '../rest/envelope';
import { procedureCall, type TProcedureCall } from '../rest/procedure-call';
import { splitRequestTarget } from '../rest/url';
import { clientMessageOf, readClientMessage, type TClientMessage, type TServerMessage } from './ws-protocol';

const MAX_TOKEN_LENGTH = 256;

/** Answers an upgrade that is refused, in the API's envelope, and closes the socket. */
function refuseUpgrade(socket: Duplex, error: AppError): void {
  const described = toPublicError(error, randomUUID());
  const body = envelopeBody(described.status, described.message, described.data);
  const retry =
    described.retryAfterSeconds === undefined ? '' : `Retry-After: ${Math.ceil(described.retryAfterSeconds)}\r\n`;
  socket.end(
    `HTTP/1.1 ${described.status} ${STATUS_CODES[described.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${retry}Connection: close\r\n\r\n${body}`,
  );
}

export interface TWebSocketDoor {
  /** The HTTP server's 'upgrade' listener. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

export function createWebSocketDoor(options: { db: TDb; deps: TAppDeps; router: AnyRouter }): TWebSocketDoor {
  const { db, deps } = options;
  const { config } = deps;
  const procedures = options.router._def.procedures as Record<string, AnyProcedure>;
  const publish = procedureCall(procedures['teamup.publish']!);
  const cancel = procedureCall(procedures['teamup.cancel']!);
  const origins = config.CORS_ORIGINS.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  const anyOrigin = origins.includes('*');
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: config.LIVE_WS_MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
    clientTracking: false,
  });

  function checkUpgrade(req: IncomingMessage): void {
    if (splitRequestTarget(req.url ?? '/').pathname !== config.LIVE_WS_PATH)
      throw new AppError('NOT_FOUND', `No WebSocket at ${req.url}: it is at ${config.LIVE_WS_PATH}`);
    // Browsers always send Origin: a page of another site may not open the board in its visitor's name.
    const origin = req.headers.origin;
    if (origin !== undefined && !anyOrigin && !origins.includes(origin))
      throw new AppError('FORBIDDEN', `Origin ${origin} is not allowed (CORS_ORIGINS)`);
  }

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    checkUpgrade(req);
    const clientIp = clientIpOf(req, config.TRUST_PROXY);
    await deps.limits.global.hit(clientIp);
    let connection: Connection | undefined;
    const slot = deps.liveConnections.open(clientIp, {
      heartbeat: () => connection?.heartbeat(),
      close: () => (connection ? connection.close(1001, 'the server is shutting down') : socket.destroy()),
      destroy: () => (connection ? connection.terminate() : socket.destroy()),
    });
    if (isRefusal(slot)) throw liveRefusal(slot);
    if (socket.destroyed) return slot.release();
    socket.once('close', () => slot.release());
    server.handleUpgrade(req, socket, head, (ws) => {
      connection = new Connection(ws, req, clientIp, slot);
    });
  }

  /** One client's connection: anonymous until `authenticate` names a valid session. */
  class Connection {
    private auth: TAuth | null = null;
    private authenticating = false;
    private readonly openedAt = Date.now();
    private alive = true;
    private windowStart = Date.now();
    private messagesInWindow = 0;
    private pending: Promise<void> = Promise.resolve();
    private corked = false;
    private readonly subscription;

    constructor(
      private readonly ws: WebSocket,
      private readonly req: IncomingMessage,
      private readonly clientIp: string,
      slot: TSlot,
    ) {
      req.socket.setKeepAlive(true, config.LIVE_HEARTBEAT_MS);
      ws.on('pong', () => {
        this.alive = true;
      });
      ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
      ws.on('error', (error) => deps.logger.debug({ err: error }, 'websocket error'));
      this.subscription = deps.events.subscribe([TEAMUP_TOPIC], (event) => {
        const message = clientMessageOf(event);
        if (message === undefined) return;
        this.corkUntilNextTick();
        this.sendText(message);
      });
      ws.once('close', () => {
        this.subscription.unsubscribe();
        slot.release();
      });
    }

    /**
     * The events of one delivery round (server/infra/events/bus.ts) leave in one write: ws uncorks after
     * each message it frames, this outer cork holds them until the round's turn ends.
     */
    private corkUntilNextTick(): void {
      if (this.corked) return;
      this.corked = true;
      const socket = this.req.socket;
      socket.cork();
      process.nextTick(() => {
        this.corked = false;
        socket.uncork();
      });
    }

    heartbeat(): void {
      // No pong since the last ping: the peer is gone.
      if (!this.alive) {
        this.ws.terminate();
        return;
      }
      this.alive = false;
      this.ws.ping();
    }

    close(code: number, reason: string): void {
      this.ws.close(code, reason);
    }

    terminate(): void {
      this.ws.terminate();
    }

    private send(message: TServerMessage): void {
      this.sendText(JSON.stringify(message));
    }

    /** A text frame: a string, or its UTF-8 bytes (made once for every connection an event goes to). */
    private sendText(text: string | Buffer): void {
      if (this.ws.readyState !== WebSocket.OPEN) return;
      // A reader that lets this much pile up is too slow for the board: closed, never queued without end.
      if (this.ws.bufferedAmount > config.LIVE_MAX_BUFFERED_BYTES) this.ws.terminate();
      else this.ws.send(text, { binary: false });
    }

    private onMessage(data: RawData, isBinary: boolean): void {
      this.alive = true;
      const now = Date.now();
      if (now - this.windowStart >= 60_000) {
        this.windowStart = now;
        this.messagesInWindow = 0;
      }
      if (++this.messagesInWindow > config.LIVE_WS_MESSAGES_PER_MINUTE) {
        this.send({ type: 'error', message: `At most ${config.LIVE_WS_MESSAGES_PER_MINUTE} messages a minute` });
        this.close(1008, 'too many messages');
        return;
      }
      const message = isBinary ? { problem: 'messages are text (JSON)' } : readClientMessage(data.toString());
      if ('problem' in message) {
        this.send({ type: 'error', message: message.problem });
        return;
      }
      // One at a time, in the order sent: a publish right after `authenticate` is the session's.
      this.pending = this.pending
        .then(() => this.handle(message))
        .catch((error: unknown) => {
          deps.logger.error({ err: error }, 'websocket message failed');
          this.send({ type: 'error', message: 'Internal server error' });
        });
    }

    private async handle(message: TClientMessage): Promise<void> {
      if (message.type === 'authenticate') return this.authenticate(message.payload.token);
      const isPublish = message.type === 'publish_team_up';
      const requestId = randomUUID();
      const ctx = createContextInner({
        db,
        deps,
        auth: this.auth,
        requestId,
        request: { headers: this.req.headers, clientIp: this.clientIp },
      });
      try {
        // The new team-up, or its cancellation, reaches this client like every other: through the bus.
        await (isPublish ? publish : cancel)({
          path: isPublish ? 'teamup.publish' : 'teamup.cancel',
          getRawInput: async () => message.payload,
          ctx,
          type: 'mutation',
          signal: undefined,
          batchIndex: 0,
        } satisfies Parameters<TProcedureCall>[0]);
      } catch (error) {
        const described = toPublicError(error, requestId);
        if (described.status >= 500) deps.logger.error({ err: error, requestId }, 'websocket call failed');
        if (isPublish && described.status === 429) {
          return this.send({
            type: 'publish_rate_limit',
            code: this.auth ? 'teamUp_account_rateLimit' : 'teamUp_anonymous_rateLimit',
            remainingTime: Math.ceil((described.retryAfterSeconds ?? 1) * 1000),
            message: described.message,
          });
        }
        this.send({ type: 'error', message: described.message, code: String(described.data.key) });
      }
    }

    private async authenticate(token: unknown): Promise<void> {
      if (this.auth || this.authenticating) return this.send({ type: 'error', message: 'Already authenticated' });
      if (Date.now() - this.openedAt > config.LIVE_WS_AUTH_DEADLINE_MS) {
        this.send({
          type: 'error',
          message: `authenticate must come within ${config.LIVE_WS_AUTH_DEADLINE_MS} ms of connecting: reconnect and send it first`,
        });
        return this.close(1008, 'authenticate too late');
      }
      this.authenticating = true;
      const auth =
        typeof token === 'string' && token.length > 0 && token.length <= MAX_TOKEN_LENGTH
          ? await deps.validateSession({ db, now: deps.now }, { token })
          : null;
      this.authenticating = false;
      if (!auth) {
        return this.send({
          type: 'auth_failed',
          code: 'teamUp.authFailed',
          message: 'Invalid or expired access token',
        });
      }
      // Nothing is answered: the page empties its list on every message it gets (Team.vue:286).
      this.auth = auth;
    }
  }

  return {
    handleUpgrade(req, socket, head) {
      socket.on('error', () => socket.destroy());
      upgrade(req, socket, head).catch((error: unknown) => {
        if (toPublicError(error, 'upgrade').status >= 500)
          deps.logger.error({ err: error }, 'websocket upgrade failed');
        if (!socket.destroyed)
          refuseUpgrade(
            socket,
            error instanceof AppError ? error : new AppError('INTERNAL_SERVER_ERROR', 'Internal server error'),
          );
      });
    },
  };
}
