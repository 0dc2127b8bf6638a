import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';

/** Debian's chromium (installed by .ci/run), or CHROMIUM_PATH. */
function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, 'chromium', 'chromium-browser', 'google-chrome'].filter(
    Boolean,
  ) as string[];
  return candidates.find((name) => spawnSync(name, ['--version'], { stdio: 'ignore', timeout: 20_000 }).status === 0);
}

/** One headless run that both screenshots the page and prints its DOM after the scripts ran. */
function renderPage(
  chromium: string,
  url: string,
  screenshot: string,
  profile: string,
): Promise<{ status: number | null; dom: string; log: string }> {
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${profile}`,
    // Virtual time runs until the page is idle (Swagger UI fetches /api/openapi.json, then renders).
    '--virtual-time-budget=15000',
    '--window-size=1280,2400',
    `--screenshot=${screenshot}`,
    '--dump-dom',
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(chromium, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let dom = '';
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (dom += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, dom, log });
    });
  });
}

const chromium = findChromium();
const Docs = suite<{ app: TTestServer; dir: string }>('/api/docs renders in headless Chromium');

Docs.before(async (context) => {
  context.app = await startTestServer();
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-docs-'));
});
Docs.after(async (context) => {
  await context.app.stop();
  rmSync(context.dir, { recursive: true, force: true });
});

const name = 'the page lists every endpoint of the OpenAPI document, and a screenshot is taken';
if (!chromium && !process.env.CI) {
  console.log(
    '  skipped: no chromium on this machine (apt-get install chromium, or set CHROMIUM_PATH); CI installs it',
  );
  Docs.skip(name, () => {});
} else {
  Docs(name, async ({ app, dir }) => {
    assert.ok(chromium, 'CI must have chromium: .ci/run installs it');
    const document = (await (await fetch(`${app.url}/api/openapi.json`)).json()) as { paths: Record<string, object> };
    const screenshot = join(dir, 'docs.png');
    const { status, dom, log } = await renderPage(chromium, `${app.url}/api/docs`, screenshot, join(dir, 'profile'));
    assert.is(status, 0, log.slice(-2000));

    assert.match(dom, /<title>Tidewatch API reference<\/title>/);
    assert.match(dom, /Tidewatch API/);
    const listed = new Set(
      [...dom.matchAll(/class="opblock-summary-path" data-path="([^"]+)"/g)].map((match) =>
        match[1]!.replace(/&amp;/g, '&'),
      ),
    );
    const documented = Object.keys(document.paths);
    assert.ok(documented.length >= 20);
    for (const path of documented) assert.ok(listed.has(path), `the page lists ${path}`);
    assert.is(listed.size, documented.length);
    assert.match(dom, /opblock-get/);
    assert.match(dom, /authorize/i, 'the bearer scheme gives an Authorize button');

    const png = readFileSync(screenshot);
    assert.equal([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');
    assert.equal([png.readUInt32BE(16), png.readUInt32BE(20)], [1280, 2400], 'of the window size');
    // A blank page compresses to a few kilobytes; the rendered reference is far larger.
    assert.ok(png.length > 50_000, `screenshot of ${png.length} bytes`);
  });
}

Docs.run();
