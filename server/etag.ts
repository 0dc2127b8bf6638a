import { createHash } from 'node:crypto';

/** A weak ETag of a text: what the REST surface puts on every GET, and what a procedure may set itself. */
export function weakEtag(text: string): string {
  return `W/"${createHash('sha1').update(text).digest('base64url')}"`;
}
