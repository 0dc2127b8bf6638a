// The server's entry point (npm start). The Node.js version check comes first: it exits, with one line saying
// what to run, before anything loads on a Node.js Tidewatch does not support. Then the resolution shortcuts:
// they apply to the modules imported after them.
import './node-version';
// Before anything loads libSQL (in the production bundle its import is hoisted above db/client.ts's own).
import '../db/libsql-log';
import { registerResolutionShortcuts } from './module-resolution';

registerResolutionShortcuts();
await import('./serve');
