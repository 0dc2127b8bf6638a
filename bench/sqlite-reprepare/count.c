/*
 * Counts how often SQLite re-prepares a statement and how long one lookup takes (issue 22), built from
 * better-sqlite3's own SQLite source and compile options (run.sh).
 *
 *   count <database> <sql listing the keys to bind> <statement> [<statement> ...]
 *
 * Every `?` of each statement is bound to each key in turn, 20 rounds; prints microseconds per lookup,
 * rows found and sqlite3_stmt_status(SQLITE_STMTSTATUS_REPREPARE).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "sqlite3.h"
int main(int argc, char **argv) {
  sqlite3 *db; sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, 0);
  static char ids[1000][80]; sqlite3_stmt *q; int n = 0;
  sqlite3_prepare_v2(db, argv[2], -1, &q, 0);
  while (sqlite3_step(q) == SQLITE_ROW && n < 1000) strcpy(ids[n++], (const char *)sqlite3_column_text(q, 0));
  sqlite3_finalize(q);
  for (int k = 3; k < argc; k++) {
    sqlite3_stmt *st; if (sqlite3_prepare_v2(db, argv[k], -1, &st, 0)) { printf("%s\n", sqlite3_errmsg(db)); return 1; }
    int params = sqlite3_bind_parameter_count(st), rows = 0;
    struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
    for (int r = 0; r < 20; r++) for (int i = 0; i < n; i++) { for (int p = 1; p <= params; p++) sqlite3_bind_text(st, p, ids[i], -1, SQLITE_STATIC); if (sqlite3_step(st) == SQLITE_ROW) rows++; sqlite3_reset(st); }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double us = ((b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3) / (20.0 * n);
    printf("%5.1f us/lookup, rows %d/%d, reprepares %d: %.70s\n", us, rows, 20 * n, sqlite3_stmt_status(st, SQLITE_STMTSTATUS_REPREPARE, 0), argv[k]);
    sqlite3_finalize(st);
  }
  return 0;
}
