import { hash } from 'node:crypto';

/**
 * A weak ETag of a text: what the REST surface puts on every GET, and what a procedure may set itself.
 * `crypto.hash` (Node 20.12) is the one-shot form: half the cost of a Hash object for bodies this size.
 */
export function weakEtag(text: string): string {
  return `W/"${hash('sha1', text, 'base64url')}"`;
}

/**
 * Whether a list of entity tags as `If-None-Match` and `If-Match` carry them (`*`, or tags separated by
 * commas) names `etag`, by weak comparison: `W/"x"` and `"x"` are the same tag. RFC 9110 asks If-Match
 * for strong comparison, which no weak tag ever passes; ours are all weak (the item's leaves out the
 * view counter its body carries), so both conditions compare weakly, and If-Match is still exact about
 * what it guards: the tag changes with every other field of the answer (docs/assemblies.md).
 */
export function etagListMatches(list: string | undefined, etag: string): boolean {
  if (list === undefined) return false;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  return list.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === opaque;
  });
}
