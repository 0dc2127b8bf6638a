import {
  type Client,
  type InArgs,
  type InStatement,
  LibsqlBatchError,
  LibsqlError,
  type ResultSet,
  type Transaction,
  type TransactionMode,
} from '@libsql/client';
import { HranaStreams, type TStreamLease, websocketUrl } from './hrana';
import {
  againWhileBusy,
  BeginBusy,
  beginOf,
  isBusy,
  resultSet,
  sendSteps,
  type TStatement,
  toHrana,
} from './hrana-batch';

export interface TRemoteOptions {
  authToken?: string;
  /** The deadline of one request (DATABASE_TIMEOUT_MS). */
  timeoutMs: number;
  /** How many transactions (and batches) may be open on the server at once; more wait their turn. */
  maxTransactions: number;
}

/**
 * @libsql/client's `Client` for a libSQL server, on Hrana streams over one WebSocket (db/hrana.ts):
 * what drizzle and db/transaction.ts call, each at its lowest number of round trips:
 *   - a statement outside transactions: one request on a statement stream;
 *   - `batch()`: one request (BEGIN, the statements, COMMIT), a transaction on the server, in the
 *     write mode unless told (it takes the write lock first, so it never fails half-way to upgrade);
 *   - `transaction()`: a leased stream; BEGIN IMMEDIATE goes with the first statement, each later
 *     statement is one request, COMMIT one more.
 * SQLITE_BUSY on BEGIN (sqld lets writers queue for its lock, but one may still be refused when the
 * log is checkpointed), and on a statement outside transactions, means nothing was done: the request
 * is sent again after a short wait.
 */
export function openRemoteClient(url: string, options: TRemoteOptions): Client {
  return new RemoteClient(
    new HranaStreams(websocketUrl(url), options.authToken, options.timeoutMs, options.maxTransactions),
  );
}

class RemoteClient implements Client {
  closed = false;
  readonly protocol = 'ws';

  constructor(private readonly streams: HranaStreams) {}

  execute(statement: InStatement): Promise<ResultSet>;
  execute(sql: string, args?: InArgs): Promise<ResultSet>;
  execute(statement: InStatement, args?: InArgs): Promise<ResultSet> {
    const stmt = toHrana(typeof statement === 'string' && args ? { sql: statement, args } : statement);
    return this.streams.statement((request) =>
      againWhileBusy(() => request((stream) => stream.query(stmt)).then(resultSet), isBusy),
    );
  }

  batch(statements: TStatement[], mode: TransactionMode = 'write'): Promise<ResultSet[]> {
    return this.onLease((lease) =>
      againWhileBusy(
        () => sendSteps(lease, statements, { begin: beginOf(mode), inTransaction: true, commit: true }),
        (error) => error instanceof BeginBusy,
      ),
    );
  }

  migrate(statements: InStatement[]): Promise<ResultSet[]> {
    return this.onLease((lease) =>
      sendSteps(lease, statements, {
        begin: 'BEGIN DEFERRED',
        inTransaction: true,
        commit: true,
        foreignKeysOff: true,
      }),
    );
  }

  async transaction(mode: TransactionMode = 'write'): Promise<Transaction> {
    return new RemoteTransaction(await this.streams.lease(), beginOf(mode));
  }

  async executeMultiple(sql: string): Promise<void> {
    const lease = await this.streams.lease();
    // The script may leave a transaction open: its stream is not given to anyone else.
    await lease.deadline(lease.stream.sequence(sql)).finally(() => lease.release(false));
  }

  sync(): Promise<never> {
    return Promise.reject(new LibsqlError('A libSQL server has no local copy to sync', 'SYNC_NOT_SUPPORTED'));
  }

  close(): void {
    this.closed = true;
    this.streams.close();
  }

  reconnect(): void {
    this.streams.reconnect();
  }

  /** Runs `work` on a leased stream; the stream goes back to the pool unless the request failed at the stream level. */
  private async onLease<T>(work: (lease: TStreamLease) => Promise<T>): Promise<T> {
    const lease = await this.streams.lease();
    try {
      const result = await work(lease);
      lease.release(true);
      return result;
    } catch (error) {
      // A statement's error leaves the stream outside any transaction (the batch's ROLLBACK step ran).
      lease.release(error instanceof LibsqlBatchError);
      throw error;
    }
  }
}

/**
 * An interactive transaction on a leased stream: BEGIN goes out with the first statement (and again,
 * after a short wait, while the server answers it with SQLITE_BUSY), so a transaction costs one
 * request per statement plus its COMMIT.
 */
class RemoteTransaction implements Transaction {
  private begun: Promise<unknown> | undefined;
  private ended = false;
  /** False once a request failed at the stream level (deadline, socket): the stream is then closed, never reused. */
  private sound = true;

  constructor(
    private readonly lease: TStreamLease,
    private readonly begin: string,
  ) {}

  get closed(): boolean {
    return this.ended;
  }

  async execute(statement: InStatement): Promise<ResultSet> {
    if (this.ended) throw new LibsqlError('This transaction has ended', 'TRANSACTION_CLOSED');
    if (this.begun === undefined) {
      const first = this.track(
        againWhileBusy(
          () => sendSteps(this.lease, [statement], { begin: this.begin, inTransaction: false, commit: false }),
          (error) => error instanceof BeginBusy,
        ),
      );
      // Later statements wait for BEGIN's answer; the first statement's own error is theirs to ignore.
      this.begun = first
        .catch((error: unknown) => {
          if (!(error instanceof LibsqlBatchError)) throw error;
        })
        .finally(() => this.lease.begun());
      // Awaited by the statements after it and by COMMIT, if any come.
      this.begun.catch(() => undefined);
      return (await first)[0]!;
    }
    await this.begun;
    return (await this.track(sendSteps(this.lease, [statement], { inTransaction: true, commit: false })))[0]!;
  }

  async batch(statements: InStatement[]): Promise<ResultSet[]> {
    const results: ResultSet[] = [];
    for (const statement of statements) results.push(await this.execute(statement));
    return results;
  }

  executeMultiple(): Promise<void> {
    return Promise.reject(new LibsqlError('executeMultiple inside a transaction is not supported', 'NOT_SUPPORTED'));
  }

  async commit(): Promise<void> {
    await this.end('COMMIT');
  }

  async rollback(): Promise<void> {
    // After a failure of the stream, closing it is the rollback (the server drops what the connection held).
    if (!this.sound) return this.close();
    await this.end('ROLLBACK').catch(() => undefined);
  }

  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.lease.release(false);
  }

  private async end(statement: 'COMMIT' | 'ROLLBACK'): Promise<void> {
    if (this.ended) throw new LibsqlError('This transaction has ended', 'TRANSACTION_CLOSED');
    const begun = this.begun;
    if (begun === undefined) {
      this.ended = true;
      this.lease.release(true);
      return;
    }
    try {
      await begun;
      await this.track(this.lease.deadline(this.lease.stream.run(statement)));
      this.ended = true;
      this.lease.release(true);
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** Notes a failure of the stream itself (not of a statement) on the way through. */
  private track<T>(request: Promise<T>): Promise<T> {
    return request.catch((error: unknown) => {
      if (!(error instanceof LibsqlBatchError) && !(error instanceof BeginBusy)) {
        const code = (error as { code?: unknown }).code;
        if (typeof code !== 'string' || !code.startsWith('SQLITE_')) this.sound = false;
      }
      throw error;
    });
  }
}
