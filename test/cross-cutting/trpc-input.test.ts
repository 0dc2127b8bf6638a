/**
 * A call's input on the native tRPC surface (issue 31, items 7 and 9): one reader of superjson's wire
 * form (server/transformer.ts, deserializeInput) for the fast path and tRPC's adapter alike. Malformed
 * payloads, metas and annotations are each a 400 whose message names what is wrong in the input's
 * terms, never JavaScript's own words ("Cannot destructure ...", "Maximum call stack size exceeded").
 * Sent with the real @trpc/client (a transformer that writes the payload as is) through httpLink and
 * httpBatchLink (the fast path) and httpBatchStreamLink (tRPC's adapter), and as raw requests where
 * the client cannot send them.
 */
import { createTRPCClient, httpBatchLink, httpBatchStreamLink, httpLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';
import * as assert from 'uvu/assert';
import type { AppRouter } from '../../server/router';
import { startTestServer, type TTestServer } from '../support/helpers';
import { suite } from '../support/suite';

/** JavaScript's messages that used to reach clients. */
const JS_INTERNAL =
  /Maximum call stack|Cannot destructure|Cannot read|is not a function|is not iterable|Unknown transformation/;

const LINKS = { httpLink, httpBatchLink, httpBatchStreamLink } as const;
type TLinkName = keyof typeof LINKS;
const FAST_PATH: TLinkName[] = ['httpLink', 'httpBatchLink'];

/** A client whose transformer sends `payload` as the call's input, whatever the call is given. */
function sending(app: TTestServer, link: TLinkName, payload: unknown) {
  return createTRPCClient<AppRouter>({
    links: [
      LINKS[link]({
        url: `${app.url}/trpc`,
        transformer: { input: { serialize: () => payload, deserialize: (value: unknown) => value }, output: superjson },
      }),
    ],
  });
}

/** The call's error, or status 200 when it was answered. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
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
function plain400Problem(
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

function assertPlain400(
  answer: { status: number; code?: string; message: string },
  expected: RegExp,
  label: string,
): void {
  const problem = plain400Problem(answer, expected);
  assert.ok(problem === undefined, `${label}: ${problem}`);
}

/** The error of a raw request's answer: a JSON body, or the first error of a streamed batch (JSONL). */
async function rawRefusal(response: Response): Promise<{ status: number; message: string }> {
  const text = await response.text();
  const status = /"httpStatus":(\d+)/.exec(text)?.[1];
  const message = /"message":("(?:[^"\\]|\\.)*")/.exec(text)?.[1];
  return {
    status: Number(status),
    message: message === undefined ? text.slice(0, 200) : (JSON.parse(message) as string),
  };
}

const Input = suite<{ app: TTestServer }>(
  "tRPC input: superjson payloads read by one checked reader, on the fast path and tRPC's adapter",
);

Input.before(async (context) => {
  context.app = await startTestServer();
});
Input.after(async ({ app }) => app.stop());

const LIST_JSON = { page: 1 };
const SIGNIN_JSON = { username: 'someone', password: 'secret words' };

/** An annotation with parts, `depth` levels deep, as superjson never writes one of type "undefined". */
function annotationTree(depth: number): unknown {
  let tree: unknown = ['undefined'];
  for (let level = 0; level < depth; level++) tree = ['undefined', { deeper: tree }];
  return tree;
}

/** Each malformed payload for a call whose json is `json` with a field `field`, and the message it must get. */
function malformed(json: Record<string, unknown>, field: string): [string, unknown, RegExp][] {
  return [
    ['null', null, /^input must be an object \{json, meta\?\} as superjson writes it, not null$/],
    ['an array', [], /^input must be an object \{json, meta\?\} as superjson writes it, not an array$/],
    ['a number', 1, /, not 1$/],
    [
      'the input itself, not superjson',
      json,
      new RegExp(`^input must be an object \\{json, meta\\?\\}.*"${field}" is not one of its keys$`),
    ],
    ['meta not an object', { json, meta: 'bigint' }, /^input\.meta must be an object/],
    [
      "the issue's annotation: a bare type name",
      { json, meta: { values: { [field]: 'bigint' } } },
      new RegExp(`^input\\.meta\\.values\\["${field}"\\] must be an array such as \\["undefined"\\], not "bigint"$`),
    ],
    [
      'values neither an array nor an object',
      { json, meta: { values: 7 } },
      /^input\.meta\.values must be an array or an object/,
    ],
    [
      'an annotation tree 100 deep',
      { json: { ...json, [field]: null }, meta: { values: { [field]: annotationTree(100) } } },
      /has no parts to annotate/,
    ],
    [
      '"undefined" where json holds a value',
      { json, meta: { values: { [field]: ['undefined'] } } },
      /says "undefined", but input\.json holds .* there/,
    ],
    [
      '"number" where json holds no number superjson writes',
      { json: { ...json, [field]: '12' }, meta: { values: { [field]: ['number'] } } },
      /says "number", but input\.json holds "12"/,
    ],
    [
      'an annotation of a place json lacks',
      { json, meta: { values: { 'nowhere.deeper': ['undefined'] } } },
      /^input\.meta\.values\["nowhere\.deeper"\] names no value of input\.json$/,
    ],
    ['an unknown type name', { json, meta: { values: { [field]: ['nope'] } } }, /"nope" is not a type of input/],
    [
      'a type inputs never carry: bigint',
      { json: { ...json, [field]: '1' }, meta: { values: { [field]: ['bigint'] } } },
      /"bigint" is not a type of input/,
    ],
    [
      'a registered-class annotation',
      { json, meta: { values: { [field]: [['class', 'Ship']] } } },
      /\["class", \.\.\.\] is not a type of input/,
    ],
    [
      'a path through __proto__',
      { json, meta: { values: { '__proto__.polluted': ['undefined'] } } },
      /walks into "__proto__"/,
    ],
    [
      'a superjson 2 path with a stray backslash',
      { json, meta: { values: { 'a\\b': ['undefined'] }, v: 1 } },
      /is not a path/,
    ],
    ['meta.v of an unknown version', { json, meta: { v: 3 } }, /^input\.meta\.v must be 1/],
    [
      'referentialEqualities not as superjson writes them',
      { json, meta: { referentialEqualities: { [field]: 'x' } } },
      /^input\.meta\.referentialEqualities must map paths/,
    ],
    [
      'a key meta does not have',
      { json, meta: { values: {}, extra: 1 } },
      /^input\.meta: "extra" is not one of its keys/,
    ],
  ];
}

for (const link of Object.keys(LINKS) as TLinkName[]) {
  const where = FAST_PATH.includes(link) ? 'the fast path' : "tRPC's adapter";
  Input(`${link} (${where}): every malformed payload of a query and a mutation is a plain 400`, async ({ app }) => {
    const problems: string[] = [];
    const check = (label: string, answer: Awaited<ReturnType<typeof refusal>>, expected: RegExp) => {
      const problem = plain400Problem(answer, expected);
      if (problem) problems.push(`${label}: ${problem}`);
    };
    for (const [label, payload, expected] of malformed(LIST_JSON, 'page')) {
      check(`query, ${label}`, await refusal(sending(app, link, payload).assembly.list.query()), expected);
    }
    for (const [label, payload, expected] of malformed(SIGNIN_JSON, 'username')) {
      check(
        `mutation, ${label}`,
        await refusal(sending(app, link, payload).user.signin.mutate(SIGNIN_JSON as never)),
        expected,
      );
    }
    assert.equal(problems, []);
  });
}

Input(
  "raw requests: input=null, input=[], the issue's request and ?input= not JSON, on the fast path and through the adapter (another Content-Type, a streamed batch)",
  async ({ app }) => {
    const query = (text: string) => `input=${encodeURIComponent(text)}`;
    const cases: [string, string, RegExp][] = [
      ['null', 'null', /^input must be an object \{json, meta\?\} as superjson writes it, not null$/],
      ['[]', '[]', /not an array$/],
      [
        "the issue's request",
        '{"json":{"page":1},"meta":{"values":{"page":"bigint"}}}',
        /^input\.meta\.values\["page"\] must be an array/,
      ],
    ];
    for (const [label, text, expected] of cases) {
      assertPlain400(
        await rawRefusal(await fetch(`${app.url}/trpc/assembly.list?${query(text)}`)),
        expected,
        `fast path: ${label}`,
      );
      const otherType = await fetch(`${app.url}/trpc/assembly.list?${query(text)}`, {
        headers: { 'content-type': 'text/plain' },
      });
      assertPlain400(await rawRefusal(otherType), expected, `adapter (Content-Type text/plain): ${label}`);
      const streamed = await fetch(`${app.url}/trpc/assembly.list?batch=1&${query(`{"0":${text}}`)}`, {
        headers: { 'trpc-accept': 'application/jsonl' },
      });
      assertPlain400(await rawRefusal(streamed), expected, `adapter (streamed batch): ${label}`);
    }
    // Not JSON at all: JSON.parse's words, in the input's terms.
    assertPlain400(
      await rawRefusal(await fetch(`${app.url}/trpc/assembly.list?input=%7Bnope`)),
      /^input must be valid JSON: /,
      'fast path: not JSON',
    );
    const notJson = await fetch(`${app.url}/trpc/assembly.list,health.get?batch=1&input=%7Bnope`, {
      headers: { 'trpc-accept': 'application/jsonl' },
    });
    assertPlain400(await rawRefusal(notJson), /^input must be valid JSON: /, 'adapter (streamed batch): not JSON');
  },
);

Input(
  'an annotation tree 10,000 deep (superjson recursed until the stack overflowed) is a plain 400 on both paths',
  async ({ app }) => {
    const tree = `${'["undefined",{"deeper":'.repeat(10_000)}["undefined"]${'}]'.repeat(10_000)}`;
    const payload = `{"json":{"username":null,"password":"secret words"},"meta":{"values":{"username":${tree}}}}`;
    const post = (target: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${app.url}/trpc/${target}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    assertPlain400(await rawRefusal(await post('user.signin', payload)), /has no parts to annotate/, 'fast path');
    assertPlain400(
      await rawRefusal(await post('user.signin?batch=1', `{"0":${payload}}`)),
      /has no parts to annotate/,
      'fast path, batch',
    );
    assertPlain400(
      await rawRefusal(await post('user.signin?batch=1', `{"0":${payload}}`, { 'trpc-accept': 'application/jsonl' })),
      /has no parts to annotate/,
      'adapter (streamed batch)',
    );
    // Deep values where the messages name what they found: an object for an annotation, an array where "undefined" wants null.
    const deepObject = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const deepArray = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const deepAnnotation = `{"json":{"username":"a","password":"secret words"},"meta":{"values":{"username":${deepObject}}}}`;
    assertPlain400(
      await rawRefusal(await post('user.signin', deepAnnotation)),
      /must be an array such as \["undefined"\], not an object$/,
      'fast path: an object 10,000 deep for an annotation',
    );
    const deepValue = `{"json":{"username":${deepArray},"password":"secret words"},"meta":{"values":{"username":["undefined"]}}}`;
    assertPlain400(
      await rawRefusal(await post('user.signin', deepValue)),
      /says "undefined", but input\.json holds an array there/,
      'fast path: an array 10,000 deep for undefined',
    );
  },
);

Input('a batch whose json is nested deeper than JSON.stringify reaches is answered, not a 500', async ({ app }) => {
  const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
  const response = await fetch(`${app.url}/trpc/user.signin?batch=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"0":{"json":${deep}}}`,
  });
  const answer = await rawRefusal(response);
  assert.is(answer.status, 400, answer.message);
  assert.match(answer.message, /expected object, received array/);
});

Input(
  'what superjson clients send is read as before: undefined fields and inputs, NaN and -0, shared references; on every link',
  async ({ app }) => {
    const user = await app.signUp();
    for (const link of Object.keys(LINKS) as TLinkName[]) {
      const client = createTRPCClient<AppRouter>({
        links: [
          LINKS[link]({
            url: `${app.url}/trpc`,
            transformer: superjson,
            headers: { authorization: `Bearer ${user.token}` },
          }),
        ],
      });
      const [list, health] = await Promise.all([
        client.assembly.list.query({ page: undefined, pageSize: 5 }),
        client.health.get.query(),
      ]);
      assert.is(list.pagination.pageSize, 5, link);
      assert.is(health.status, 'ok', link);
      // NaN is read as NaN ("number" annotation), which the schema then refuses in its own words.
      assertPlain400(
        await refusal(client.assembly.list.query({ page: Number.NaN })),
        /^Invalid input: page: must be an integer/,
        `${link}: NaN`,
      );
      // The same point twice (referentialEqualities) and -0 (a "number" annotation).
      const point = { title: 'Cove', latitude: -0, longitude: 20 };
      const created = await client.map.create.mutate({ title: `Shared ${link}`, points: [point, point] });
      const stored = await app.rest('GET', `/api/map/collection/${created.uuid}`, { token: user.token });
      assert.is(stored.body.data.points.length, 2, link);
      assert.equal(
        stored.body.data.points.map((one: { latitude: number }) => one.latitude),
        [0, 0],
        link,
      );
    }
  },
);

Input.run();
