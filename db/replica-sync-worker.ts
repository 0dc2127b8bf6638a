/**
 * The embedded replica's own thread (db/replica-sync-thread.ts starts it): it holds @libsql/client's
 * embedded replica of the primary and brings the local file up to it on each request. A sync is
 * synchronous underneath (a round trip to the primary, then applying the frames it brings), so on the
 * server's main thread it would stop every request meanwhile; here it stops nothing but this thread.
 * The main thread reads the same file through a plain connection of its own, which sees each frame
 * once this thread has applied it (SQLite's WAL: a reader starting after a commit sees it).
 *
 * Request: `{ id }` syncs and answers `{ id, frame }` (the frame the copy reached) or `{ id, error }`;
 * `{ close: true }` closes the replica and ends the thread, once a sync under way has finished.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Client } from '@libsql/client';

export interface TReplicaWorkerSettings {
  /** The local file, as a file: URL. */
  fileUrl: string;
  /** The primary (DATABASE_SYNC_URL). */
  syncUrl: string;
  authToken?: string;
  /** The local connection's busy timeout. */
  busyTimeoutMs: number;
}

export type TReplicaWorkerRequest = { id: number } | { close: true };
export type TReplicaWorkerReply = { id: number; frame: number } | { id: number; error: Error };

async function serve(settings: TReplicaWorkerSettings): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('db/replica-sync-worker.ts runs as a worker thread (db/replica-sync-thread.ts)');
  // Loaded here, not imported above: inside the single executable its addon must be registered first.
  const { createClient } = await import('@libsql/client');
  let client: Client | undefined;
  // Opening a replica syncs it: with the primary unreachable it fails, and the next sync opens it again.
  const opened = (): Client =>
    (client ??= createClient({
      url: settings.fileUrl,
      syncUrl: settings.syncUrl,
      authToken: settings.authToken,
      timeout: settings.busyTimeoutMs,
    }));
  let inFlight: Promise<unknown> = Promise.resolve();
  port.on('message', async (request: TReplicaWorkerRequest) => {
    if ('close' in request) {
      // A sync under way cannot be stopped (it is native code): the thread ends once it has.
      await inFlight;
      client?.close();
      port.close();
      return;
    }
    let reply: TReplicaWorkerReply;
    try {
      const syncing = opened().sync();
      inFlight = syncing.catch(() => undefined);
      const replicated = await syncing;
      reply = { id: request.id, frame: Number(replicated?.frame_no ?? 0) };
    } catch (error) {
      reply = { id: request.id, error: error instanceof Error ? error : new Error(String(error)) };
    }
    port.postMessage(reply);
  });
}

void serve(workerData as TReplicaWorkerSettings);
