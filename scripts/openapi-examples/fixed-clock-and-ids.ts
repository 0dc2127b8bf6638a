/**
 * The recording's clock and randomness, fixed so that recording twice writes the same file: a
 * regeneration of server/openapi-examples.json then shows only what really changed. Fixed in the
 * recorder's own process, before the server's modules load (some read the clock when they load: the
 * health check's start).
 *
 * - The clock (`Date.now`, which the test server's clock reads) starts at RECORDED_AT and moves only
 *   when the recorder moves it: a second before each recorded call.
 * - Every random value (node:crypto's randomUUID, randomBytes and randomInt, Web Crypto's
 *   getRandomValues and randomUUID, Math.random) comes from one seeded generator, so ids, tokens,
 *   captcha challenges and pictures come out the same, in the same order.
 * - Arrays sort with one algorithm on every Node.js line (stableSort): V8 calls the comparator in an
 *   order that differs between lines, and a comparator that shuffles (svg-captcha's captcha picture,
 *   the demo's war hotspots: `sort(() => random() - 0.5)`) then gives another order on each.
 */
import crypto from 'node:crypto';
import nodeModule from 'node:module';
import { random } from '../../server/seed/random';

/** When the recording happens: the demo data is generated around it. */
const RECORDED_AT = Date.parse('2026-05-01T12:00:00.000Z');
const SEED = 33;

let clockMs = RECORDED_AT;

export function advanceClock(ms: number): void {
  clockMs += ms;
}

/** `a` before `b` as Array.prototype.sort puts them without a comparator: undefined last, the others as strings. */
function defaultOrder(a: unknown, b: unknown): number {
  if (a === undefined || b === undefined) return a === undefined ? (b === undefined ? 0 : 1) : -1;
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Array.prototype.sort as a stable merge sort: the same result on every line, for any comparator. */
function stableSort<T>(this: T[], compare: (a: T, b: T) => number = defaultOrder): T[] {
  const merge = (items: T[]): T[] => {
    if (items.length < 2) return items;
    const middle = items.length >> 1;
    const [left, right] = [merge(items.slice(0, middle)), merge(items.slice(middle))];
    const merged: T[] = [];
    let [l, r] = [0, 0];
    while (l < left.length && r < right.length)
      merged.push(compare(right[r]!, left[l]!) < 0 ? right[r++]! : left[l++]!);
    return merged.concat(left.slice(l), right.slice(r));
  };
  merge([...this]).forEach((item, index) => {
    this[index] = item;
  });
  return this;
}

export function fixClockAndIds(): void {
  const next = random(SEED);
  const fill = <T extends ArrayBufferView | null>(view: T): T => {
    if (view === null) return view;
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    for (let index = 0; index < bytes.length; index++) bytes[index] = Math.floor(next() * 256);
    return view;
  };
  const uuid = () => {
    const hex = fill(Buffer.alloc(16));
    hex[6] = (hex[6]! & 0x0f) | 0x40;
    hex[8] = (hex[8]! & 0x3f) | 0x80;
    const text = hex.toString('hex');
    return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}` as const;
  };
  /** Answers as node:crypto does: returned, or given to a callback when the last argument is one. */
  const answer = <T>(value: T, args: unknown[]) => {
    const callback = args.at(-1);
    if (typeof callback !== 'function') return value;
    process.nextTick(callback as (error: null, result: T) => void, null, value);
    return undefined;
  };

  Date.now = () => clockMs;
  Math.random = next;
  Array.prototype.sort = stableSort as typeof Array.prototype.sort;
  crypto.randomUUID = uuid;
  crypto.randomBytes = ((size: number, ...rest: unknown[]) =>
    answer(fill(Buffer.alloc(size)), rest)) as typeof crypto.randomBytes;
  crypto.randomInt = ((...args: unknown[]) => {
    const [min, max] = typeof args[1] === 'number' ? [args[0] as number, args[1]] : [0, args[0] as number];
    return answer(min + Math.floor(next() * (max - min)), args);
  }) as typeof crypto.randomInt;
  Object.defineProperty(globalThis.crypto, 'getRandomValues', { value: fill });
  Object.defineProperty(globalThis.crypto, 'randomUUID', { value: uuid });
  // `import { randomUUID } from 'node:crypto'` reads these from now on.
  nodeModule.syncBuiltinESMExports();
}
