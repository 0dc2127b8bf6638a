/**
 * Hostile input, generated from the OpenAPI document and run on both surfaces: every endpoint gets
 * wrong types, huge strings, unicode, injection strings, deep nesting, extreme numbers, missing and
 * extra fields, plus property-based random JSON (fast-check), on REST and on its procedure over native
 * tRPC (test/support/surface-trpc.ts); tRPC also gets typed values REST cannot carry in a query. Not one
 * 500, every answer in its surface's format (the envelope, tRPC's error shape), the same answer on both
 * surfaces to the same input, and a write that is refused leaves the database exactly as it was. The
 * abuse of tRPC's own protocol is in hostile-input-trpc-protocol.test.ts, hostile comments and profiles
 * in hostile-input-user-content.test.ts; the shared set-up in hostile-input-fixtures.ts.
 */
import fc from 'fast-check';
import * as assert from 'uvu/assert';
import { differences, Findings, VOLATILE_DATA } from '../support/surface-compare';
import { procedureInput, type TAnswer } from '../support/surfaces';
import { hostileSuite, type TOperation } from './hostile-input-fixtures';
import { labelOf, refused, sendRest, sendTrpc, type TInput, WriteWatch } from './hostile-input-sending';
import { DEEP, HUGE, NASTY_STRINGS, NASTY_VALUES } from './hostile-input-values';

const hostile = hostileSuite('hostile input on every endpoint, on REST and native tRPC');

function valueAsQuery(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
}

/** Inputs tRPC carries that a REST request cannot: typed query values, and a whole input that is not an object. */
function trpcOnlyInputs(operation: TOperation, pathWith: (value: string) => Record<string, string>): unknown[] {
  const inputs: unknown[] = [undefined, null, 'just a string', [1, 'two', null], { deep: DEEP, ...pathWith('x') }];
  for (const field of operation.queryParams) {
    for (const value of NASTY_VALUES.filter((candidate) => typeof candidate !== 'string'))
      inputs.push({ [field]: value, ...pathWith('x') });
  }
  return inputs;
}

hostile('hand-picked malformed inputs on every field of every endpoint, on REST and tRPC alike', async (context) => {
  const findings = new Findings();
  for (const operation of context.operations) {
    context.tally.endpoints++;
    const inputs: TInput[] = [];
    const restOnly: TInput[] = [];
    const pathWith = (value: string) => Object.fromEntries(operation.pathParams.map((name) => [name, value]));
    // Path parameters
    for (const value of NASTY_STRINGS.slice(0, 14)) {
      if (operation.pathParams.length > 0)
        inputs.push({ path: pathWith(value === '' ? ' ' : value.slice(0, 2000)), query: {} });
    }
    // Missing everything, then each field with each nasty value
    inputs.push({ path: pathWith('x'), query: {}, body: {} });
    for (const field of operation.queryParams) {
      for (const value of NASTY_VALUES)
        inputs.push({ path: pathWith('x'), query: { [field]: valueAsQuery(value).slice(0, 7000) } });
    }
    for (const field of operation.bodyFields) {
      for (const value of NASTY_VALUES) inputs.push({ path: pathWith('x'), query: {}, body: { [field]: value } });
    }
    if (operation.method === 'GET') {
      inputs.push({ path: pathWith('x'), query: { extra: 'field' } });
    } else {
      inputs.push({
        path: pathWith('x'),
        query: {},
        body: {
          extra: 'field',
          __proto__: { admin: true },
          ...Object.fromEntries(operation.bodyFields.map((f) => [f, HUGE])),
        },
      });
      restOnly.push({ path: pathWith('x'), query: {}, rawBody: '{"a":' });
      restOnly.push({ path: pathWith('x'), query: {}, rawBody: 'null' });
      restOnly.push({ path: pathWith('x'), query: {}, rawBody: '"just a string"' });
      restOnly.push({ path: pathWith('x'), query: {}, rawBody: JSON.stringify({ deep: DEEP }) });
    }
    const trpcOnly = trpcOnlyInputs(operation, pathWith);
    context.tally.inputs += inputs.length + restOnly.length + trpcOnly.length;

    const watch = new WriteWatch(context, findings);
    const restAnswers: TAnswer[] = [];
    for (const input of inputs) restAnswers.push(await sendRest(context, findings, watch, operation, input));
    for (const input of restOnly) await sendRest(context, findings, watch, operation, input);

    // The tRPC twins, one drop-refresh interval later, so a per-client allowance the REST pass used
    // (GET /drop/current?refresh) is back: those REST accepted one by one, in order, then those it
    // refused in batches (a refused batch must leave the database as it was; calls of a batch run
    // together, so only calls that change nothing share one); then what only tRPC can send.
    context.app.clock.advance(context.app.config.DROP_REFRESH_INTERVAL_SECONDS * 1000);
    const twins = inputs.map((input) => procedureInput(operation, input, 'x'));
    const acceptedOnRest = twins.flatMap((_, index) => (refused(restAnswers[index]!) ? [] : [index]));
    const refusedOnRest = twins.flatMap((_, index) => (refused(restAnswers[index]!) ? [index] : []));
    const twinAnswers: TAnswer[] = [];
    for (const [indexes, link] of [
      [acceptedOnRest, 'httpLink'],
      [refusedOnRest, 'httpBatchLink'],
    ] as const) {
      const answers = await sendTrpc(
        context,
        findings,
        watch,
        operation,
        indexes.map((index) => twins[index]),
        link,
      );
      for (const [position, index] of indexes.entries()) twinAnswers[index] = answers[position]!;
    }
    await sendTrpc(context, findings, watch, operation, trpcOnly, 'httpLink');

    // Reads must give the same data; a write REST accepted ran twice (once a surface), so its data is not compared.
    const data = operation.method === 'GET' && !VOLATILE_DATA.has(operation.key) ? 'equal' : 'skip';
    inputs.forEach((_input, index) => {
      findings.add(
        () => `${labelOf(operation, 'tRPC', twins[index])()} vs REST`,
        differences(restAnswers[index]!, twinAnswers[index]!, { data }),
      );
    });
  }
  findings.assertNone();
  assert.ok(context.tally.endpoints >= 40, `${context.tally.endpoints} endpoints`);
});

hostile('property-based: random JSON for every field (fast-check), on REST and tRPC', async (context) => {
  const findings = new Findings();
  for (const operation of context.operations) {
    const fields = [...operation.bodyFields, ...operation.queryParams];
    const key = fc.constantFrom(...(fields.length > 0 ? fields : ['anything']), 'extra');
    const arbitrary = fc.record({
      path: fc.string({ maxLength: 60 }),
      values: fc.dictionary(key, fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 }),
    });
    const watch = new WriteWatch(context, findings);
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ path, values }) => {
        context.tally.inputs++;
        const pathParams = Object.fromEntries(operation.pathParams.map((name) => [name, path === '' ? '_' : path]));
        if (operation.method === 'GET') {
          // REST carries query values as strings; tRPC carries the JSON values themselves.
          const query = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, valueAsQuery(value)]));
          await sendRest(context, findings, watch, operation, { path: pathParams, query });
          await sendTrpc(context, findings, watch, operation, [{ ...values, ...pathParams }], 'httpLink');
        } else {
          const input: TInput = { path: pathParams, query: {}, body: values };
          const rest = await sendRest(context, findings, watch, operation, input);
          const twin = procedureInput(operation, input, 'x');
          const [trpc] = await sendTrpc(context, findings, watch, operation, [twin], 'httpLink');
          findings.add(
            () => `${labelOf(operation, 'tRPC', twin)()} vs REST`,
            differences(rest, trpc!, { data: 'skip' }),
          );
        }
      }),
      { numRuns: 12, seed: 20261122 },
    );
  }
  findings.assertNone();
});
hostile.run();
