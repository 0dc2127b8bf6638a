// The body of a `meta.streamed` route (server/trpc.ts): a TStreamedAnswer's chunks, written as they come.
import type { ServerResponse } from 'node:http';
import { responseHeadOf } from '../http/response-head';
import type { TStreamedAnswer } from '../schemas';

/** Resolves when the socket takes more (drain) or is gone (close). */
function writable(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes the answer's chunks as the body, each once the socket has taken the one before, so a slow
 * reader holds back the reading of rows rather than the whole text piling up. The first chunk is read
 * before the head is sent: an error until then is the envelope's (thrown to the caller). An error
 * after it is thrown too, and the caller cuts the response (no Content-Length: the client sees a
 * body that did not end). A HEAD request, or a client that goes away, stops the reading.
 */
export async function sendStream(
  res: ServerResponse,
  method: string,
  answer: TStreamedAnswer,
  headers: Record<string, string>,
): Promise<void> {
  const chunks = answer.chunks[Symbol.asyncIterator]();
  try {
    let next = await chunks.next();
    const head = responseHeadOf(res);
    head.setAll({
      ...headers,
      'content-type': answer.contentType,
      'content-disposition': `attachment; filename="${answer.filename}"`,
      'cache-control': 'no-store',
    });
    if (method === 'HEAD') {
      head.send(res, 200);
      return;
    }
    res.writeHead(200, head.fields as (string | number)[]);
    while (!next.done && !res.destroyed) {
      if (!res.write(next.value)) await writable(res);
      next = await chunks.next();
    }
    res.end();
  } finally {
    await chunks.return?.();
  }
}
