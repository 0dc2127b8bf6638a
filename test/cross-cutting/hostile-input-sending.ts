/**
 * Sending the hostile-input suites' inputs (hostile-input*.test.ts): one input on REST and its
 * procedure over native tRPC (test/support/surface-trpc.ts), never a 500 and always in the surface's
 * format, each refused write watched to change nothing in the database (hostile-input-digest.ts).
 */
import type { Findings, TLabel } from '../support/surface-compare';
import type { TLink } from '../support/surface-trpc';
import { restCall, type TAnswer, type TCase, type TSurface } from '../support/surfaces';
import { fingerprint } from './hostile-input-digest';
import type { THostile, TOperation } from './hostile-input-fixtures';

export function refused(answer: TAnswer): boolean {
  return !(answer.status !== undefined && answer.status < 400);
}

/**
 * Watches the writes of one endpoint, sent one request after another: the fingerprint taken after a
 * request is the one before the next. When every call of a request is refused (one call, or a batch
 * of them), the database must be exactly as it was before it.
 */
export class WriteWatch {
  private last: string | undefined;

  constructor(
    private readonly context: THostile,
    private readonly findings: Findings,
  ) {}

  async run(label: TLabel, surface: TSurface, send: () => Promise<TAnswer[]>): Promise<TAnswer[]> {
    const before = this.last ?? (await fingerprint(this.context.app));
    const answers = await send();
    this.last = await fingerprint(this.context.app);
    if (answers.every(refused)) {
      this.findings.expect(
        this.last === before,
        label,
        `refused write${answers.length > 1 ? 's (one batch)' : ''} changed the database on ${surface}`,
      );
      this.context.tally.refusedWrites[surface] += answers.length;
    }
    return answers;
  }
}

/** Endpoints whose success would end the session the fuzzer uses: fuzzed anonymously. */
const ANONYMOUS_ONLY = new Set(['POST /user/signout', 'POST /user/password', 'PUT /user/changePassword']);

function tokenFor(context: THostile, operation: TOperation): string | undefined {
  if (ANONYMOUS_ONLY.has(operation.key)) return undefined;
  return operation.path.startsWith('/admin/') ? context.adminToken : context.userToken;
}

/** A case REST sends; `rawBody`, when set, goes verbatim as the JSON body (REST only). */
export interface TInput extends TCase {
  path: Record<string, string>;
  rawBody?: string;
}

export function labelOf(operation: TOperation, surface: TSurface, input: unknown): () => string {
  return () => `${operation.key} on ${surface} ${(JSON.stringify(input) ?? 'no input').slice(0, 160)}`;
}

/** Never a 500, always the surface's format. */
function checkAnswer(findings: Findings, label: TLabel, answer: TAnswer): void {
  findings.expect(
    answer.status === undefined || answer.status < 500,
    label,
    `${answer.status} ${answer.text.slice(0, 200)}`,
  );
  findings.add(label, answer.malformed);
}

export async function sendRest(
  context: THostile,
  findings: Findings,
  watch: WriteWatch,
  operation: TOperation,
  input: TInput,
): Promise<TAnswer> {
  const label = labelOf(operation, 'REST', input);
  const send = async () => [await restCall(context.app, operation, tokenFor(context, operation), input, 'x')];
  const [answer] = operation.method === 'GET' ? await send() : await watch.run(label, 'REST', send);
  context.tally.requests.REST++;
  checkAnswer(findings, label, answer!);
  return answer!;
}

/**
 * Sends procedure inputs over tRPC, in order: through httpBatchLink in batches (one request each, one
 * fingerprint around each batch of writes), or one by one through httpLink.
 */
export async function sendTrpc(
  context: THostile,
  findings: Findings,
  watch: WriteWatch,
  operation: TOperation,
  inputs: unknown[],
  link: TLink,
): Promise<TAnswer[]> {
  const token = tokenFor(context, operation);
  const answers: TAnswer[] = [];
  for (const group of link === 'httpBatchLink'
    ? batches(inputs, context.trpc.maxBatchSize)
    : inputs.map((input) => [input])) {
    const send = () => Promise.all(group.map((input) => context.trpc.callInput(operation, token, input, link)));
    const label = labelOf(operation, 'tRPC', group.length > 1 ? { batch: group } : group[0]);
    answers.push(...(operation.method === 'GET' ? await send() : await watch.run(label, 'tRPC', send)));
  }
  context.tally.requests.tRPC += inputs.length;
  for (const [index, answer] of answers.entries())
    checkAnswer(findings, labelOf(operation, 'tRPC', inputs[index]), answer);
  return answers;
}

/** Batches of at most `maxItems` calls and 256 KiB of input, each one request far below the body limit. */
function batches(inputs: unknown[], maxItems: number): unknown[][] {
  const groups: unknown[][] = [];
  let size = Infinity;
  for (const input of inputs) {
    const bytes = (JSON.stringify(input) ?? '').length;
    const current = groups.at(-1);
    if (!current || current.length >= maxItems || size + bytes > 256 * 1024) {
      groups.push([input]);
      size = bytes;
    } else {
      current.push(input);
      size += bytes;
    }
  }
  return groups;
}
