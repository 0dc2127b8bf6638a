import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
/** How `npm start` runs TypeScript: one node process with the tsx loader, so signals reach our handlers. */
export const TSX_ARGS = ['--import', 'tsx'];

interface TSpawnOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Start from this process's environment (default) or from PATH alone. */
  inheritEnv?: boolean;
  timeoutMs?: number;
}

function environment(options: TSpawnOptions): NodeJS.ProcessEnv {
  const base = options.inheritEnv === false ? { PATH: process.env.PATH ?? '' } : process.env;
  return { ...base, ...options.env };
}

export interface TProcessResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to completion without blocking this process (a server under test may live in it); past
 * the timeout it is killed, with `processGroup` together with every process it started.
 */
export function runCommand(
  command: string,
  args: string[],
  options: TSpawnOptions & { processGroup?: boolean } = {},
): Promise<TProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: environment(options),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.processGroup === true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const kill = () => {
      if (options.processGroup) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
          return;
        } catch {
          // The group is gone already: the child itself, below.
        }
      }
      child.kill('SIGKILL');
    };
    const timer = setTimeout(kill, options.timeoutMs ?? 120_000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** Runs `node <args>` to completion (runCommand with this process's Node). */
export function runNode(args: string[], options: TSpawnOptions = {}): Promise<TProcessResult> {
  return runCommand(process.execPath, args, options);
}

export interface TServerProcess {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  output: () => string;
  /** Sends the signal and waits for the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/** Starts a server (`node <args>`) and resolves once it logs its "listening" line with the URL (LOG_LEVEL info). */
export function startServerProcess(args: string[], options: TSpawnOptions = {}): Promise<TServerProcess> {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? ROOT,
    env: { LOG_LEVEL: 'info', ...environment(options) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let started = false;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    // A server that has not started in time is ended: no caller's clean-up knows of it.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, options.timeoutMs ?? 90_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = started ? null : /"url":"(http:\/\/[^"]+)"/.exec(output);
      if (!match) return;
      started = true;
      clearTimeout(timer);
      resolve({
        child,
        url: match[1]!,
        exited,
        output: () => output,
        stop: async (signal = 'SIGTERM') => {
          child.kill(signal);
          return exited;
        },
      });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}
