/**
 * An embedded replica's thread inside the single executable (scripts/build-binary.ts bundles it alone,
 * and the executable starts it from its file in the private cache: server/binary/main.ts). A thread
 * has hooks of its own, so it first sends libSQL's addon id to its checked file, as the main thread
 * did, then runs db/replica-sync-worker.ts.
 */
import { workerData } from 'node:worker_threads';
import { registerNativeAddons } from './native';

registerNativeAddons(new Map((workerData as { nativeAddons: [string, string][] }).nativeAddons));
await import('../../db/replica-sync-worker');
