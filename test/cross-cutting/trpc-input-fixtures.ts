// Shared helpers of the tRPC input suites (trpc-input*.test.ts, issue 31): the links of the real
// @trpc/client, and how a refusal is read and checked to be a plain 400 in the input's terms.
import { httpBatchLink, httpBatchStreamLink, httpLink, TRPCClientError } from '@trpc/client';
import * as assert from 'uvu/assert';

/** JavaScript's messages that used to reach clients. */
const JS_INTERNAL =
  /Maximum call stack|Cannot destructure|Cannot read|is not a function|is not iterable|Unknown transformation/;

export const LINKS = { httpLink, httpBatchLink, httpBatchStreamLink } as const;
export type TLinkName = keyof typeof LINKS;
export const FAST_PATH: TLinkName[] = ['httpLink', 'httpBatchLink'];

/** The call's error, or status 200 when it was answered. */
export async function refusal(call: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await call;
    return { status: 200, code: 'OK', message: 'answered' };
  } catch (error) {
    if (error instanceof TRPCClientError)
      return { status: error.data?.httpStatus, code: error.data?.code, message: error.message };
    throw error;
  }
}

/** What is wrong with an answer that must be a plain 400 whose message matches `expected`, or undefined. */
export function plain400Problem(
  answer: { status: number; code?: string; message: string },
  expected: RegExp,
): string | undefined {
  const wrong =
    answer.status !== 400 ||
    (answer.code !== undefined && answer.code !== 'BAD_REQUEST') ||
    !expected.test(answer.message) ||
    JS_INTERNAL.test(answer.message);
  return wrong ? `${answer.status} ${answer.code ?? ''} ${JSON.stringify(answer.message)}` : undefined;
}

export function assertPlain400(
  answer: { status: number; code?: string; message: string },
  expected: RegExp,
  label: string,
): void {
  const problem = plain400Problem(answer, expected);
  assert.ok(problem === undefined, `${label}: ${problem}`);
}

/** The error of a raw request's answer: a JSON body, or the first error of a streamed batch (JSONL). */
export async function rawRefusal(response: Response): Promise<{ status: number; message: string }> {
  const text = await response.text();
  const status = /"httpStatus":(\d+)/.exec(text)?.[1];
  const message = /"message":("(?:[^"\\]|\\.)*")/.exec(text)?.[1];
  return {
    status: Number(status),
    message: message === undefined ? text.slice(0, 200) : (JSON.parse(message) as string),
  };
}
