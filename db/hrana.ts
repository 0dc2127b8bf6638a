// Before @libsql/client: it quiets libSQL's own log lines on stdout.
import './libsql-log';
import { LibsqlError } from '@libsql/client';
import * as hrana from '@libsql/hrana-client';

/**
 * A libSQL server (sqld, Turso) over one WebSocket, speaking Hrana: the socket carries streams, and
 * each stream is a connection of the server's own, which runs its requests in order. Opening a
 * stream makes the server open an SQLite connection, which costs it more than most statements do
 * (measured on loopback: a read on a stream of its own cost sqld 4 times the CPU, and this process
 * 3 times, of a read on a kept stream), so streams are kept:
 *   - one statement stream runs the statements outside transactions, pipelined, each a transaction
 *     of its own (autocommit); it never sees a BEGIN;
 *   - a transaction leases a stream of its own, at most `maxLeases` at once, and gives it back once
 *     its COMMIT or ROLLBACK went through; a stream in any doubt (an error of the stream, a deadline)
 *     is closed instead, which makes the server roll back whatever it still held.
 * The database sees this process's calls in the order they make them, as it did behind the gate of
 * a local file (a tRPC batch's calls keep their order): statements are answered in the order sent,
 * on their one stream, and a transaction sends its BEGIN only once every statement sent before it
 * asked for its stream has been answered and the transaction before it holds the server's lock (the
 * server queues the BEGINs after it in order). What no longer waits is a statement sent while a
 * transaction is open: it reads what is committed.
 * Every request has a deadline: a server that does not answer fails the call (a TimeoutError, a
 * 503, db/unavailable.ts) instead of holding it. A deadline also gives up the socket, which may be
 * dead without having said so; the next request opens a new one, as it does after the server closed it.
 */

/** A socket is replaced after this long, as @libsql/client does: proxies drop long-lived sockets silently. */
const CONNECTION_MAX_AGE_MS = 60_000;

export class RemoteTimeoutError extends Error {
  override name = 'TimeoutError';
}

interface TConnection {
  client: hrana.WsClient;
  version: Promise<number>;
  openedAt: number;
  statements: hrana.WsStream;
  idle: hrana.WsStream[];
  /** Requests under way and leased streams: a retired connection closes once none is left. */
  inUse: number;
  retired: boolean;
}

/** A stream held by one transaction alone. */
export interface TStreamLease {
  readonly stream: hrana.WsStream;
  /** The Hrana version the server speaks (3 has conditions on the autocommit state). */
  readonly version: Promise<number>;
  /** A request on the stream, under the deadline. */
  deadline<T>(request: Promise<T>): Promise<T>;
  /** The transaction's first request (with its BEGIN) has been answered: the next one may send its own. */
  begun(): void;
  /** Gives the stream back: to the next transaction if `reusable` (it is outside any transaction), else closed. */
  release(reusable: boolean): void;
}

export class HranaStreams {
  private current: TConnection | undefined;
  private leased = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;
  /** Settles once the statement sent last has been answered (or failed). */
  private lastStatement: Promise<unknown> = Promise.resolve();
  /** Settles once the transaction that asked for its stream last has sent its BEGIN and had it answered. */
  private lastBegin: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly authToken: string | undefined,
    readonly timeoutMs: number,
    private readonly maxLeases: number,
  ) {}

  /**
   * Runs `work` on the statement stream, outside any transaction; each of its requests (a request
   * sent again after SQLITE_BUSY too) is under the deadline.
   */
  statement<T>(work: (request: <R>(send: (stream: hrana.WsStream) => Promise<R>) => Promise<R>) => Promise<T>) {
    const connection = this.connection();
    if (connection.statements.closed) connection.statements = this.openStream(connection);
    const stream = connection.statements;
    connection.inUse++;
    const done = work((send) => this.withDeadline(connection, send(stream))).finally(() => this.done(connection));
    this.lastStatement = done.catch(() => undefined);
    return done;
  }

  /**
   * A stream for one transaction alone, once the order allows (see above); waits (within the
   * deadline) while `maxLeases` are out.
   */
  async lease(): Promise<TStreamLease> {
    const after = Promise.all([this.lastStatement, this.lastBegin]);
    let begun!: () => void;
    this.lastBegin = new Promise<void>((resolve) => (begun = resolve));
    let connection: TConnection;
    try {
      await this.takeSlot();
    } catch (error) {
      begun();
      throw error;
    }
    try {
      await after;
      connection = this.connection();
    } catch (error) {
      begun();
      this.giveSlot();
      throw error;
    }
    connection.inUse++;
    let stream = connection.idle.pop();
    while (stream?.closed) stream = connection.idle.pop();
    const leased = stream ?? this.openStream(connection);
    let released = false;
    return {
      stream: leased,
      version: connection.version,
      deadline: (request) => this.withDeadline(connection, request),
      begun,
      release: (reusable) => {
        if (released) return;
        released = true;
        begun();
        if (reusable && !leased.closed && !connection.retired) connection.idle.push(leased);
        else leased.close();
        this.done(connection);
        this.giveSlot();
      },
    };
  }

  /** Drops the socket: requests under way fail, the next one opens a new socket. */
  reconnect(): void {
    if (this.current) this.abandon(this.current);
  }

  close(): void {
    this.closed = true;
    this.reconnect();
  }

  private connection(): TConnection {
    if (this.closed) throw new LibsqlError('The client is closed', 'CLIENT_CLOSED');
    const current = this.current;
    if (current && !current.client.closed && Date.now() - current.openedAt < CONNECTION_MAX_AGE_MS) return current;
    if (current) this.retire(current);
    const client = hrana.openWs(this.url, this.authToken, 3);
    const version = client.getVersion().catch((error: unknown) => {
      throw toLibsqlError(error);
    });
    // A failure of the socket reaches every request made on it; this one only must not go unhandled.
    version.catch(() => undefined);
    const connection: TConnection = {
      client,
      version,
      openedAt: Date.now(),
      statements: this.openStreamOf(client),
      idle: [],
      inUse: 0,
      retired: false,
    };
    this.current = connection;
    return connection;
  }

  private openStream(connection: TConnection): hrana.WsStream {
    return this.openStreamOf(connection.client);
  }

  private openStreamOf(client: hrana.WsClient): hrana.WsStream {
    const stream = client.openStream();
    stream.intMode = 'number';
    return stream;
  }

  private withDeadline<T>(connection: TConnection, promise: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.abandon(connection);
        reject(new RemoteTimeoutError(`The libSQL server did not answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      promise.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(toLibsqlError(error));
        },
      );
    });
  }

  /** No new work goes to `connection`; it closes once its requests and leases are done. */
  private retire(connection: TConnection): void {
    connection.retired = true;
    if (this.current === connection) this.current = undefined;
    for (const stream of connection.idle.splice(0)) stream.close();
    if (connection.inUse === 0) connection.client.close();
  }

  /** Closes `connection` now: what is under way on it fails. */
  private abandon(connection: TConnection): void {
    this.retire(connection);
    connection.client.close();
  }

  private done(connection: TConnection): void {
    connection.inUse--;
    if (connection.retired && connection.inUse === 0) connection.client.close();
  }

  private takeSlot(): Promise<void> | undefined {
    if (this.leased < this.maxLeases) {
      this.leased++;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(grant), 1);
        reject(new RemoteTimeoutError(`No transaction of the libSQL server ended within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.waiting.push(grant);
    });
  }

  /** Hands the slot to the next waiting transaction, if any (it keeps the count as it is). */
  private giveSlot(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.leased--;
  }
}

/** Hrana's errors as @libsql/client reports them: a LibsqlError with the server's or the protocol's code. */
export function toLibsqlError(error: unknown): unknown {
  if (!(error instanceof hrana.ClientError)) return error;
  return new LibsqlError(error.message, codeOf(error), undefined, undefined, error);
}

function codeOf(error: hrana.ClientError): string {
  if (error instanceof hrana.ResponseError && error.code !== undefined) return error.code;
  if (error instanceof hrana.ClosedError) {
    // Closed by the server's error, or by us (a deadline gave the socket up): the latter is "closed".
    const cause = error.cause instanceof hrana.ClientError ? codeOf(error.cause) : 'UNKNOWN';
    return cause === 'UNKNOWN' ? 'HRANA_CLOSED_ERROR' : cause;
  }
  if (error instanceof hrana.WebSocketError) return 'HRANA_WEBSOCKET_ERROR';
  if (error instanceof hrana.ProtoError) return 'HRANA_PROTO_ERROR';
  if (error instanceof hrana.ProtocolVersionError) return 'PROTOCOL_VERSION_ERROR';
  return 'UNKNOWN';
}

/** http(s):// and libsql:// as the WebSocket URL of the same server (libsql:// is TLS unless ?tls=0). */
export function websocketUrl(url: string): string {
  const [, scheme = '', rest = ''] = /^([a-z]+):(.*)$/i.exec(url) ?? [];
  const address = rest.replace(/\?.*$/, '');
  switch (scheme.toLowerCase()) {
    case 'ws':
    case 'wss':
      return `${scheme.toLowerCase()}:${address}`;
    case 'http':
      return `ws:${address}`;
    case 'https':
      return `wss:${address}`;
    case 'libsql':
      return `${/[?&]tls=0(&|$)/.test(rest) ? 'ws' : 'wss'}:${address}`;
    default:
      throw new Error(`Not a libSQL server URL: ${scheme}:`);
  }
}
