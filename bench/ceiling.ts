/**
 * The ceiling baseline: bare node:http answering each benchmarked path with a precomputed JSON body
 * of the same bytes our REST surface returned for it. No parsing, no database, no routing beyond a
 * Map lookup: nothing a real service could beat on this machine.
 *
 *   node --import tsx bench/ceiling.ts <payloads.json> <port>
 *
 * payloads.json maps a pathname (`/api/assembly/list`) to the body text.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [file, port] = process.argv.slice(2);
if (!file) throw new Error('usage: bench/ceiling.ts <payloads.json> <port>');
const payloads = new Map(
  Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>).map(([path, body]) => [
    path,
    Buffer.from(body),
  ]),
);
const missing = Buffer.from('{"code":404,"message":"not found","data":{}}');

createServer((req, res) => {
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  const body = payloads.get(mark === -1 ? url : url.slice(0, mark));
  // Drain request bodies (sign-in) so keep-alive connections stay usable.
  req.resume();
  req.on('end', () => {
    res.writeHead(body ? 200 : 404, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': (body ?? missing).length,
    });
    res.end(body ?? missing);
  });
}).listen(Number(port ?? 3102), '127.0.0.1', () => console.log(`ceiling listening on ${port ?? 3102}`));
