// The recorder: calls an operation as a client would and keeps what it was sent and what it answered.
import type { TRecordedExample } from '../../server/openapi';
import { DEMO_USERS } from '../../server/seed';
import type { TTestServer } from '../../test/support/helpers';
import { advanceClock } from './fixed-clock-and-ids';

export type TJson = Record<string, unknown>;

/** Arrays cut to their first two items, at any depth: an example shows the shape, not the whole list. */
function trimmed(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(trimmed);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, trimmed(inner)]));
  return value;
}

interface TCall {
  parameters?: Record<string, string | number | boolean>;
  body?: unknown;
  token?: string;
  /** Request headers, recorded as the examples of the header parameters of the same name. */
  headers?: Record<string, string>;
  /** The answer is not an envelope (iCalendar feeds, avatar bytes): only the request is recorded. */
  raw?: boolean;
}

export class Recorder {
  readonly examples: Record<string, TRecordedExample> = {};
  constructor(private readonly app: TTestServer) {}

  /** Calls `METHOD /path` with path parameters filled in and the others as the query; fails unless it answers 2xx. */
  private async send(key: string, call: TCall): Promise<TJson> {
    // Each recorded call happens a second after the one before (fixed-clock-and-ids.ts).
    advanceClock(1000);
    const [method, template] = key.split(' ') as [string, string];
    const query = new URLSearchParams();
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(String(call.parameters?.[name])),
    );
    for (const [name, value] of Object.entries(call.parameters ?? {}))
      if (!template.includes(`{${name}}`)) query.set(name, String(value));
    const url = `/api${path}${query.size > 0 ? `?${query}` : ''}`;
    const response = await this.app.rest(method, url, { body: call.body, token: call.token, headers: call.headers });
    if (response.status >= 300) throw new Error(`${key} answered ${response.status}: ${response.text.slice(0, 300)}`);
    return call.raw ? { text: response.text } : response.body;
  }

  /** Records the operation's example: what it was sent, and the data it answered. */
  // biome-ignore lint/suspicious/noExplicitAny: the recorder reads fields of the demo data's answers (uuids, tokens) to make the next call
  async call(key: string, call: TCall = {}): Promise<any> {
    const answer = await this.send(key, call);
    this.examples[key] = {
      ...(call.parameters && { parameters: call.parameters }),
      ...(call.headers && { headers: call.headers }),
      ...(call.body !== undefined && { body: call.body }),
      ...(!call.raw && { response: trimmed(answer.data) }),
    };
    return call.raw ? answer.text : answer.data;
  }

  /**
   * A second call of a recorded operation, for the examples of parameters the first did not send
   * (another form of the same query, a private assembly's password); its answer is not kept.
   */
  async otherParameters(key: string, call: TCall): Promise<void> {
    await this.send(key, call);
    this.examples[key] ??= {};
    const recorded = this.examples[key];
    recorded.parameters = { ...call.parameters, ...recorded.parameters };
  }
}

export async function signIn(recorder: Recorder, username: string): Promise<string> {
  const user = DEMO_USERS.find((candidate) => candidate.username === username)!;
  const session = await recorder.call('POST /user/signin', {
    body: { username: user.username, password: user.password },
  });
  return session.token as string;
}

/** The first page of a list, two items long. */
export const pageOne = { page: 1, pageSize: 2 };
