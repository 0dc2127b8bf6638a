/**
 * libSQL's native code writes log lines of its own (plain text with colours, not JSON) to stdout, which
 * is the server's JSON log: on every failed sync of an embedded replica, for one. Those failures reach
 * the log through the call's error instead (server/server.ts). Its filter, RUST_LOG, is read from the
 * process's environment when the addon loads, so this module comes before @libsql/client wherever that
 * is imported (db/client.ts, db/hrana.ts), and an operator's RUST_LOG is kept.
 */
process.env.RUST_LOG ??= 'off';
