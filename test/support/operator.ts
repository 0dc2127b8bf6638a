/** What the operator-safety suites share (test/platform/operator-safety*.test.ts): starting the server as a process, failed starts, captured logs. */
import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import type { TDatabase } from '../../db/client';
import { createLogger } from '../../server/logger';
import { TEST_DRIVER } from './helpers';
import { ROOT, startServerProcess, TSX_ARGS, type TServerProcess } from './process';

export const PRODUCTION_SECRET = 'a-production-payment-secret';

export function startProcess(env: Record<string, string>): Promise<TServerProcess> {
  return startServerProcess([...TSX_ARGS, 'server/main.ts'], {
    env: { PORT: '0', DATABASE_DRIVER: TEST_DRIVER ?? 'better-sqlite3', ...env },
  });
}

export async function stopProcess(server: TServerProcess): Promise<void> {
  assert.is(await server.stop('SIGTERM'), 0, server.output());
}

/** A start that must fail: its exit code and what it printed on stderr. */
export function failedStart(env: Record<string, string>, options: { uid?: number; gid?: number } = {}) {
  const result = spawnSync(process.execPath, [...TSX_ARGS, 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', SEED_DEMO: 'false', LOG_LEVEL: 'info', ...env },
    encoding: 'utf8',
    timeout: 60_000,
    ...options,
  });
  return { status: result.status, stderr: result.stderr.trim(), stdout: result.stdout };
}

export function assertOneLine(stderr: string): void {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));
  assert.is(lines.length, 1, `one line, got:\n${stderr}`);
  assert.match(lines[0]!, /^tidewatch failed to start: /);
  assert.not.match(stderr, /^\s+at /m, 'no stack');
}

/** Log lines written to an in-memory stream, parsed. */
export function captureLogs() {
  const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger('info', stream), lines };
}

export async function tableCounts(database: TDatabase): Promise<Record<string, number>> {
  const tables = await database.db.all<{ name: string }>(
    sql`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '%fts%' order by name`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    counts[name] = (await database.db.get<{ n: number }>(sql.raw(`select count(*) as n from "${name}"`)))!.n;
  }
  return counts;
}
