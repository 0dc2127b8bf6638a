import { hash } from 'node:crypto';

/**
 * A weak ETag of a text: what the REST surface puts on every GET, and what a procedure may set itself.
 * `crypto.hash` (Node 20.12) is the one-shot form: half the cost of a Hash object for bodies this size.
 */
export function weakEtag(text: string): string {
  return `W/"${hash('sha1', text, 'base64url')}"`;
}

const ANSWER_JSON = new WeakMap<object, string>();

/**
 * The JSON text of an answer's data, kept with the object so that its ETag and the REST envelope
 * (`envelopeBody`) serialise it once. Only for an answer built for one call: it must not change
 * afterwards, and it lives as long as the object does.
 */
export function jsonOfAnswer(data: object): string {
  let json = ANSWER_JSON.get(data);
  if (json === undefined) {
    json = JSON.stringify(data);
    ANSWER_JSON.set(data, json);
  }
  return json;
}

/** The JSON text `jsonOfAnswer` made of `data`, if it made one. */
export function madeAnswerJson(data: unknown): string | undefined {
  return typeof data === 'object' && data !== null ? ANSWER_JSON.get(data) : undefined;
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
