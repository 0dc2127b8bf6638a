/**
 * A local file's connection is one per process (better-sqlite3, and libSQL on a file), and this is its
 * door; a libSQL server keeps calls apart itself, a connection of its own per transaction (db/hrana.ts).
 *
 * The process's one door to its database connection: a transaction holds it alone, from BEGIN to
 * COMMIT or ROLLBACK; a statement outside any transaction goes through only while no transaction holds
 * it or waits for it. So no statement of one call can land inside another call's transaction, see its
 * uncommitted writes, or be rolled back with it, however calls interleave: a tRPC batch (its calls run
 * side by side), concurrent requests on both surfaces, background jobs. Waiters are served in arrival
 * order, so neither statements nor transactions starve.
 *
 * On an idle connection a statement pays one branch; it waits only behind a transaction, and a
 * transaction on a local file lasts one turn of the event loop (db/transaction.ts).
 */
export class DatabaseGate {
  private held = false;
  private readonly waiting: { exclusive: boolean; resume: () => void }[] = [];

  /** True while a transaction holds the connection. */
  get isHeld(): boolean {
    return this.held;
  }

  /** Runs one statement outside any transaction, after the transactions that hold or wait for the connection. */
  async statement<T>(run: () => T | Promise<T>): Promise<T> {
    if (this.held || this.waiting.length > 0) {
      await new Promise<void>((resume) => this.waiting.push({ exclusive: false, resume }));
    }
    return run();
  }

  /** Takes the connection for a transaction: resolves once it holds it alone. Pair with `release()`. */
  acquire(): Promise<void> | undefined {
    if (!this.held && this.waiting.length === 0) {
      this.held = true;
      return undefined;
    }
    return new Promise<void>((resume) => this.waiting.push({ exclusive: true, resume }));
  }

  /**
   * Ends a transaction's hold: lets through the statements queued behind it, then hands the
   * connection to the next transaction in line (the statements' continuations run first: they were
   * queued first).
   */
  release(): void {
    this.held = false;
    while (this.waiting.length > 0 && !this.held) {
      const next = this.waiting.shift()!;
      if (next.exclusive) this.held = true;
      next.resume();
    }
  }
}
