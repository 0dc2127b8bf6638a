import { hash } from 'node:crypto';

/**
 * A weak ETag of a text: what the REST surface puts on every GET, and what a procedure may set itself.
 * `crypto.hash` (Node 20.12) is the one-shot form: half the cost of a Hash object for bodies this size.
 */
export function weakEtag(text: string): string {
  return `W/"${hash('sha1', text, 'base64url')}"`;
}
