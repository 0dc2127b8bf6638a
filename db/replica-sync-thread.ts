import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TReplicaWorkerReply, TReplicaWorkerRequest, TReplicaWorkerSettings } from './replica-sync-worker';

/** Where the replica's thread starts from, and what else it must be given. */
export interface TReplicaWorkerEntry {
  file: string;
  workerData: Record<string, unknown>;
}

let packagedWorker: TReplicaWorkerEntry | undefined;

/**
 * The single executable's code has no file beside it: it writes the worker's own bundle to its
 * private cache and names it here, with the native addons' files (server/binary/main.ts).
 */
export function useReplicaWorker(entry: TReplicaWorkerEntry): void {
  packagedWorker = entry;
}

/** The worker's file: beside the running code in the production build (dist/), else the source. */
function workerFile(): URL {
  const built = new URL('./replica-sync-worker.js', import.meta.url);
  return existsSync(fileURLToPath(built)) ? built : new URL('./replica-sync-worker.ts', import.meta.url);
}

interface TPending {
  resolve: (frame: number) => void;
  reject: (error: Error) => void;
}

/**
 * The main thread's side of db/replica-sync-worker.ts: `sync()` asks the thread to bring the local
 * file up to the primary and resolves with the frame it reached. The thread starts on the first sync
 * and again after it died (its pending syncs fail with the reason).
 */
export class ReplicaSyncThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, TPending>();
  private lastId = 0;
  private closed = false;
  private exited: Promise<void> | undefined;

  constructor(private readonly settings: TReplicaWorkerSettings) {}

  sync(): Promise<number> {
    if (this.closed) return Promise.reject(new Error('the database is closed'));
    const worker = this.worker ?? this.start();
    const id = ++this.lastId;
    return new Promise<number>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id } satisfies TReplicaWorkerRequest);
    });
  }

  /**
   * Ends the thread: resolves once it has exited, after a sync under way has finished. Until then the
   * thread keeps the process alive: a process that exits while the thread is inside libSQL's native
   * sync aborts.
   */
  close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('the database is closed'));
    if (!worker) return Promise.resolve();
    this.exited ??= new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref();
    worker.postMessage({ close: true } satisfies TReplicaWorkerRequest);
    return this.exited;
  }

  private start(): Worker {
    const worker = packagedWorker
      ? new Worker(packagedWorker.file, { workerData: { ...packagedWorker.workerData, ...this.settings } })
      : new Worker(workerFile(), { workerData: this.settings });
    worker.unref();
    worker.on('message', (reply: TReplicaWorkerReply) => {
      const pending = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if ('error' in reply) pending?.reject(reply.error);
      else pending?.resolve(reply.frame);
    });
    const died = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(error);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`the database replica's sync thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
