import type { ServerResponse } from 'node:http';

/** A header's value as Node writes it. */
export type THeaderValue = string | number;

const HEAD = Symbol('tidewatch.responseHead');

/**
 * The headers of one response, gathered while the request is handled and written with its status in
 * one `writeHead(status, fields)`. Every answer carries about 22 headers (helmet's, CORS, the rate
 * limit, the request id, the body's); set one by one with `setHeader`, Node keeps them in an object of
 * [name, value] pairs and walks it again to write the head: about a fifth of the CPU of an answer
 * replayed from the cache (bench/README.md, issue 22). Node still checks every name and value as it
 * writes them.
 *
 * Names are lower case. Code that writes through Node's own API (tRPC's adapter, the cors package's
 * preflight answer) calls `applyTo(res)` first; headers set on `res` directly are kept by writeHead
 * too, but the gathered ones replace those of the same name.
 */
export class ResponseHead {
  private readonly list: THeaderValue[];

  /** `fields`: name, value, name, value, ... (copied). */
  constructor(fields: readonly THeaderValue[] = []) {
    this.list = fields.slice();
  }

  /** Sets a header, replacing one of the same name. */
  set(name: string, value: THeaderValue): void {
    const fields = this.list;
    for (let i = 0; i < fields.length; i += 2) {
      if (fields[i] === name) {
        fields[i + 1] = value;
        return;
      }
    }
    fields.push(name, value);
  }

  /** Sets each header of `headers`. */
  setAll(headers: Readonly<Record<string, THeaderValue>>): void {
    for (const name in headers) this.set(name, headers[name]!);
  }

  remove(name: string): void {
    const fields = this.list;
    for (let i = 0; i < fields.length; i += 2) {
      if (fields[i] === name) {
        fields.splice(i, 2);
        return;
      }
    }
  }

  /** The headers as set so far: name, value, name, value, ... */
  get fields(): readonly THeaderValue[] {
    return this.list;
  }

  get(name: string): THeaderValue | undefined {
    const fields = this.list;
    for (let i = 0; i < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
    return undefined;
  }

  /** Writes the status line and the headers, then ends the response with `body` (none: a 304, a HEAD answer). */
  send(res: ServerResponse, status: number, body?: string | Buffer): void {
    res.writeHead(status, this.list);
    res.end(body);
  }

  /** Hands the headers to `res` (setHeader), for code that then answers through Node's API itself. */
  applyTo(res: ServerResponse): void {
    const fields = this.list;
    for (let i = 0; i < fields.length; i += 2) res.setHeader(fields[i] as string, fields[i + 1]!);
    fields.length = 0;
  }
}

/** Starts the response's head (the app does, for each request, with the headers every answer carries). */
export function startResponseHead(res: ServerResponse, fields: readonly THeaderValue[]): ResponseHead {
  const head = new ResponseHead(fields);
  (res as ServerResponse & { [HEAD]?: ResponseHead })[HEAD] = head;
  return head;
}

/** The response's head: the one the app started, or an empty one (a handler served on its own, in tests). */
export function responseHeadOf(res: ServerResponse): ResponseHead {
  const holder = res as ServerResponse & { [HEAD]?: ResponseHead };
  holder[HEAD] ??= new ResponseHead();
  return holder[HEAD];
}
