import type { ServerResponse } from 'node:http';
import { responseHeadOf } from './http/response-head';
import { packagedFile } from './infra/packaged-files';

/**
 * The files served from swagger-ui-dist, by name. A Map, not an object literal: the name comes from
 * the URL, and `/api/docs/constructor` (or `__proto__`, `toString`) would otherwise find
 * Object.prototype's members and try to read a file of that name.
 */
const ASSETS = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'text/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

/**
 * Whether `pathname` is one this module serves (the page, its script, the assets). Only these are
 * outside the global rate limit: any other path under /api/docs is an ordinary 404 and counts.
 */
export function isDocsPath(pathname: string): boolean {
  if (!pathname.startsWith('/api/docs')) return false;
  const rest = pathname.slice('/api/docs'.length);
  return rest === '' || rest === '/' || rest === '/init.js' || (rest.startsWith('/') && ASSETS.has(rest.slice(1)));
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Tidewatch API reference</title>
  <link rel="stylesheet" href="/api/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/swagger-ui-bundle.js"></script>
  <script src="/api/docs/swagger-ui-standalone-preset.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout'
});
`;

const cache = new Map<string, Buffer>();

/** Serves the interactive reference (Swagger UI from the swagger-ui-dist package: no CDN). Returns false if `rest` is not a docs path. */
export function serveDocs(res: ServerResponse, rest: string): boolean {
  let body: Buffer | string;
  let type: string;
  if (rest === '' || rest === '/') {
    body = PAGE;
    type = 'text/html; charset=utf-8';
  } else if (rest === '/init.js') {
    body = INIT;
    type = 'text/javascript; charset=utf-8';
  } else {
    const name = rest.slice(1);
    const assetType = ASSETS.get(name);
    if (assetType === undefined) return false;
    type = assetType;
    body = cache.get(name) ?? packagedFile('swagger-ui-dist', name);
    cache.set(name, body);
  }
  const head = responseHeadOf(res);
  head.setAll({ 'content-type': type, 'cache-control': 'public, max-age=3600' });
  head.send(res, 200, body);
  return true;
}
