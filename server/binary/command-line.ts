/**
 * The single executable's command line (docs/binary.md):
 *
 *   tidewatch [--config <file>]                      serves, as `npm start` does
 *   tidewatch [--config <file>] serve                the same
 *   tidewatch [--config <file>] <command> [options]  one CLI command, as `npm run cli -- <command>`
 *   tidewatch --version | --help
 *
 * The settings are the environment variables (server/config.ts); a --config file holds the same names,
 * one `NAME=value` a line, and the environment wins over it.
 */
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { ConfigError, ZConfig } from '../config';

export type TInvocation =
  | { kind: 'version' }
  | { kind: 'help' }
  | { kind: 'serve'; configFile?: string }
  | { kind: 'command'; argv: string[]; configFile?: string };

/** A mistake in the executable's own options: printed with the usage, exit code 2. */
export class CommandLineError extends Error {
  override name = 'CommandLineError';
}

/** Where the database is when DATABASE_URL is not set: beside the executable's working directory, as PocketBase keeps its data. */
export const BINARY_DATABASE_URL = 'file:./tidewatch.db';

export function usage(name: string): string {
  return `Usage: ${name} [--config <file>] [serve | <command> [options]]

  ${name}                    serves the API (migrates first; demo data on a new database outside production)
  ${name} <command>          runs one command: ${name} help lists them, ${name} <command> --help describes one
  ${name} --config <file>    reads settings from <file>: NAME=value lines, the environment variables' names;
                             a variable set in the environment wins over the file
  ${name} --version          prints the version, the git commit and the Node.js version inside

The database is DATABASE_URL, ${BINARY_DATABASE_URL} when unset. docs/binary.md has the rest.`;
}

/** Reads the executable's own options, which come before the command. */
export function parseCommandLine(args: string[]): TInvocation {
  let configFile: string | undefined;
  let at = 0;
  for (; at < args.length; at++) {
    const arg = args[at]!;
    if (arg === '--version' || arg === '-v') return { kind: 'version' };
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--config' || arg.startsWith('--config=')) {
      if (configFile !== undefined) throw new CommandLineError('--config is given twice');
      configFile = arg === '--config' ? args[++at] : arg.slice('--config='.length);
      if (!configFile) throw new CommandLineError('--config needs a file');
      continue;
    }
    if (arg.startsWith('-')) throw new CommandLineError(`unknown option ${arg}`);
    break;
  }
  const rest = args.slice(at);
  if (rest.length === 0 || (rest[0] === 'serve' && rest.length === 1)) return { kind: 'serve', configFile };
  if (rest[0] === 'serve') throw new CommandLineError(`serve takes no arguments (got ${rest.slice(1).join(' ')})`);
  return { kind: 'command', argv: rest, configFile };
}

/**
 * The settings of a --config file, checked: every name must be a setting, so that a misspelt one is an
 * error instead of a setting silently left at its default.
 */
export function readConfigFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `cannot read the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const settings = parseEnv(text);
  const unknown = Object.keys(settings).filter((name) => !(name in ZConfig.shape));
  if (unknown.length > 0) {
    throw new ConfigError(
      `the config file ${path} sets ${unknown.join(', ')}, which ${unknown.length === 1 ? 'is not a setting' : 'are not settings'} (the names are the environment variables of docs/configuration.md)`,
    );
  }
  return Object.fromEntries(
    Object.entries(settings).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** The file's settings under the environment's: a variable set (and not empty) in the environment is kept. */
export function applySettings(env: NodeJS.ProcessEnv, settings: Record<string, string>): void {
  for (const [name, value] of Object.entries(settings)) if (!env[name]) env[name] = value;
  env.DATABASE_URL ||= BINARY_DATABASE_URL;
}
