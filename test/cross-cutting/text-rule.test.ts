/**
 * The one text rule (server/text.ts), on every free-text field of every endpoint, found in the OpenAPI
 * document rather than listed by hand: each string field of a request that is not an identifier, a
 * secret or a search (no pattern, format or enum; see NOT_FREE_TEXT) must refuse what the rule refuses,
 * with a 400 that names the field, on REST and on native tRPC alike. A field added without the rule
 * fails here. Also the rule itself: lengths in UTF-16 code units, line breaks normalised, names
 * without invisible or blank characters.
 */
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { normaliseText, textProblem } from '../../server/text';
import { startTestServer, type TTestServer } from '../support/helpers';
import { signUpAdmin } from '../support/sign-up';
import { documentOperations, resolveRef, type TDocumentOperation } from '../support/openapi-operations';
import { TrpcSurface } from '../support/surface-trpc';
import { restCall, type TAnswer } from '../support/surfaces';

/**
 * String fields with a length limit that are not free text: secrets and captcha answers (compared, never
 * shown), the search keyword (a query: control characters are read as spaces), an If-Match value,
 * the web client's cache busters, URLs and uploads (checked by rules of their own), and identifiers
 * that name something stored (an unknown one is a 404). Query parameters are filters, never stored:
 * only request bodies are walked.
 */
const NOT_FREE_TEXT = new Set([
  'password',
  'currentPassword',
  'newPassword',
  'oldPassword',
  'captchaCode',
  'encryptCaptcha',
  'response',
  'challenge',
  'salt',
  'signature',
  'algorithm',
  'keyword',
  'ifMatch',
  't',
  'id',
  'userId',
  'targetId',
  'uuid',
  'season',
  'url',
  'image',
  'contentType',
  'v',
  'tierId',
  'payType',
]);
/** Fields of one operation that are not free text: the sign-in name is a username or an e-mail to look up. */
const NOT_FREE_TEXT_OF: Record<string, string[]> = { 'POST /user/signin': ['username'] };

interface TTextField {
  operation: TDocumentOperation;
  /** Where the field is in the body: property names, and 0 for an array's first item. */
  path: (string | number)[];
  maxLength: number;
}

/** The free-text leaves of a request body schema (first alternative of a union, first item of an array). */
function textLeaves(
  document: unknown,
  node: any,
  path: (string | number)[],
  out: { path: (string | number)[]; maxLength: number }[],
  skip: Set<string>,
  depth = 0,
): void {
  const schema = resolveRef(document, node);
  if (!schema || depth > 8) return;
  for (const alternative of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
    textLeaves(document, alternative, path, out, skip, depth + 1);
  if (schema.type === 'object' || schema.properties) {
    for (const [name, property] of Object.entries<any>(schema.properties ?? {})) {
      if (!NOT_FREE_TEXT.has(name) && !(path.length === 0 && skip.has(name)))
        textLeaves(document, property, [...path, name], out, skip, depth + 1);
    }
  } else if (schema.type === 'array' && schema.items && schema.maxItems !== 0) {
    textLeaves(document, schema.items, [...path, 0], out, skip, depth + 1);
  } else if (isFreeText(schema) && !out.some((leaf) => leaf.path.join('.') === path.join('.'))) {
    out.push({ path, maxLength: schema.maxLength });
  }
}

function isFreeText(schema: any): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return (
    types.includes('string') &&
    typeof schema.maxLength === 'number' &&
    !schema.pattern &&
    !schema.format &&
    !schema.enum &&
    schema.const === undefined
  );
}

function textFields(document: any): TTextField[] {
  const fields: TTextField[] = [];
  for (const operation of documentOperations(document)) {
    const body = operation.operation.requestBody?.content?.['application/json']?.schema;
    const leaves: { path: (string | number)[]; maxLength: number }[] = [];
    if (body) textLeaves(document, body, [], leaves, new Set(NOT_FREE_TEXT_OF[operation.key] ?? []));
    for (const leaf of leaves) fields.push({ operation, path: leaf.path, maxLength: leaf.maxLength });
  }
  return fields;
}

/** A body with `value` at `path` and nothing else: the other fields' issues do not hide this one's. */
function bodyWith(path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  return typeof head === 'number' ? [bodyWith(rest, value)] : { [head!]: bodyWith(rest, value) };
}

function issueAt(answer: TAnswer, path: (string | number)[]): string | undefined {
  const issues = (answer.data as { issues?: { path: string; message: string }[] } | undefined)?.issues ?? [];
  // As the envelope names it: points[0].title.
  const wanted = path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('');
  return issues.find((issue) => String(issue.path) === wanted)?.message;
}

const Rule = suite('the one text rule (server/text.ts)');

Rule('lengths count UTF-16 code units; line breaks of multi-line text become LF; names refuse what nobody sees', () => {
  assert.is(textProblem('😀😀', { max: 3 }), 'must be at most 3 characters');
  assert.is(textProblem('😀', { max: 2 }), undefined);
  assert.is(normaliseText(' a\r\nb\rc\u2028d\u2029 ', 'multiline'), 'a\nb\nc\nd');
  assert.is(normaliseText(' a\r\nb ', 'line'), 'a\r\nb');
  for (const text of ['a\u0000b', 'a\u0007b', 'a\u001bb', 'a\u007fb', 'a\u0085b', 'a\u009bb', 'a\ud800b', 'a\udc00b']) {
    for (const kind of ['line', 'multiline', 'name'] as const)
      assert.ok(textProblem(text, { max: 100, kind }), `${kind} ${JSON.stringify(text)}`);
  }
  for (const text of ['a\nb', 'a\tb', 'a\u2028b', 'a\rb'])
    assert.ok(textProblem(text, { max: 100 }), JSON.stringify(text));
  assert.is(textProblem('a\n\tb', { max: 100, kind: 'multiline' }), undefined);
  for (const text of [
    'a\u034fb',
    '\u3164',
    '\u2800',
    '\u115f',
    'a\u00a0b',
    'a\u200bb',
    'a\u202eb',
    'a\u3000b',
    'x\ufe0f',
  ]) {
    assert.ok(textProblem(text, { max: 100, kind: 'name' }), JSON.stringify(text));
    assert.is(textProblem(text, { max: 100, kind: 'line' }), undefined, `a title may hold ${JSON.stringify(text)}`);
  }
  assert.is(textProblem('Calico Jack 🏴', { max: 40, kind: 'name' }), undefined);
  assert.is(textProblem('😀🏴‍☠️ a', { max: 100, kind: 'line' }), undefined);
});

Rule.run();

const Fields = suite<{ app: TTestServer; adminToken: string; surface: TrpcSurface; fields: TTextField[] }>(
  'every free-text field of the API, on both surfaces',
);

Fields.before(async (context) => {
  context.app = await startTestServer();
  context.adminToken = (await signUpAdmin(context.app)).token;
  context.surface = new TrpcSurface(context.app);
  context.fields = textFields((await context.app.rest('GET', '/api/openapi.json')).body);
});

Fields.after(async ({ app }) => {
  await app.stop();
});

Fields(
  'the document has the free-text fields the rule covers (assemblies, comments, profiles, maps, imports)',
  ({ fields }) => {
    const named = new Set(fields.map((field) => `${field.operation.key} ${field.path.join('.')}`));
    for (const expected of [
      'POST /assembly/publish name',
      'POST /assembly/publish description',
      'POST /assembly/publish tags.0',
      'POST /comment content',
      'POST /user/me attr.introduction',
      'PUT /user/changeAlternativeName username',
      'POST /map/collection title',
      'POST /map/collection points.0.description',
      'PUT /admin/calendar/{season} events.0.title',
      'POST /admin/drop/campaigns campaigns.0.name',
    ]) {
      assert.ok(named.has(expected), `${expected} is not among the free-text fields found: ${[...named].join(', ')}`);
    }
  },
);

const REFUSED = [
  ['NUL', 'a\u0000b'],
  ['BEL', 'a\u0007b'],
  ['ESC', 'a\u001bb'],
  ['C1 NEL', 'a\u0085b'],
  ['C1 CSI', 'a\u009bb'],
  ['a lone high surrogate', 'a\ud800b'],
  ['a lone low surrogate', 'a\udc00b'],
] as const;

/** Sends `value` in the field on both surfaces and returns what each surface's issue for the field says (undefined: none), with the status. */
async function answersFor(
  context: { app: TTestServer; adminToken: string; surface: TrpcSurface },
  field: TTextField,
  value: string,
) {
  const testCase = { body: bodyWith(field.path, value) };
  const answers = await Promise.all([
    restCall(context.app, field.operation, context.adminToken, testCase, PLACEHOLDER),
    context.surface.call(field.operation, context.adminToken, testCase, PLACEHOLDER, 'httpBatchLink'),
  ]);
  return answers.map((answer) => ({ answer, message: issueAt(answer, field.path) }));
}

const PLACEHOLDER = '00000000-0000-4000-8000-000000000000';

Fields(
  'control characters and unpaired surrogates: a 400 naming the field, REST and tRPC alike, on every field',
  async (context) => {
    const failures: string[] = [];
    for (const field of context.fields) {
      for (const [what, value] of REFUSED) {
        for (const { answer, message } of await answersFor(context, field, value)) {
          if (answer.status !== 400 || !message || !/control characters|well-formed/.test(message)) {
            failures.push(
              `${answer.surface} ${field.operation.key} ${field.path.join('.')} with ${what}: ${answer.status} ${message ?? answer.text.slice(0, 160)}`,
            );
          }
        }
      }
    }
    assert.equal(failures, []);
  },
);

Fields(
  'a length limit counts UTF-16 code units: max + 1 of them in emoji is a 400, on every field',
  async (context) => {
    const failures: string[] = [];
    for (const field of context.fields) {
      // ceil((max + 1) / 2) emoji: more code units than the limit, no more code points.
      for (const { answer, message } of await answersFor(
        context,
        field,
        '😀'.repeat(Math.ceil((field.maxLength + 1) / 2)),
      )) {
        if (answer.status !== 400 || message !== `must be at most ${field.maxLength} characters`) {
          failures.push(
            `${answer.surface} ${field.operation.key} ${field.path.join('.')}: ${answer.status} ${message ?? answer.text.slice(0, 160)}`,
          );
        }
      }
    }
    assert.equal(failures, []);
  },
);

Fields.run();
