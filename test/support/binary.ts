/**
 * The single executable under test (test/platform/binary.test.ts): built once into a temporary directory,
 * and run as a self-hoster runs it, with nothing from this machine's environment (`env -i`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBinary } from '../../scripts/build-binary';
import type { TProcessResult } from './process';

export interface TBuiltBinary {
  file: string;
  bytes: number;
  sha256: string;
}

/** Why the executable cannot be built on this machine (outside CI, which must build it), or undefined. */
export function binaryBuildProblem(): string | undefined {
  const missing =
    process.platform !== 'linux'
      ? `it is built on Linux only, this is ${process.platform}`
      : spawnSync('strip', ['--version']).error
        ? 'no strip on this machine (binutils)'
        : undefined;
  return process.env.CI ? undefined : missing;
}

/** Builds the executable, or says why it cannot be built here (outside CI, which must build it). */
export async function buildTestBinary(outdir: string): Promise<TBuiltBinary | string> {
  const missing = binaryBuildProblem();
  if (missing) return missing;
  try {
    return await buildBinary(outdir);
  } catch (error) {
    // Node 26 comes from the npm registry (scripts/fetch-node.sh): offline, there is none.
    if (process.env.CI) throw error;
    return `npm run build:binary failed: ${(error as Error).message.split('\n')[0]}`;
  }
}

/**
 * `env -i` with only these variables: PATH an empty directory (no node, npm, python3, make or cc) and
 * HOME a fresh one, plus `extra`.
 */
export function bareEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: mkdtempSync(join(tmpdir(), 'tidewatch-bare-path-')),
    HOME: mkdtempSync(join(tmpdir(), 'tidewatch-home-')),
    ...extra,
  };
}

export interface TRunOptions {
  cwd: string;
  env: Record<string, string>;
  /** Run as this user and group (the test runs as root in CI). */
  uid?: number;
  gid?: number;
}

/** Runs the executable to its end (killed after a minute). */
export function runBinary(binary: string, args: string[], options: TRunOptions): Promise<TProcessResult> {
  const { cwd, env, uid, gid } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd, env, uid, gid, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

export interface TRunningBinary {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the executable and resolves once it logs the URL it listens on (LOG_LEVEL info). */
export function startBinary(binary: string, args: string[], options: TRunOptions): Promise<TRunningBinary> {
  const child = spawn(binary, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the executable did not start:\n${output}`));
    }, 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({ child, url, output: () => output, exited });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the executable exited with ${code} before listening:\n${output}`));
    });
  });
}
