import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { BUSY_TIMEOUT_MS, openDatabase, type TDatabase } from '../../db/client';
import { DatabaseLockBusyError, holdSharedLock, type TDatabaseLock } from '../../db/lock';
import { AppError } from '../errors';
import { loadConfig, type TConfig } from '../config';
import type { TProgressListener } from '../deps';
import { fillNameSkeletons } from '../domains/user/names';
import { cliInvocation } from './invocation';
import { createProgressReporter } from './progress';

/** One CLI command. Each lives in its own file under server/cli/ and is listed in server/cli/main.ts. */
export interface TCommand {
  name: string;
  usage: string;
  description: string;
  options?: ParseArgsConfig['options'];
  run(context: TCommandContext): Promise<void>;
}

export interface TCommandContext {
  positionals: string[];
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  config: TConfig;
  /** Opens (and migrates) the configured database; closed by the runner afterwards. */
  database(): Promise<TDatabase>;
  print(line: string): void;
  /** Progress of a long operation, for the services that take one (server/cli/progress.ts): on stderr. */
  progress: TProgressListener;
}

/** A mistake in the command line: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Reads and parses a JSON file named on the command line; an unreadable or malformed file is a usage error. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

export async function runCommand(command: TCommand, argv: string[], print: (line: string) => void): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { ...command.options, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    print(`Usage: ${cliInvocation()} ${command.usage}\n\n${command.description}`);
    return;
  }
  let opened: TDatabase | undefined;
  let lock: TDatabaseLock | undefined;
  const config = loadConfig();
  const progress = createProgressReporter();
  let failed = true;
  try {
    await command.run({
      positionals,
      values,
      config,
      async database() {
        if (!opened) {
          // With an embedded replica configured, a command works on the primary itself: the
          // instances' replicas pick its writes up within DATABASE_SYNC_INTERVAL_S.
          opened = config.DATABASE_SYNC_URL
            ? openDatabase(config.DATABASE_SYNC_URL, {
                driver: 'libsql',
                authToken: config.DATABASE_AUTH_TOKEN,
                timeoutMs: config.DATABASE_TIMEOUT_MS,
              })
            : openDatabase(config.DATABASE_URL, {
                driver: config.DATABASE_DRIVER,
                authToken: config.DATABASE_AUTH_TOKEN,
                timeoutMs: config.DATABASE_TIMEOUT_MS,
              });
          // Held like a server's (db/lock.ts): `restore` refuses to replace the file under a running command.
          if (!opened.remote && opened.file !== ':memory:') {
            try {
              lock = holdSharedLock(opened.file, BUSY_TIMEOUT_MS);
            } catch (error) {
              if (error instanceof DatabaseLockBusyError) throw new AppError('CONFLICT', error.message);
              throw error;
            }
          }
          await opened.migrate();
          await fillNameSkeletons(opened.db);
        }
        return opened;
      },
      print,
      progress: progress.listener,
    });
    failed = false;
  } finally {
    progress.finish(failed);
    opened?.close();
    lock?.release();
  }
}
