/**
 * A call's input on the native tRPC surface (issue 31, items 7 and 9): one reader of superjson's wire
 * form (server/transformer.ts, deserializeInput) for the fast path and tRPC's adapter alike. Malformed
 * payloads, metas and annotations are each a 400 whose message names what is wrong in the input's
 * terms, never JavaScript's own words ("Cannot destructure ...", "Maximum call stack size exceeded").
 * Sent with the real @trpc/client (a transformer that writes the payload as is) through httpLink and
 * httpBatchLink (the fast path) and httpBatchStreamLink (tRPC's adapter). Raw requests the client
 * cannot send are in trpc-input-raw.test.ts; what superjson clients send in trpc-input-clients.test.ts.
 */
import { createTRPCClient } from '@trpc/client';
import superjson from 'superjson';
import * as assert from 'uvu/assert';
import type { AppRouter } from '../../server/router';
import type { TTestServer } from '../support/helpers';
import { serverSuite } from '../support/server-suite';
import { FAST_PATH, LINKS, plain400Problem, refusal, type TLinkName } from './trpc-input-fixtures';

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

const Input = serverSuite(
  "tRPC input: malformed superjson payloads are a plain 400, on the fast path and tRPC's adapter",
);

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

Input.run();
