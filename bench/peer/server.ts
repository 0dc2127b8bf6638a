/**
 * The peer baseline: what a developer would write by hand instead of Tidewatch. Fastify plus
 * better-sqlite3 prepared statements, the same SQL as our services, the same envelope and field
 * names, no validation library, no tRPC, no per-request context. Only what the benchmark drives.
 *
 *   node --import tsx bench/peer/server.ts <database file> <port> [--equipped [--log <file>]]
 *
 * Like ours, /drop/current is served from a short-lived cache (the contract says so). Assembly list
 * pages are not cached: a hand-written service would query each time.
 *
 * `--equipped`: the same service with what ours does on every request, each the stock Fastify way
 * (bench/README.md, "The equipped peer"): security headers (@fastify/helmet, with our CSP), a
 * per-client rate limit counted in memory (@fastify/rate-limit, a limit no benchmark reaches), a
 * request id and one info log line per request (Fastify's pino, to `--log <file>` or a file in a new
 * temporary directory, never stdout) and a weak ETag on every answer (@fastify/etag, 304 on a match).
 */
import { parseArgs } from 'node:util';
import { createPeerApp } from './equip';
import { registerAssemblyRoutes, registerDropRoute, registerSignInRoute } from './routes';
import { openPeerDatabase, prepareStatements } from './statements';
import { registerWarRoutes } from './war-routes';

const { positionals, values: options } = parseArgs({
  allowPositionals: true,
  options: { equipped: { type: 'boolean', default: false }, log: { type: 'string' } },
});
const [file, portArg] = positionals;
if (!file) throw new Error('usage: bench/peer/server.ts <database file> <port> [--equipped [--log <file>]]');
const db = openPeerDatabase(file);
const statements = prepareStatements(db);

const { app, logFile } = await createPeerApp(options.equipped, options.log);
// In the order they have always been registered.
registerAssemblyRoutes(app, statements);
registerDropRoute(app, db, statements);
registerWarRoutes(app, db, statements);
registerSignInRoute(app, statements);

await app.listen({ port: Number(portArg ?? 3101), host: '127.0.0.1' });
console.log(`peer${logFile ? ` (equipped, request log ${logFile})` : ''} listening on ${portArg ?? 3101}`);
// A clean exit on SIGTERM, so `node --cpu-prof` (bench/profile.ts) writes its profile.
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
