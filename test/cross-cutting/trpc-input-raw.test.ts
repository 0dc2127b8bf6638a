/**
 * A call's input on the native tRPC surface as raw requests (issue 31, items 7 and 9), where the real
 * @trpc/client cannot send them: input=null, input=[], the issue's request and ?input= not JSON,
 * annotation trees and values nested 10,000 deep (superjson recursed until the stack overflowed) and a
 * batch deeper than JSON.stringify reaches. Each is a 400 whose message names what is wrong in the
 * input's terms, never JavaScript's own words, on the fast path and through tRPC's adapter alike.
 */
import * as assert from 'uvu/assert';
import { serverSuite } from '../support/server-suite';
import { assertPlain400, rawRefusal } from './trpc-input-fixtures';

const Input = serverSuite("tRPC input: raw requests the client cannot send, on the fast path and tRPC's adapter");

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

Input.run();
