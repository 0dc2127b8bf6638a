/**
 * The package as a front end gets it: packed with `npm pack`, installed into a fresh project with
 * nothing but its declared dependencies, type-checked by that project's own tsc. Used by
 * test/platform/client-package.test.ts and bench/client-typecheck.ts.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCommand, type TProcessResult } from '../../test/support/process';
import { CLIENT_DIR } from './build';

const ROOT = resolve(CLIENT_DIR, '../..');
/** npm pack (which builds) and npm install into a fresh project: generous, on a busy machine. */
const INSTALL_TIMEOUT_MS = 300_000;

/** How the consumer project type-checks: a front end's usual settings (bundler resolution, strict). */
export const CONSUMER_COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'ESNext',
  moduleResolution: 'Bundler',
  lib: ['ES2023', 'DOM'],
  types: ['node'],
  strict: true,
  skipLibCheck: true,
  noEmit: true,
};

async function mustRun(command: string, args: string[], cwd: string): Promise<void> {
  const result = await runCommand(command, args, { cwd, timeoutMs: INSTALL_TIMEOUT_MS });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
}

/** Builds and packs the package (its prepack script builds) into `destination`; returns the tarball's path. */
export async function packClient(destination: string): Promise<string> {
  await mustRun('npm', ['pack', CLIENT_DIR, '--pack-destination', destination], ROOT);
  const tarball = readdirSync(destination).find((file) => file.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${destination}`);
  return join(destination, tarball);
}

/** The version range the repository uses for a dev tool, so the npm cache already has it. */
function rootDevVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  return manifest.devDependencies[name];
}

/** A fresh project in `dir` with the tarball, typescript and @types/node installed. */
export async function createConsumerProject(dir: string, tarball: string): Promise<void> {
  const manifest = {
    name: 'tidewatch-client-consumer',
    private: true,
    type: 'module',
    dependencies: { '@tidewatch/client': `file:${tarball}` },
    devDependencies: { typescript: rootDevVersion('typescript'), '@types/node': rootDevVersion('@types/node') },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  await mustRun('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir);
}

/** Points the project's tsconfig at these files (relative to `dir`). */
function writeTsconfig(dir: string, files: string[]): void {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: CONSUMER_COMPILER_OPTIONS, files }, null, 2),
  );
}

/** `tsc -p .` in `dir` on these files, by default with the project's own tsc; status 0 when they type-check. */
export function typeCheck(
  dir: string,
  files: string[],
  tsc = join(dir, 'node_modules/typescript/bin/tsc'),
): Promise<TProcessResult> {
  writeTsconfig(dir, files);
  return runCommand(process.execPath, [tsc, '-p', '.'], { cwd: dir });
}
