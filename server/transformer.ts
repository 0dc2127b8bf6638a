import superjson, { type SuperJSONResult } from 'superjson';
import { AppError } from './errors';
import { isRecord } from './infra/is-record';

/**
 * True when `value` is what JSON carries unchanged and superjson would not annotate: strings,
 * booleans, null, finite numbers other than -0, and arrays and plain objects of those, each object
 * reached once (superjson records an object met twice, to restore the shared reference). Anything
 * else (undefined, Date, Map, BigInt, NaN, class instances, sparse arrays) is false. Walked with a
 * stack of its own: an answer nested thousands of levels deep (an assembly stored before inputs were
 * held to MAX_JSON_DEPTH) is plain JSON too, and superjson's recursive walk would run out of stack on it.
 */
function isPlainJson(root: unknown): boolean {
  const seen = new Set<object>();
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    switch (typeof value) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        if (!Number.isFinite(value) || Object.is(value, -0)) return false;
        continue;
      case 'object': {
        if (value === null) continue;
        if (seen.has(value)) return false;
        seen.add(value);
        if (Array.isArray(value)) {
          for (let index = 0; index < value.length; index++) {
            if (!(index in value)) return false;
            pending.push(value[index]);
          }
          continue;
        }
        const prototype = Object.getPrototypeOf(value);
        if (prototype !== Object.prototype && prototype !== null) return false;
        for (const key in value) pending.push((value as Record<string, unknown>)[key]);
        continue;
      }
      default:
        return false;
    }
  }
  return true;
}

/**
 * The annotations an input may carry, with the JSON value superjson writes for each. Inputs are JSON
 * (every input schema is made of strings, numbers, booleans, arrays and objects); superjson annotates
 * only what JSON cannot say: an `undefined` field and the numbers NaN, ±Infinity and -0. Every other
 * type it knows (Date, bigint, Map, Set, RegExp, Error, URL, typed arrays, registered classes,
 * symbols, custom types) makes a value no input schema accepts, or one that slips through a
 * `z.unknown()` field of an import and breaks later (a bigint in JSON.stringify): refused up front.
 */
const INPUT_ANNOTATIONS: Record<string, (value: unknown) => boolean> = {
  undefined: (value) => value === null,
  number: (value) => value === 'NaN' || value === 'Infinity' || value === '-Infinity' || value === '-0',
};

const INPUT_SHAPE = 'input must be an object {json, meta?} as superjson writes it';
/** Path segments superjson refuses to walk (a prototype pollution guard): named in our words before it throws. */
const REFUSED_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/** A JSON value in a message: a string (cut short), number, boolean or null as written, else its kind (it may be nested deeper than JSON.stringify reaches). */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (Array.isArray(value)) return 'an array';
  return isRecord(value) ? 'an object' : String(value);
}

function refuse(message: string): AppError {
  return new AppError('BAD_REQUEST', message);
}

/** `input.meta.values["key"]`, with a long key cut short. */
function annotationName(key: string | null): string {
  if (key === null) return 'input.meta.values';
  return `input.meta.values[${JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}...` : key)}]`;
}

/**
 * The segments of an annotation's key, as superjson reads them: `.` separates, `\.` is a dot and
 * `\\` a backslash. Any other backslash is itself in a `legacy` key (meta without `v`, as superjson 1
 * writes it) and makes a key of superjson 2 invalid (null).
 */
function pathSegments(key: string, legacy: boolean): string[] | null {
  const segments: string[] = [];
  let segment = '';
  for (let index = 0; index < key.length; index++) {
    const char = key[index]!;
    if (char === '.') {
      segments.push(segment);
      segment = '';
    } else if (char === '\\' && key[index + 1] === '.') {
      segment += '.';
      index++;
    } else if (char === '\\' && !legacy) {
      if (key[index + 1] !== '\\') return null;
      segment += '\\';
      index++;
    } else {
      segment += char;
    }
  }
  segments.push(segment);
  return segments;
}

const MISSING = Symbol('missing');

/** The value of `json` at `segments` (own keys of objects, canonical indexes of arrays), or MISSING. */
function valueAt(json: unknown, segments: readonly string[]): unknown {
  let current = json;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d{0,8})$/.test(segment) || Number(segment) >= current.length) return MISSING;
      current = current[Number(segment)];
    } else if (isRecord(current) && Object.hasOwn(current, segment)) {
      current = current[segment];
    } else {
      return MISSING;
    }
  }
  return current;
}

/**
 * Checks one annotation (`key` null: the root's) against `json`: an array `[type]` of an accepted
 * type, at a place of `json` that holds what superjson writes for that type. Accepted types are
 * leaves, so an annotation with parts (`[type, {...}]`) is refused before anything walks them.
 */
function checkAnnotation(json: unknown, key: string | null, annotation: unknown, legacy: boolean): void {
  const name = annotationName(key);
  if (!Array.isArray(annotation) || annotation.length === 0) {
    throw refuse(`${name} must be an array such as ["undefined"], not ${shown(annotation)}`);
  }
  const [type, parts] = annotation as unknown[];
  if (typeof type !== 'string' || !Object.hasOwn(INPUT_ANNOTATIONS, type)) {
    const what = Array.isArray(type) ? `[${shown(type[0])}, ...]` : shown(type);
    throw refuse(
      `${name}: ${what} is not a type of input; inputs are JSON, and the only annotations read are "undefined" and "number" (NaN, Infinity, -0)`,
    );
  }
  if (annotation.length > 1 || parts !== undefined)
    throw refuse(`${name}: a value of type "${type}" has no parts to annotate`);
  const segments = key === null ? [] : pathSegments(key, legacy);
  if (segments === null)
    throw refuse(`${name} is not a path: a backslash must be followed by "." or another backslash`);
  const refused = segments.find((segment) => REFUSED_SEGMENTS.has(segment));
  if (refused !== undefined) throw refuse(`${name} walks into "${refused}", which superjson refuses`);
  const value = valueAt(json, segments);
  if (value === MISSING) throw refuse(`${name} names no value of input.json`);
  if (!INPUT_ANNOTATIONS[type]!(value)) {
    throw refuse(
      `${name} says "${type}", but input.json holds ${shown(value)} there, not what superjson writes for it`,
    );
  }
}

function isStringArray(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** `referentialEqualities` as superjson writes it: `{ path: [paths] }`, or `[[paths]]` / `[[paths], { path: [paths] }]` for the root. */
function isEqualities(value: unknown): boolean {
  const isPathLists = (lists: unknown) => isRecord(lists) && Object.values(lists).every(isStringArray);
  if (isRecord(value)) return isPathLists(value);
  return (
    Array.isArray(value) &&
    (value.length === 1 || value.length === 2) &&
    isStringArray(value[0]) &&
    (value.length === 1 || isPathLists(value[1]))
  );
}

/**
 * Reads a call's input as superjson wrote it, after checking its shape: `{ json, meta? }`, `meta`
 * with `values` (annotations of accepted types at places `json` has, see INPUT_ANNOTATIONS),
 * `referentialEqualities` and `v`. superjson recurses on `meta.values` unchecked (a string where it
 * expects an array recurses until the stack overflows) and throws JavaScript's own errors; anything
 * it would trip on is a 400 here, in the input's terms. The walk is flat: one pass over the
 * annotations, each checked against `json` by its path, so the cost grows with the input's length only.
 *
 * Shared references (`referentialEqualities`) are checked for shape and not restored: superjson writes
 * a full copy at each place (unless a client opts into `dedupe`), and restoring them would let a few
 * bytes of annotations place one large subtree at many places, or make a cycle.
 */
export function deserializeInput(payload: unknown): unknown {
  if (!isRecord(payload)) throw refuse(`${INPUT_SHAPE}, not ${shown(payload)}`);
  const unexpected = Object.keys(payload).find((key) => key !== 'json' && key !== 'meta');
  if (unexpected !== undefined) throw refuse(`${INPUT_SHAPE}; ${shown(unexpected)} is not one of its keys`);
  const { json, meta } = payload;
  // `json` came from JSON.parse: the JSONValue superjson's type asks for.
  if (meta === undefined) return superjson.deserialize({ json } as SuperJSONResult);
  if (!isRecord(meta))
    throw refuse('input.meta must be an object {"values", "referentialEqualities", "v"} as superjson writes it');
  const unexpectedMeta = Object.keys(meta).find(
    (key) => key !== 'values' && key !== 'referentialEqualities' && key !== 'v',
  );
  if (unexpectedMeta !== undefined)
    throw refuse(
      `input.meta: ${shown(unexpectedMeta)} is not one of its keys ("values", "referentialEqualities", "v")`,
    );
  if (meta.v !== undefined && meta.v !== 1)
    throw refuse('input.meta.v must be 1 (or left out, as superjson 1 writes it)');
  if (meta.referentialEqualities !== undefined && !isEqualities(meta.referentialEqualities)) {
    throw refuse('input.meta.referentialEqualities must map paths to arrays of paths, as superjson writes it');
  }
  const { values } = meta;
  const legacy = meta.v === undefined;
  if (Array.isArray(values)) checkAnnotation(json, null, values, legacy);
  else if (isRecord(values)) for (const key of Object.keys(values)) checkAnnotation(json, key, values[key], legacy);
  else if (values !== undefined)
    throw refuse('input.meta.values must be an array or an object of annotations, as superjson writes it');
  return superjson.deserialize({ json, meta: { values, v: meta.v } } as SuperJSONResult);
}

/**
 * The tRPC transformer: superjson on the wire, as clients expect (`transformer: superjson` in their
 * links). Inputs are read by deserializeInput, for the native handler's fast path and tRPC's adapter
 * alike. Answers have a fast path: every output schema is made of strings, numbers, booleans,
 * arrays and objects, and superjson serialises such a value to exactly `{ json: value }` after
 * walking and copying all of it (about 200 µs for a /drop/current answer, a quarter of a native
 * tRPC call). A value that is plain JSON is sent as `{ json: value }` without the walk; anything else
 * still goes through superjson.
 */
export const transformer = {
  input: {
    serialize: superjson.serialize.bind(superjson),
    deserialize: deserializeInput,
  },
  output: {
    serialize: (value: unknown) => (isPlainJson(value) ? { json: value } : superjson.serialize(value)),
    deserialize: superjson.deserialize.bind(superjson),
  },
};
