// `npm ci`'s postinstall: compiles better-sqlite3 only where none of its prebuilt binaries fits this platform.
//
// Why: better-sqlite3 ships prebuilt binaries and a binding.gyp, and npm gives a package with a binding.gyp an
// implicit `node-gyp rebuild` (its "gypfile": false is not in the lockfile, so `npm ci` does not see it).
// Where a prebuilt fits, that build compiles nothing, but node-gyp still needs python3 and make, so `npm ci`
// failed on a machine without a build toolchain. package.json's "allowScripts" denies that build (npm 11 with
// "allowScripts", 11.19 here; an older npm ignores the field, while `npm ci --ignore-scripts` skips it on any
// npm), and this script does what it would have done, only where it is needed: there python3, make and a
// C++ compiler are.
//
// Plain JavaScript with no dependency: it runs right after the install, on any supported Node.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const packageDir = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
const platform = `${process.platform}-${process.arch}`;

/** better-sqlite3's own test, the one its binding.gyp makes: prints 1 when a prebuilds/<platform>.node fits. */
function prebuiltFits() {
  return execFileSync(process.execPath, ['lib/binding.js'], { cwd: packageDir, encoding: 'utf8' }).trim() === '1';
}

if (existsSync(join(packageDir, 'build', 'Release', 'better_sqlite3.node'))) {
  console.log('better-sqlite3: compiled already');
} else if (prebuiltFits()) {
  console.log(`better-sqlite3: its prebuilt binary for ${platform} fits, nothing to compile`);
} else {
  // npm sets npm_config_node_gyp for every script it runs: the node-gyp it ships, the one its implicit build uses.
  const nodeGyp = process.env.npm_config_node_gyp;
  if (!nodeGyp) {
    console.error(
      `better-sqlite3 has no prebuilt binary for ${platform} and must be compiled: run \`npm run postinstall\` (it needs npm's node-gyp, python3, make and a C++ compiler)`,
    );
    process.exit(1);
  }
  console.log(
    `better-sqlite3: no prebuilt binary for ${platform}, compiling it (node-gyp: python3, make and a C++ compiler)`,
  );
  const build = spawnSync(process.execPath, [nodeGyp, 'rebuild', '--release'], { cwd: packageDir, stdio: 'inherit' });
  process.exit(build.status ?? 1);
}
