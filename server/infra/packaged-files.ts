/**
 * Files the server reads from its dependencies at run time. Inside the single executable they are its
 * SEA assets, each under `<package>/<file>` (scripts/build-binary.ts stores every one listed here);
 * elsewhere, the file in the installed package. A file not listed is refused everywhere, so that a file
 * added to the server without being listed fails its tests, not only the executable.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getAsset, isSea } from 'node:sea';

export const PACKAGED_FILES: Record<string, readonly string[]> = {
  /** The API reference's page (server/docs.ts). */
  'swagger-ui-dist': ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png'],
  /** The captcha picture's font, which svg-captcha reads beside its code when it loads (scripts/build-binary.ts). */
  'svg-captcha': ['fonts/Comismsh.ttf'],
};

export function packagedFile(packageName: string, file: string): Buffer {
  if (!PACKAGED_FILES[packageName]?.includes(file))
    throw new Error(`${packageName}/${file} is not in PACKAGED_FILES (server/infra/packaged-files.ts)`);
  if (isSea()) return Buffer.from(getAsset(`${packageName}/${file}`));
  const dir = dirname(createRequire(import.meta.url).resolve(`${packageName}/package.json`));
  return readFileSync(join(dir, file));
}
