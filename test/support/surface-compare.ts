/**
 * The comparison of the two surfaces' answers to one case (TAnswer, surfaces.ts) in the generated
 * suites (access matrix, hostile input): how a tRPC answer differs from REST's (differences), the
 * endpoints compared by shape only (VOLATILE_DATA), and the failures gathered across a test's cases
 * (Findings).
 */
import * as assert from 'uvu/assert';
import { ERROR_STATUS } from '../../server/errors';
import { isRecord } from '../../server/infra/is-record';
import { brief, type TAnswer } from './surfaces';

/** The value as a REST client reads it from JSON (undefined fields gone, dates as strings). */
function asJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

/** The value with every leaf replaced by its type: what two answers of a volatile endpoint share. */
function dataShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dataShape);
  if (isRecord(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, dataShape(value[key])]),
    );
  return value === null ? 'null' : typeof value;
}

export interface TCompare {
  /** How successful answers' data compare: equal (default), by dataShape, or not at all. */
  data?: 'equal' | 'shape' | 'skip';
  /** Applied to both answers' data before comparing (e.g. to map the ids of each surface's own fixtures). */
  normalize?: (data: unknown) => unknown;
  /** Applied to both error messages before comparing (e.g. a message naming each surface's own fixture). */
  normalizeMessage?: (message: string | undefined) => string | undefined;
}

/**
 * How a tRPC answer differs from the REST answer to the same case, [] when it does not: the tRPC
 * format, the HTTP status, then for an error the code (ERROR_STATUS of the tRPC code is the envelope
 * code), the message and the error data (issues ...), for a result the data as REST's envelope has it.
 */
export function differences(rest: TAnswer, trpc: TAnswer, compare: TCompare = {}): string[] {
  if (trpc.malformed)
    return [`tRPC answer not in tRPC's format: ${trpc.malformed}; REST answered ${rest.status} ${brief(rest.text)}`];
  if (trpc.status !== rest.status)
    return [`tRPC ${trpc.status} ${brief(trpc.text)} but REST ${rest.status} ${brief(rest.text)}`];
  const found: string[] = [];
  const normalize = compare.normalize ?? ((data: unknown) => data);
  if ((rest.status ?? 0) >= 400) {
    const status = ERROR_STATUS[trpc.code as keyof typeof ERROR_STATUS];
    if (status !== rest.code)
      found.push(`tRPC error code ${trpc.code} (${status}) but REST envelope code ${rest.code}`);
    const message = compare.normalizeMessage ?? ((text: string | undefined) => text);
    if (message(trpc.message) !== message(rest.message))
      found.push(`tRPC message ${JSON.stringify(trpc.message)} but REST ${JSON.stringify(rest.message)}`);
    if (!sameJson(normalize(trpc.data), normalize(rest.data)))
      found.push(`tRPC error data ${brief(JSON.stringify(trpc.data))} but REST ${brief(JSON.stringify(rest.data))}`);
  } else if (compare.data !== 'skip') {
    const [left, right] = [normalize(asJson(trpc.data)), normalize(rest.data)].map((data) =>
      compare.data === 'shape' ? dataShape(data) : data,
    );
    if (!sameJson(left, right))
      found.push(`tRPC data ${brief(JSON.stringify(left))} but REST ${brief(JSON.stringify(right))}`);
  }
  return found;
}

function sameJson(trpcValue: unknown, restValue: unknown): boolean {
  // REST answers `{}` where the procedure returned nothing (envelopeBody).
  return JSON.stringify(asJson(trpcValue) ?? {}) === JSON.stringify(restValue ?? {});
}

/** A failure's label, or a function building it (only called for a failure: labels of huge inputs are costly). */
export type TLabel = string | (() => string);

/**
 * Failures gathered across a test's cases instead of ending it at the first: one run names every
 * case that fails, on either surface. `assertNone` fails the test if any was found.
 */
export class Findings {
  readonly list: string[] = [];

  /** Records the problems of one case, if any, as one line. A label may be given as a function, built only then. */
  add(label: TLabel, problems: string[] | string | undefined): void {
    const all = typeof problems === 'string' ? [problems] : (problems ?? []);
    if (all.length > 0) this.list.push(`${typeof label === 'string' ? label : label()}: ${all.join('; ')}`);
  }

  /** Records a failed condition. */
  expect(condition: boolean, label: TLabel, problem: string): void {
    if (!condition) this.add(label, problem);
  }

  assertNone(): void {
    const shown = this.list.slice(0, 60).map((line) => `  - ${line}`);
    const more = this.list.length > shown.length ? `\n  (+${this.list.length - shown.length} more)` : '';
    assert.ok(this.list.length === 0, `${this.list.length} failing case(s):\n${shown.join('\n')}${more}`);
  }
}

/** Endpoints whose data differs from one call to the next (a fresh challenge, the time, whether the cache served it): compared by shape. */
export const VOLATILE_DATA = new Set(['GET /captcha', 'GET /health', 'GET /drop/current']);
