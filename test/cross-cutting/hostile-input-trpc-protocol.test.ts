/**
 * Hostile input on tRPC's own protocol, sent as raw HTTP requests to /trpc/: malformed ?input=, bodies
 * not superjson, superjson meta that names an unknown transformation or walks into __proto__, wrong
 * methods, unknown paths, oversized bodies. Not one 500, every answer in tRPC's error shape with the
 * expected code and status (item by item in a batch), Object.prototype not polluted, and a refused
 * write leaves the database exactly as it was. The fuzzing of every endpoint is in
 * hostile-input.test.ts; the shared set-up in hostile-input-fixtures.ts.
 */
import { BODY_LIMIT_BYTES } from '../../server/rest/body';
import { Findings } from '../support/surface-compare';
import { trpcErrorShapeProblem } from '../support/surface-trpc';
import type { TAnswer } from '../support/surfaces';
import { hostileSuite } from './hostile-input-fixtures';
import { WriteWatch } from './hostile-input-sending';

const hostile = hostileSuite("hostile input on tRPC's own protocol");

interface TProtocolCase {
  label: string;
  method: 'GET' | 'POST';
  /** After /trpc/. */
  target: string;
  body?: string;
  token?: boolean;
  /** The status and tRPC code of each call's error (several for a batch). */
  expect: { status: number; code: string }[];
}

function inputParam(value: unknown): string {
  return `input=${encodeURIComponent(JSON.stringify(value))}`;
}

hostile(
  "tRPC's own protocol abused: malformed input, not superjson, wrong method, unknown path, oversized body",
  async (context) => {
    const findings = new Findings();
    const oversized = JSON.stringify({ json: { username: 'A'.repeat(BODY_LIMIT_BYTES), password: 'x' } });
    const badRequest = [{ status: 400, code: 'BAD_REQUEST' }];
    const cases: TProtocolCase[] = [
      { label: 'malformed ?input= JSON', method: 'GET', target: 'assembly.list?input=%7Bnope', expect: badRequest },
      {
        label: 'malformed ?input= JSON in a batch',
        method: 'GET',
        target: 'assembly.list,catalog.listHulls?batch=1&input=%7Bnope',
        expect: [...badRequest, ...badRequest],
      },
      {
        label: 'batch ?input= not an object',
        method: 'GET',
        target: 'assembly.list?batch=1&input=%5B1%5D',
        expect: badRequest,
      },
      {
        label: 'input not superjson-shaped',
        method: 'GET',
        target: `assembly.getItem?${inputParam({ uuid: 'x' })}`,
        expect: badRequest,
      },
      {
        label: 'superjson meta naming an unknown transformation',
        method: 'GET',
        target: `assembly.getItem?${inputParam({ json: { uuid: 'x' }, meta: { values: { uuid: ['nope'] } } })}`,
        expect: badRequest,
      },
      {
        label: 'superjson meta walking into __proto__',
        method: 'GET',
        target: `assembly.getItem?${inputParam({ json: { uuid: 'x' }, meta: { values: { '__proto__.polluted': ['undefined'] } } })}`,
        expect: badRequest,
      },
      {
        label: 'a URL over the server limit',
        method: 'GET',
        target: `assembly.list?${inputParam({ json: { q: 'A'.repeat(9000) } })}`,
        expect: badRequest,
      },
      {
        label: 'POST body not superjson-shaped',
        method: 'POST',
        target: 'user.signin',
        body: JSON.stringify({ username: 'someone', password: 'secret' }),
        expect: badRequest,
      },
      { label: 'malformed POST body', method: 'POST', target: 'user.signin', body: '{"json":', expect: badRequest },
      {
        label: 'malformed POST body, signed in',
        method: 'POST',
        target: 'assembly.publish',
        body: '{"json":',
        token: true,
        expect: badRequest,
      },
      {
        label: 'malformed POST body in a batch',
        method: 'POST',
        target: 'user.signin,user.signup?batch=1',
        body: '{"0":',
        expect: [...badRequest, ...badRequest],
      },
      {
        label: 'unknown procedure',
        method: 'GET',
        target: 'nope.nothing',
        expect: [{ status: 404, code: 'NOT_FOUND' }],
      },
      {
        label: 'unknown procedure as a POST',
        method: 'POST',
        target: 'admin.nothing',
        body: '{"json":{}}',
        token: true,
        expect: [{ status: 404, code: 'NOT_FOUND' }],
      },
      {
        label: 'a router, not a procedure',
        method: 'GET',
        target: 'assembly',
        expect: [{ status: 404, code: 'NOT_FOUND' }],
      },
      {
        label: 'query sent as POST',
        method: 'POST',
        target: 'assembly.list',
        body: '{"json":{}}',
        expect: [{ status: 405, code: 'METHOD_NOT_SUPPORTED' }],
      },
      {
        label: 'mutation sent as GET',
        method: 'GET',
        target: `assembly.publish?${inputParam({ json: {} })}`,
        token: true,
        expect: [{ status: 405, code: 'METHOD_NOT_SUPPORTED' }],
      },
      {
        label: 'oversized POST body',
        method: 'POST',
        target: 'user.signin',
        body: oversized,
        expect: [{ status: 413, code: 'PAYLOAD_TOO_LARGE' }],
      },
      {
        label: 'oversized POST body, signed in',
        method: 'POST',
        target: 'assembly.publish',
        body: oversized,
        token: true,
        expect: [{ status: 413, code: 'PAYLOAD_TOO_LARGE' }],
      },
      {
        label: 'oversized batch POST body',
        method: 'POST',
        target: 'user.signin,user.signup?batch=1',
        body: `{"0":${oversized}}`,
        expect: [
          { status: 413, code: 'PAYLOAD_TOO_LARGE' },
          { status: 413, code: 'PAYLOAD_TOO_LARGE' },
        ],
      },
    ];
    const watch = new WriteWatch(context, findings);
    for (const testCase of cases) {
      const label = `${testCase.label} (${testCase.method} /trpc/${testCase.target.slice(0, 80)})`;
      const send = async (): Promise<TAnswer[]> => {
        const response = await fetch(`${context.app.url}/trpc/${testCase.target}`, {
          method: testCase.method,
          headers: {
            'content-type': 'application/json',
            ...(testCase.token ? { authorization: `Bearer ${context.userToken}` } : {}),
          },
          body: testCase.body,
        });
        const text = await response.text();
        let body: any;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        const batch = testCase.expect.length > 1 || testCase.target.includes('batch=1');
        // A batch is answered item by item, or with one error the tRPC client applies to every call.
        const errors: unknown[] = !batch
          ? [body?.error?.json]
          : Array.isArray(body)
            ? body.map((item) => item?.error?.json)
            : testCase.expect.map(() => body?.error?.json);
        const problems: string[] = [];
        if (response.status >= 500) problems.push(`HTTP ${response.status}`);
        const expectedStatus =
          batch && new Set(testCase.expect.map((item) => item.status)).size > 1 ? 207 : testCase.expect[0]!.status;
        if (response.status !== expectedStatus) problems.push(`HTTP ${response.status}, expected ${expectedStatus}`);
        if (errors.length !== testCase.expect.length)
          problems.push(`${errors.length} answers, expected ${testCase.expect.length}`);
        testCase.expect.forEach((expected, index) => {
          const error = errors[index] as { data?: { code?: string; httpStatus?: number } } | undefined;
          const shape = trpcErrorShapeProblem(error, batch ? undefined : response.status);
          if (shape) problems.push(`not tRPC's error format: ${shape}`);
          else if (error!.data!.code !== expected.code || error!.data!.httpStatus !== expected.status) {
            problems.push(
              `error ${error!.data!.code} ${error!.data!.httpStatus}, expected ${expected.code} ${expected.status}`,
            );
          }
        });
        findings.add(
          label,
          problems.length > 0 ? `${problems.join('; ')}; answered ${response.status} ${text.slice(0, 240)}` : undefined,
        );
        context.tally.requests.tRPC++;
        return [{ surface: 'tRPC', status: response.status, code: undefined, message: undefined, data: body, text }];
      };
      if (testCase.method === 'POST') await watch.run(label, 'tRPC', send);
      else await send();
    }
    findings.expect(
      ({} as Record<string, unknown>).polluted === undefined,
      'superjson meta',
      'polluted Object.prototype',
    );
    findings.assertNone();
  },
);

hostile.run();
